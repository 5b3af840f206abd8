"""Turn mails: one per turn change, none for bots, the digest once a day, each mail sent exactly once."""

from __future__ import annotations

import smtplib
from datetime import timedelta
from unittest import mock

import pytest
from celery.exceptions import Retry
from django.conf import settings
from django.core import mail as django_mail
from django.test.signals import template_rendered
from django.utils import timezone
from django.utils.html import escape

from accounts.models import User
from games import outbox, tasks
from games.maillinks import link_read
from games.models import Mail, Match, Seat
from games.services import move_submit
from tests.games.factories import UserFactory, game_names, make_match

pytestmark = pytest.mark.django_db
GAME = game_names()[0]


def _seat_to_act(match: Match) -> Seat:
    match.refresh_from_db()
    return match.seats.select_related("user").get(number=match.engine.to_act(match.state)[0])


def _move(match: Match) -> None:
    seat = _seat_to_act(match)
    action = match.engine.legal_actions(match.state, seat.number)[0]
    move_submit(match=match, user=seat.user, seat=seat.number, action=action, version=match.version)


def _players(notify: str = User.Notify.EACH_TURN) -> list[User]:
    return [UserFactory(notify=notify, auto_forced_moves=False) for _ in range(Match(game=GAME).engine.MIN_PLAYERS)]


@pytest.fixture
def no_grace(settings) -> None:
    """No grace period: a turn mail goes as the turn begins (the grace period is tested in test_notify.py)."""
    settings.GAMES_TURN_MAIL_GRACE_SECONDS = 0


@pytest.mark.usefixtures("no_grace")
def test_it_mails_the_seat_to_act_once_per_turn_change(eager, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        match = make_match(GAME, users=_players())
    first = _seat_to_act(match)
    assert [m.to for m in django_mail.outbox] == [[first.user.email]]
    assert match.get_absolute_url() in django_mail.outbox[0].body
    for _ in range(3):
        before = len(django_mail.outbox)
        with django_capture_on_commit_callbacks(execute=True):
            _move(match)
        to_act = list(match.seats.select_related("user").filter(awaiting=True))
        assert len(django_mail.outbox) == before + len(to_act)
        assert {tuple(m.to) for m in django_mail.outbox[before:]} == {(s.user.email,) for s in to_act}
    assert Mail.objects.filter(status=Mail.Status.SENT).count() == len(django_mail.outbox)


@pytest.mark.usefixtures("no_grace")
def test_it_sends_no_second_mail_while_the_turn_is_unanswered(eager, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        match = make_match(GAME, users=_players())
    seat = _seat_to_act(match)
    from games.services import match_bookkeeping

    # Something else changes at the table (a chat, a bot's sweep) and the bookkeeping runs again.
    with django_capture_on_commit_callbacks(execute=True):
        match_bookkeeping(match=match, seats=list(match.seats.select_related("user")), moved=set())
    assert len(django_mail.outbox) == 1
    seat.refresh_from_db()
    assert seat.notified_at is not None


def test_it_mails_no_bot_and_no_one_who_said_never(eager, django_capture_on_commit_callbacks) -> None:
    players = Match(game=GAME).engine.MIN_PLAYERS
    with django_capture_on_commit_callbacks(execute=True):
        match = make_match(GAME, users=[UserFactory(notify=User.Notify.NEVER)], bots=players - 1)
        for _ in range(3):
            if 0 in match.engine.to_act(match.state):
                _move(match)
            match.refresh_from_db()
    assert match.moves.filter(kind="bot").exists()
    assert django_mail.outbox == []
    assert not Mail.objects.exists()


def test_it_sends_a_mail_exactly_once_even_if_the_task_runs_twice() -> None:
    mail = Mail.objects.create(recipient="a@example.com", subject="Your turn", body="Play", dedupe_key="k1")
    assert tasks.mail_send.apply(args=[mail.pk]).get() is True
    assert tasks.mail_send.apply(args=[mail.pk]).get() is False
    assert len(django_mail.outbox) == 1
    mail.refresh_from_db()
    assert mail.status == Mail.Status.SENT and mail.attempts == 1 and mail.sent_at


def test_it_retries_on_smtp_errors_and_the_move_never_fails(eager, django_capture_on_commit_callbacks) -> None:
    mail = Mail.objects.create(recipient="a@example.com", subject="s", body="b", dedupe_key="k2")
    down = smtplib.SMTPException("down")
    with (
        mock.patch("games.outbox.EmailMultiAlternatives.send", side_effect=down),
        mock.patch.object(tasks.mail_send, "retry", side_effect=Retry("later")) as retry,
        pytest.raises(Retry),
    ):
        tasks.mail_send.run(mail.pk)
    assert retry.called
    mail.refresh_from_db()
    assert mail.status == Mail.Status.PENDING and mail.attempts == 1 and "down" in mail.last_error
    # The next try sends it.
    assert tasks.mail_send.run(mail.pk) is True
    assert len(django_mail.outbox) == 1

    # A broker outage when queueing the mail leaves the move in place and the mail pending for the sweep.
    outage = ConnectionError("broker down")
    with (
        mock.patch("games.tasks.mail_send.apply_async", side_effect=outage),
        django_capture_on_commit_callbacks(execute=True),
    ):
        match = make_match(GAME, users=_players())
        _move(match)
    match.refresh_from_db()
    assert match.version >= 1
    assert Mail.objects.filter(status=Mail.Status.PENDING).count() >= 1


def test_the_sweep_requeues_stale_pending_mail() -> None:
    from datetime import timedelta

    from django.utils import timezone

    fresh = Mail.objects.create(recipient="a@example.com", subject="s", body="b", dedupe_key="fresh")
    stale = Mail.objects.create(recipient="b@example.com", subject="s", body="b", dedupe_key="stale")
    Mail.objects.filter(pk=stale.pk).update(updated_at=timezone.now() - timedelta(hours=1))
    with mock.patch("games.tasks.mail_send.delay") as delay:
        assert tasks.mail_sweep() == 1
    delay.assert_called_once_with(stale.pk)
    fresh.refresh_from_db()
    assert fresh.status == Mail.Status.PENDING


def test_it_sends_the_daily_digest_once_a_day(eager, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        match = make_match(GAME, users=_players(User.Notify.DAILY))
        other = make_match(GAME, users=_players(User.Notify.DAILY))
    assert django_mail.outbox == []  # daily players get no turn mail
    awaiting = {s.user_id for m in (match, other) for s in m.seats.filter(awaiting=True)}
    # At the players' digest hour (07:00 in UTC, the defaults); test_notify.py checks other hours and zones.
    seven = timezone.now().replace(hour=7, minute=0, second=0, microsecond=0)
    with django_capture_on_commit_callbacks(execute=True), mock.patch("django.utils.timezone.now", return_value=seven):
        assert tasks.digest_send() == len(awaiting)
        assert tasks.digest_send() == 0  # a second run the same day sends nothing
    assert len(django_mail.outbox) == len(awaiting)
    assert all("waiting for you" in m.subject for m in django_mail.outbox)


def _due(mail: Mail) -> None:
    """Cut the turn mail's grace period short, so that the sender takes it now."""
    Mail.objects.filter(pk=mail.pk).update(send_after=timezone.now())


def test_the_turn_mail_comes_from_its_templates_with_the_same_words() -> None:
    rendered: list[str] = []

    def seen(sender, template, context, **kwargs) -> None:
        rendered.append(template.name)

    players = _players()
    players[0].display_name = "Ann <b>& Co</b>"
    players[0].save()
    template_rendered.connect(seen)
    try:
        match = make_match(GAME, users=players)
        mail = Mail.objects.get(dedupe_key__startswith=f"turn:{match.pk}:")
        # The move writes the row and its subject only: the text and HTML are written when the mail goes.
        assert rendered == ["games/mail/turn_subject.txt"] and mail.body == mail.html == ""
        _due(mail)
        assert tasks.mail_send.apply(args=[mail.pk]).get() is True
    finally:
        template_rendered.disconnect(seen)
    mail.refresh_from_db()
    user = mail.user
    assert {"games/mail/turn_subject.txt", "games/mail/turn.txt", "games/mail/turn.html"} <= set(rendered)
    title, url = f"{match.title} #{match.pk}", settings.SITE_URL.rstrip("/") + match.get_absolute_url()
    assert mail.subject == f"Your turn at {title}"
    # Between the greeting and the closing lines: the seat's short view and its move links (test_mail_moves).
    assert mail.body.startswith(f"Hello {user.name},\n\nIt is your turn at {title}.\n")
    assert f"{url}\n\n" in mail.body
    assert mail.body.endswith(
        "\n\nWe will not write again about this match until you have played.\n"
        f"To change how often we write, see your settings: {settings.SITE_URL.rstrip('/')}/me/\n"
    )
    assert f'see <a href="{settings.SITE_URL.rstrip("/")}/me/">your settings</a>' in mail.html
    assert {"games/mail/_short_view.txt", "games/mail/_short_view.html"} <= set(rendered)
    assert f"<p>Hello {escape(user.name)},</p>" in mail.html and f"<strong>{escape(title)}</strong>" in mail.html
    assert f'<a href="{url}">' in mail.html and "go to the table</a>" in mail.html.lower()
    assert "We will not write again about this match until you have played." in mail.html
    # What went is what the outbox keeps.
    (sent,) = django_mail.outbox
    assert (sent.subject, sent.body, sent.alternatives[0][0]) == (mail.subject, mail.body, mail.html)


def test_a_turn_mail_is_written_from_the_match_as_it_is_when_it_goes() -> None:
    """The view and the links are those of the turn still awaiting the player when the mail goes."""
    match = make_match(GAME, users=_players())
    mail = Mail.objects.get(dedupe_key__startswith=f"turn:{match.pk}:")
    # The table moves on without the seat having to answer (another seat's timeout, say): a newer version.
    Match.objects.filter(pk=match.pk).update(version=match.version + 7)
    _due(mail)
    assert tasks.mail_send.apply(args=[mail.pk]).get() is True
    mail.refresh_from_db()
    tokens = [
        line.strip().rsplit("/mail/move/", 1)[1].strip("/") for line in mail.body.splitlines() if "/mail/move/" in line
    ]
    assert tokens
    assert {link_read(token).version for token in tokens} == {match.version + 7}


def test_a_turn_mail_that_cannot_be_written_ends_failed_with_the_reason() -> None:
    match = make_match(GAME, users=_players())
    mail = Mail.objects.get(dedupe_key__startswith=f"turn:{match.pk}:")
    _due(mail)
    with mock.patch("games.outbox.short_view", side_effect=KeyError("hand")):
        assert tasks.mail_send.apply(args=[mail.pk]).get() is False
    mail.refresh_from_db()
    assert mail.status == Mail.Status.FAILED and mail.attempts == 1
    assert mail.last_error == f"{outbox.RENDER_FAILED} KeyError: 'hand'"
    assert django_mail.outbox == [] and mail.body == ""
    assert tasks.mail_sweep() == 0  # a failed mail stays failed


def _stale(mail: Mail, age: timedelta) -> None:
    Mail.objects.filter(pk=mail.pk).update(updated_at=timezone.now() - age)


def test_a_mail_that_cannot_be_built_ends_failed_with_the_reason() -> None:
    """A line break in a header raises ValueError, not an SMTP error: recorded, counted, never left sending."""
    mail = Mail.objects.create(
        recipient="a@example.com", subject="Hello\nBcc: b@example.com", body="b", dedupe_key="k3"
    )
    assert tasks.mail_send.apply(args=[mail.pk]).get() is False
    mail.refresh_from_db()
    assert mail.status == Mail.Status.FAILED and mail.attempts == 1
    assert "linefeed" in mail.last_error or "newline" in mail.last_error.lower(), mail.last_error
    assert django_mail.outbox == []
    assert tasks.mail_sweep() == 0  # a failed mail stays failed


def test_any_error_while_sending_is_recorded_and_counted() -> None:
    mail = Mail.objects.create(recipient="a@example.com", subject="s", body="b", dedupe_key="k4")
    with mock.patch("games.outbox.EmailMultiAlternatives.send", side_effect=RuntimeError("backend bug")):
        assert tasks.mail_send.apply(args=[mail.pk]).get() is False
    mail.refresh_from_db()
    assert mail.status == Mail.Status.FAILED and mail.attempts == 1 and "backend bug" in mail.last_error


def test_the_sweep_sends_a_mail_a_dead_worker_left_sending_exactly_once(eager) -> None:
    mail = Mail.objects.create(
        recipient="a@example.com", subject="s", body="b", dedupe_key="lost", status=Mail.Status.SENDING, attempts=1
    )
    _stale(mail, outbox.MAIL_SENDING_STALE_AFTER + timedelta(minutes=1))
    assert tasks.mail_sweep() == 1
    assert tasks.mail_sweep() == 0
    assert [m.to for m in django_mail.outbox] == [["a@example.com"]]
    mail.refresh_from_db()
    assert mail.status == Mail.Status.SENT and mail.attempts == 2 and mail.sent_at


def test_the_sweep_leaves_a_mail_being_sent_now_alone(eager) -> None:
    mail = Mail.objects.create(
        recipient="a@example.com", subject="s", body="b", dedupe_key="busy", status=Mail.Status.SENDING, attempts=1
    )
    _stale(mail, outbox.MAIL_SENDING_STALE_AFTER - timedelta(minutes=1))
    assert tasks.mail_sweep() == 0
    mail.refresh_from_db()
    assert mail.status == Mail.Status.SENDING and mail.attempts == 1
    assert django_mail.outbox == []


def test_the_sweep_fails_a_lost_mail_that_had_all_its_attempts(eager) -> None:
    mail = Mail.objects.create(
        recipient="a@example.com",
        subject="s",
        body="b",
        dedupe_key="spent",
        status=Mail.Status.SENDING,
        attempts=outbox.MAIL_MAX_ATTEMPTS,
    )
    _stale(mail, outbox.MAIL_SENDING_STALE_AFTER + timedelta(minutes=1))
    assert tasks.mail_sweep() == 0
    mail.refresh_from_db()
    assert mail.status == Mail.Status.FAILED and "stopped" in mail.last_error
    assert django_mail.outbox == []


def _short(match: Match, number: int) -> tuple[dict, str, str]:
    from django.template.loader import render_to_string

    from games.outbox import short_view

    match.refresh_from_db()
    short = short_view(match=match, seat=number, seats=list(match.seats.select_related("user").order_by("number")))
    context = {"short": short}
    return (
        short,
        render_to_string("games/mail/_short_view.txt", context),
        render_to_string("games/mail/_short_view.html", context),
    )


def test_the_short_view_shows_a_players_other_cards_under_their_games_heading() -> None:
    """Rapscallion's bidding cards travel in the turn mail under their own heading (``own_card_sets``)."""
    match = make_match("rapscallion")
    number = match.engine.to_act(match.state)[0]
    mine = match.engine.view(match.state, number)["bidding_cards"]
    assert mine, "a Rapscallion player starts with bidding cards"
    short, text, html = _short(match, number)
    texts = [card["text"] for card in short["card_sets"][0]["cards"]]
    assert [s["heading"] for s in short["card_sets"]] == ["Your bidding cards"] and len(texts) == len(mine)
    assert "Your bidding cards: " + ", ".join(texts) in text and "<p>Your bidding cards: " in html
    other = make_match("karnoffel")
    assert _short(other, 0)[0]["card_sets"] == [] and "bidding" not in _short(other, 0)[1]


def test_the_short_view_names_the_hand_where_a_games_hands_differ() -> None:
    """Rentz: which of the five games this hand is, once the dealer has chosen it."""
    match = make_match("rentz")
    chooser = match.engine.to_act(match.state)[0]
    assert _short(match, chooser)[0]["hand_title"] == ""
    action = match.engine.legal_actions(match.state, chooser)[0]
    seat = match.seats.get(number=chooser)
    move_submit(match=match, user=seat.user, seat=chooser, action=action, version=match.version)
    title = match.engine.MINI_TITLES[action["game"]]
    short, text, html = _short(match, chooser)
    assert short["hand_title"] == title and f"This hand: {title}" in text and f"<p>This hand: {title}</p>" in html
    assert _short(make_match("karnoffel"), 0)[0]["hand_title"] == ""
