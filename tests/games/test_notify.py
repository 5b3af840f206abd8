"""Mail that reminds without flooding: presence, held turn mail, reminders, the match-over mail, the digest.

Time travel as in the clock tests: ``clock`` is the clock and the broker (tests/games/world.py); a task
queued with a countdown runs only when a test moves the clock there.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, time, timedelta
from typing import Any

import pytest
from django.conf import settings
from django.core import mail as django_mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from games import outbox, tasks
from games.clocks import TimeControl
from games.models import Mail, Match, Seat
from games.notify import PRESENCE_EVERY, digests_queue, reminders_queue, seat_seen
from games.services import SeatSpec, match_create, move_submit
from tests.games.conftest import login
from tests.games.factories import UserFactory, make_match, play_engine_moves, quick_options
from tests.games.world import START, World

pytestmark = pytest.mark.django_db(transaction=True)  # on-commit callbacks queue the tasks, as in production


@pytest.fixture
def clock(world: World) -> World:
    """The clock and the broker (``world``, tests/games/conftest.py), under a name of its own here."""
    return world


MINUTE = timedelta(minutes=1)
HOUR = timedelta(hours=1)
DAY = timedelta(days=1)
GAME = "karnoffel"  # four seats, one to act at a time


def _humans(count: int = 4, **fields: Any) -> list[User]:
    fields.setdefault("notify", User.Notify.EACH_TURN)
    return [UserFactory(**fields) for _ in range(count)]


def _start(users: list[User], *, clock: TimeControl | None = None, game: str = GAME, bots: int = 0) -> Match:
    seats = [SeatSpec(user=u) for u in users] + [SeatSpec(bot="random")] * bots
    return match_create(
        game=game,
        players=len(seats),
        options=quick_options(game),
        created_by=users[0],
        seats=seats,
        time_control=clock,
        timeout_bot_level="random",
    )


def _awaited(match: Match) -> Seat:
    return match.seats.select_related("user").get(awaiting=True)


def _play(match: Match, seat: Seat) -> None:
    match.refresh_from_db()
    action = match.engine.legal_actions(match.state, seat.number)[0]
    move_submit(match=match, user=seat.user, seat=seat.number, action=action, version=match.version)


def _poll(client: Client, match: Match) -> None:
    """A poll that finds nothing new (the cheap 204), as a table left open sends every few seconds."""
    match.refresh_from_db()
    answer = client.get(reverse("games-poll", args=[match.pk]), {"v": match.version, "c": 0}, HTTP_HX_REQUEST="true")
    assert answer.status_code in (204, 286)


def _turn_mails(match: Match, **filters: Any) -> list[Mail]:
    return list(Mail.objects.filter(dedupe_key__startswith=f"turn:{match.pk}:", **filters).order_by("pk"))


# --- presence ----------------------------------------------------------------


def test_the_table_notes_the_player_at_most_once_a_minute_and_only_then_costs_a_query(clock: World) -> None:
    match = _start(_humans(notify=User.Notify.NEVER))
    seat = match.seats.select_related("user").get(number=0)
    client, url = login(seat.user), match.get_absolute_url()

    def load(path: str, **extra: Any) -> list[str]:
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(path, **extra).status_code == 200
        return [q["sql"] for q in ctx.captured_queries]

    first = load(url)
    seat.refresh_from_db()
    assert seat.last_seen == START
    clock.now += 30 * timedelta(seconds=1)
    again = load(url)
    seat.refresh_from_db()
    assert seat.last_seen == START  # within the minute: not written again
    assert len(first) == len(again) + 1  # the one UPDATE, only when it is due
    assert [q for q in first if q.startswith("UPDATE") and '"games_seat"' in q]
    assert not [q for q in again if q.startswith("UPDATE")]
    clock.now += PRESENCE_EVERY
    poll = reverse("games-poll", args=[match.pk])
    assert client.get(poll, {"v": match.version, "c": 0}, HTTP_HX_REQUEST="true").status_code == 204
    seat.refresh_from_db()
    assert seat.last_seen == clock.now  # an empty poll counts: the player is at the table
    watcher = login(UserFactory())
    assert watcher.get(url).status_code == 200
    assert not Seat.objects.filter(match=match).exclude(number=0).exclude(last_seen=None).exists()


def test_two_polls_at_once_write_the_seat_once(clock: World) -> None:
    match = _start(_humans(notify=User.Notify.NEVER))
    first, second = Seat.objects.get(match=match, number=0), Seat.objects.get(match=match, number=0)
    assert seat_seen(seat=first) is True
    with CaptureQueriesContext(connection) as ctx:
        seat_seen(seat=second)  # read before the first one wrote: its UPDATE finds nothing to change
    assert Seat.objects.get(pk=first.pk).last_seen == START
    assert len(ctx.captured_queries) == 1


# --- turn mail -----------------------------------------------------------------


def test_a_turn_mail_waits_out_the_grace_period_and_goes_if_the_turn_is_unanswered(clock: World) -> None:
    match = _start(_humans())
    (mail,) = _turn_mails(match)
    seat = _awaited(match)
    assert mail.send_after == START + 10 * MINUTE and mail.recipient == seat.user.email
    assert (mail.match_id, mail.seat_number, mail.turn_version) == (match.pk, seat.number, match.version)
    clock.advance(10 * MINUTE - timedelta(seconds=1))
    assert django_mail.outbox == []
    clock.advance(timedelta(seconds=1))
    assert [m.to for m in django_mail.outbox] == [[seat.user.email]]
    mail.refresh_from_db()
    assert mail.status == Mail.Status.SENT


def test_a_held_turn_mail_costs_the_move_no_message_and_is_queued_once_when_it_falls_due(clock: World) -> None:
    match = _start(_humans())
    (mail,) = _turn_mails(match)
    assert not [m for m in clock.published if m.task == "mail_send"]  # the move queued nothing for it
    assert tasks.mail_due.apply().get() == 0  # not due yet
    clock.now = START + 10 * MINUTE
    assert tasks.mail_due.apply().get() == 1
    assert tasks.mail_due.apply().get() == 0  # queued once, not at every run until it goes
    assert [m.args for m in clock.published if m.task == "mail_send"] == [(mail.pk,)]
    clock.queue.clear()  # the broker lost that message: the sweep queues the mail again a few minutes on
    clock.now += 6 * MINUTE
    assert tasks.mail_sweep.apply().get() == 1
    clock.run()
    assert [m.to for m in django_mail.outbox] == [[mail.recipient]]


def test_with_no_grace_period_the_turn_mail_is_queued_by_the_move_itself(clock: World, settings) -> None:
    settings.GAMES_TURN_MAIL_GRACE_SECONDS = 0
    match = _start(_humans())
    (mail,) = _turn_mails(match)
    assert [m.args for m in clock.published if m.task == "mail_send"] == [(mail.pk,)]
    clock.run()
    assert len(django_mail.outbox) == 1


def test_the_grace_period_is_a_setting(clock: World, settings) -> None:
    settings.GAMES_TURN_MAIL_GRACE_SECONDS = 120
    match = _start(_humans())
    assert _turn_mails(match)[0].send_after == START + 2 * MINUTE
    clock.advance(2 * MINUTE)
    assert len(django_mail.outbox) == 1


def test_a_turn_answered_within_the_grace_period_gets_no_mail(clock: World) -> None:
    match = _start(_humans())
    seat = _awaited(match)
    clock.advance(MINUTE)
    _play(match, seat)
    clock.advance(10 * MINUTE)
    first = _turn_mails(match)[0]
    assert first.status == Mail.Status.CANCELLED and "moved" in first.last_error
    assert seat.user.email not in [m.to[0] for m in django_mail.outbox]


def test_a_player_at_the_table_delays_the_turn_mail_and_is_told_once_they_leave(clock: World) -> None:
    match = _start(_humans())
    seat = _awaited(match)
    clock.advance(3 * MINUTE)
    _poll(login(seat.user), match)  # seen at the table after the turn began, then gone without moving
    clock.advance(7 * MINUTE)  # the grace period is over, but they were here three minutes in: the mail waits
    (mail,) = _turn_mails(match)
    assert mail.status == Mail.Status.PENDING and mail.send_after == START + 13 * MINUTE
    assert mail.attempts == 0 and "at the table" in mail.last_error
    assert django_mail.outbox == []
    clock.advance(3 * MINUTE)  # a grace period after they were last seen
    assert [m.to for m in django_mail.outbox] == [[seat.user.email]]
    clock.advance(30 * MINUTE)
    assert len(django_mail.outbox) == 1  # once
    mail.refresh_from_db()
    assert mail.status == Mail.Status.SENT


def test_a_player_watching_the_table_gets_no_mail_while_there_and_none_once_they_move(clock: World) -> None:
    match = _start(_humans())
    seat = _awaited(match)
    client = login(seat.user)
    for _ in range(20):  # twenty minutes at the table, polling
        _poll(client, match)
        clock.advance(MINUTE)
    assert django_mail.outbox == []
    _play(match, seat)
    clock.advance(30 * MINUTE)
    first = _turn_mails(match, seat_number=seat.number)[0]
    assert first.status == Mail.Status.CANCELLED and "moved" in first.last_error
    assert seat.user.email not in [m.to[0] for m in django_mail.outbox]


@pytest.mark.parametrize("seen_before", [MINUTE, 4 * MINUTE, 6 * MINUTE])
def test_a_player_who_looked_at_the_table_just_before_their_turn_and_left_is_mailed_once(
    clock: World, seen_before: timedelta
) -> None:
    """They look at the table, their turn begins a little later, they have left: the mail goes, once."""
    match = _start(_humans())
    seat = _awaited(match)
    for other in match.seats.select_related("user").exclude(pk=seat.pk):
        _poll(login(other.user), match)  # the others look at the table, then leave
    clock.advance(seen_before)
    _play(match, seat)
    nxt = _awaited(match)
    assert nxt.pk != seat.pk
    clock.advance(30 * MINUTE)
    theirs = _turn_mails(match, seat_number=nxt.number)
    assert [m.status for m in theirs] == [Mail.Status.SENT]
    assert [m.to[0] for m in django_mail.outbox].count(nxt.user.email) == 1


def test_a_held_mail_whose_message_was_lost_goes_from_the_sweep_not_before_its_time(clock: World) -> None:
    match = _start(_humans())
    clock.queue.clear()  # the broker lost the held send
    clock.now = START + 9 * MINUTE
    assert tasks.mail_sweep() == 0  # pending for a while, but not due yet
    clock.now = START + 10 * MINUTE + outbox.MAIL_HELD_LATE_AFTER
    assert tasks.mail_sweep() == 1
    clock.run()
    assert len(django_mail.outbox) == 1 and _turn_mails(match)[0].status == Mail.Status.SENT


def test_an_early_send_task_does_not_send_a_held_mail(clock: World) -> None:
    match = _start(_humans())
    (mail,) = _turn_mails(match)
    assert tasks.mail_send.apply(args=[mail.pk]).get() is False
    mail.refresh_from_db()
    assert mail.status == Mail.Status.PENDING and mail.attempts == 0
    clock.advance(10 * MINUTE)
    assert len(django_mail.outbox) == 1


def test_a_brisk_four_player_match_sends_at_most_one_mail_per_player_per_sitting(clock: World) -> None:
    """Four humans wanting every turn by mail; they come to the table after their first mail and play briskly.

    Each player moves within a minute of their turn and keeps the table open (it polls). Without the
    grace period and the presence check, each of the many turns below would have been a mail.
    """
    users = _humans(auto_forced_moves=False)
    match = _start(users, game="rapscallion")  # sealed bids: several seats awaited at once, too
    clock.advance(10 * MINUTE)  # nobody was at the table yet: the first turns are mailed
    first_mails = Counter(m.to[0] for m in django_mail.outbox)
    clients = [login(u) for u in users]
    for client in clients:  # the sitting begins: everyone has the table open
        _poll(client, match)
    turns = 0
    for _ in range(120):
        match.refresh_from_db()
        if match.is_over:
            break
        for client in clients:
            _poll(client, match)
        clock.advance(40 * timedelta(seconds=1))
        _play(match, _first_awaited(match))
        turns += 1
    clock.advance(30 * MINUTE)  # every held mail is decided
    per_player = Counter(m.to[0] for m in django_mail.outbox)
    assert max(per_player.values()) <= 1, [(m.to, m.subject) for m in django_mail.outbox]
    assert per_player == first_mails
    assert turns >= 30, "the match should have lasted a while"
    # The flood that would have been was held while each player sat at the table, and cancelled by their move.
    held = _turn_mails(match, status=Mail.Status.SENT)
    assert len(held) == sum(first_mails.values())
    assert not Mail.objects.filter(status__in=[Mail.Status.PENDING, Mail.Status.SENDING]).exists()


def _first_awaited(match: Match) -> Seat:
    return match.seats.select_related("user").filter(awaiting=True).order_by("number")[0]


# --- reminders -----------------------------------------------------------------

THREE_DAYS = TimeControl(initial=3 * DAY, increment=3 * DAY, cap=3 * DAY)


def _clocked(clock: TimeControl = THREE_DAYS, **fields: Any) -> tuple[Match, Seat]:
    fields.setdefault("notify", User.Notify.NEVER)  # reminders are about deadlines, not turns
    fields.setdefault("quiet_start", None)
    fields.setdefault("quiet_end", None)
    match = _start(_humans(**fields), clock=clock)
    return match, _awaited(match)


def _reminders(seat: Seat) -> list[Mail]:
    return list(Mail.objects.filter(dedupe_key__startswith=f"remind:{seat.pk}:").order_by("pk"))


def test_reminders_go_once_each_before_the_deadline_and_never_after_it(clock: World) -> None:
    match, seat = _clocked()
    deadline = seat.deadline
    assert deadline == START + 3 * DAY
    for now in (START, START + DAY, deadline - DAY - MINUTE):
        assert reminders_queue(now=now) == 0
    assert reminders_queue(now=deadline - DAY) == 1
    for now in (deadline - DAY, deadline - DAY + MINUTE, deadline - 3 * HOUR):
        assert reminders_queue(now=now) == 0  # once each
    assert reminders_queue(now=deadline - 2 * HOUR + MINUTE) == 1
    assert reminders_queue(now=deadline - HOUR) == 0
    assert reminders_queue(now=deadline + MINUTE) == 0
    first, second = _reminders(seat)
    assert first.recipient == seat.user.email and "runs out in 1 day" in _spaced(first.subject)
    assert "runs out in 1 hour, 59 minutes" in _spaced(second.subject)
    assert match.get_absolute_url() in first.body and "Thursday 5 March, 09:00 UTC" in first.body
    # The plain text names the address of the settings it points to, not just "your settings".
    assert first.body.rstrip().endswith(
        "see your settings: " + settings.SITE_URL.rstrip("/") + reverse("accounts-profile")
    )
    assert f'<a href="{settings.SITE_URL.rstrip("/")}{reverse("accounts-profile")}">your settings</a>' in first.html


def _spaced(text: str) -> str:
    return text.replace("\xa0", " ")  # Django's timeuntil keeps a number and its unit together


def test_the_reminder_sweep_is_a_task_the_broker_sends(clock: World) -> None:
    _match, seat = _clocked()
    clock.now = seat.deadline - 2 * HOUR
    assert tasks.reminder_sweep.apply(throw=True).result == 1
    clock.run()
    assert [m.to for m in django_mail.outbox] == [[seat.user.email]]
    assert "2 hours" in _spaced(django_mail.outbox[0].subject)


def test_reminders_follow_the_players_choice_of_offsets(clock: World) -> None:
    _match, seat = _clocked(reminder_hours=[6])
    assert reminders_queue(now=seat.deadline - DAY) == 0
    assert reminders_queue(now=seat.deadline - 2 * HOUR) == 1
    assert reminders_queue(now=seat.deadline - HOUR) == 0
    assert ":360" in _reminders(seat)[0].dedupe_key
    User.objects.filter(pk=seat.user_id).update(reminder_hours=[])
    Mail.objects.all().delete()
    assert reminders_queue(now=seat.deadline - HOUR) == 0


def test_a_reminder_is_not_sent_for_time_the_turn_never_had(clock: World) -> None:
    """One day a move: the 24-hour reminder would fall at the very start of the turn."""
    day = TimeControl(initial=DAY, increment=DAY, cap=DAY)
    _match, seat = _clocked(day)
    assert reminders_queue(now=START + MINUTE) == 0
    assert reminders_queue(now=seat.deadline - 2 * HOUR) == 1
    assert _reminders(seat)[0].dedupe_key.endswith(":120")


def test_of_two_reminders_due_at_once_only_the_nearer_goes(clock: World) -> None:
    _match, seat = _clocked()
    assert reminders_queue(now=seat.deadline - HOUR) == 1  # the sweep was down for a day
    assert reminders_queue(now=seat.deadline - HOUR + MINUTE) == 0
    assert [m.dedupe_key.rsplit(":", 1)[1] for m in _reminders(seat)] == ["120"]


def test_reminders_wait_for_the_end_of_quiet_hours_in_the_players_time_zone(clock: World) -> None:
    # Berlin is UTC+1 in March: the 24-hour reminder falls at 23:00 there, inside quiet hours.
    berlin = datetime(2026, 3, 2, 22, 0, tzinfo=UTC)  # 23:00 in Berlin
    _match, seat = _clocked(time_zone="Europe/Berlin", quiet_start=time(22, 0), quiet_end=time(7, 0))
    Seat.objects.filter(pk=seat.pk).update(deadline=berlin + DAY, bank=berlin + DAY - START)
    assert reminders_queue(now=berlin) == 0
    assert reminders_queue(now=berlin + 7 * HOUR) == 0  # 06:00 in Berlin: still quiet
    assert reminders_queue(now=berlin + 8 * HOUR) == 1  # 07:00 in Berlin
    (mail,) = _reminders(Seat.objects.get(pk=seat.pk))
    assert "Tuesday 3 March, 23:00 CET" in mail.body  # the deadline on the player's own clock


def test_a_reminder_in_quiet_hours_goes_at_once_if_the_deadline_would_pass_first(clock: World) -> None:
    # The 2-hour reminder falls at 03:00 in Berlin; quiet hours end at 07:00, after the deadline at 05:00.
    deadline = datetime(2026, 3, 3, 4, 0, tzinfo=UTC)
    _match, seat = _clocked(
        time_zone="Europe/Berlin", quiet_start=time(22, 0), quiet_end=time(7, 0), reminder_hours=[2]
    )
    Seat.objects.filter(pk=seat.pk).update(deadline=deadline, bank=deadline - START)
    assert reminders_queue(now=deadline - 2 * HOUR - MINUTE) == 0
    assert reminders_queue(now=deadline - 2 * HOUR) == 1


def test_no_reminder_while_on_vacation_or_at_the_table(clock: World) -> None:
    _match, seat = _clocked()
    User.objects.filter(pk=seat.user_id).update(vacation_started_at=START, vacation_until=START + 7 * DAY)
    assert reminders_queue(now=seat.deadline - 2 * HOUR) == 0
    User.objects.filter(pk=seat.user_id).update(vacation_started_at=None, vacation_until=None)
    Seat.objects.filter(pk=seat.pk).update(last_seen=seat.deadline - 2 * HOUR - MINUTE)
    assert reminders_queue(now=seat.deadline - 2 * HOUR) == 0  # at the table: held
    assert reminders_queue(now=seat.deadline - HOUR) == 1  # gone from the table, still before the deadline


def test_a_reminder_is_for_one_turn_the_next_turn_has_its_own(clock: World) -> None:
    match, seat = _clocked()
    assert reminders_queue(now=seat.deadline - 2 * HOUR) == 1
    clock.now = seat.deadline - HOUR
    _play(match, seat)
    # Round the table until the seat is awaited again, each within a minute.
    for _ in range(20):
        match.refresh_from_db()
        current = _awaited(match)
        if current.number == seat.number:
            break
        clock.advance(MINUTE)
        _play(match, current)
    current = Seat.objects.get(pk=seat.pk)
    assert current.awaiting, "the setup needs the seat awaited again"
    assert reminders_queue(now=current.deadline - 2 * HOUR) == 1
    assert len(_reminders(current)) == 2


# --- the match is over -------------------------------------------------------------


def test_the_match_over_mail_goes_once_to_each_human_who_wants_mail(clock: World) -> None:
    each, daily, never = (UserFactory(notify=n) for n in ("each_turn", "daily", "never"))
    match = make_match(GAME, users=[each, daily, never], bots=1, options=quick_options(GAME))
    Mail.objects.all().delete()
    clock.queue.clear()
    play_engine_moves(match, 0, until_over=True)
    assert match.status == Match.Status.FINISHED
    over = {m.user_id: m for m in Mail.objects.filter(dedupe_key__startswith=f"over:{match.pk}:")}
    assert set(over) == {each.pk, daily.pk}  # no bot, nobody who said never
    mail = over[each.pk]
    assert mail.subject == f"The match is over: {match.title} #{match.pk}"
    assert "is over." in mail.body and match.get_absolute_url() in mail.body
    assert each.name in mail.body and "1st" in mail.body and "<table>" in mail.html
    clock.run()
    assert sorted(m.to[0] for m in django_mail.outbox if "is over" in m.subject) == sorted([each.email, daily.email])


def test_a_player_at_the_table_when_the_match_ends_sees_the_result_there(clock: World) -> None:
    watching, away = UserFactory(), UserFactory()
    match = make_match(GAME, users=[watching, away], bots=2, options=quick_options(GAME))
    Seat.objects.filter(match=match, user=watching).update(last_seen=START - MINUTE)
    play_engine_moves(match, 0, until_over=True)
    over = Mail.objects.filter(dedupe_key__startswith=f"over:{match.pk}:")
    assert list(over.values_list("user_id", flat=True)) == [away.pk]


def test_bookkeeping_again_after_the_end_sends_no_second_match_over_mail(clock: World) -> None:
    from games.services import match_bookkeeping

    match = make_match(GAME, users=[UserFactory()], bots=3, options=quick_options(GAME))
    play_engine_moves(match, 0, until_over=True)
    match_bookkeeping(match=match, seats=list(match.seats.select_related("user")), moved=set())
    assert Mail.objects.filter(dedupe_key__startswith=f"over:{match.pk}:").count() == 1


# --- the daily digest ---------------------------------------------------------------


def _digest_players() -> tuple[User, User]:
    berlin = UserFactory(notify=User.Notify.DAILY, time_zone="Europe/Berlin", digest_hour=8)
    new_york = UserFactory(notify=User.Notify.DAILY, time_zone="America/New_York", digest_hour=8)
    for user in (berlin, new_york):  # each awaited somewhere: a match of their own against bots
        match = _start([user], bots=3)
        Seat.objects.filter(match=match).update(awaiting=False)
        Seat.objects.filter(match=match, user=user).update(awaiting=True)
    return berlin, new_york


def _digests(user: User) -> list[str]:
    return list(Mail.objects.filter(dedupe_key__startswith=f"digest:{user.pk}:").values_list("dedupe_key", flat=True))


def test_the_digest_goes_at_each_players_hour_in_their_own_time_zone(clock: World) -> None:
    berlin, new_york = _digest_players()
    day = datetime(2026, 3, 2, tzinfo=UTC)
    sent = {hour: digests_queue(now=day + hour * HOUR) for hour in range(24)}
    assert sent == {hour: 1 if hour in (7, 13) else 0 for hour in range(24)}  # 08:00 CET and 08:00 EST
    assert _digests(berlin) == [f"digest:{berlin.pk}:2026-03-02"]
    assert _digests(new_york) == [f"digest:{new_york.pk}:2026-03-02"]
    assert digests_queue(now=day + 7 * HOUR + 20 * MINUTE) == 0  # once a day
    assert digests_queue(now=day + DAY + 7 * HOUR) == 1  # and again the next day
    # After the clocks change in New York (8 March), 08:00 there is 12:00 UTC.
    assert digests_queue(now=datetime(2026, 3, 9, 12, 0, tzinfo=UTC)) == 1
    assert _digests(new_york)[-1] == f"digest:{new_york.pk}:2026-03-09"


def test_the_digest_task_uses_the_time_now(clock: World) -> None:
    berlin, _new_york = _digest_players()
    clock.now = datetime(2026, 3, 2, 7, 0, 5, tzinfo=UTC)  # 08:00 in Berlin
    assert tasks.digest_send.apply(throw=True).result == 1
    clock.run()
    assert [m.to for m in django_mail.outbox] == [[berlin.email]]
