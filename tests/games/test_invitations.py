"""Invitations by email: limits per player and per address, subjects without chosen text, expiry, no account leak."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from unittest import mock

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import tasks
from games.errors import Refused
from games.models import Mail, Match, Seat
from games.outbox import mail_safe
from games.services import SeatSpec, invite_accept, match_create
from tests.games.conftest import login
from tests.games.factories import UserFactory, make_match
from tests.games.lobby import untouched_form

pytestmark = pytest.mark.django_db
GAME = "karnoffel"  # four seats: the creator and three others


@contextmanager
def clock(at: datetime) -> Iterator[None]:
    """``timezone.now()`` (and so ``auto_now_add``) answers ``at`` inside the block."""
    with mock.patch("django.utils.timezone.now", return_value=at):
        yield


def _invite(creator: User | None, *emails: str) -> Match:
    """A waiting match of ``creator`` inviting ``emails`` to the seats after theirs; bots fill the rest."""
    first = [SeatSpec(user=creator)] if creator is not None else [SeatSpec(bot="random")]
    seats = first + [SeatSpec(email=e) for e in emails]
    seats += [SeatSpec(bot="random")] * (4 - len(seats))
    return match_create(game=GAME, players=4, options={}, created_by=creator, seats=seats)


def _nothing_more(matches: int, mails: int) -> None:
    assert Match.objects.count() == matches, "a refused creation leaves no match"
    assert Mail.objects.count() == mails, "a refused creation sends no mail"


@pytest.fixture
def utc_start() -> datetime:
    return datetime(2026, 3, 2, 12, 0, tzinfo=timezone.get_fixed_timezone(0))


# --- limits ----------------------------------------------------------------


def test_it_refuses_more_open_invitations_than_the_limit_and_creates_nothing(settings) -> None:
    settings.GAMES_INVITATIONS_PENDING_MAX = 4
    creator = UserFactory()
    _invite(creator, "a@example.org", "b@example.org", "c@example.org")
    _invite(creator, "d@example.org")
    with pytest.raises(Refused, match=r"at most 4 invitations waiting for an answer; you have 4"):
        _invite(creator, "e@example.org")
    _nothing_more(matches=2, mails=4)
    # An answered invitation no longer counts.
    invite_accept(token=Seat.objects.get(invite_email="d@example.org").invite_token, user=UserFactory())
    _invite(creator, "e@example.org")


def test_it_refuses_more_invitation_mails_a_day_than_the_limit_counted_from_the_outbox(settings, utc_start) -> None:
    settings.GAMES_INVITATIONS_PER_DAY = 5
    creator = UserFactory()
    with clock(utc_start):
        _invite(creator, "a@example.org", "b@example.org", "c@example.org")
        match = _invite(creator, "d@example.org", "e@example.org")
        # Answered or not, a mail sent is a mail sent.
        Seat.objects.filter(match=match, invite_email="d@example.org").update(invite_token="", joined=True)
        with pytest.raises(Refused, match=r"at most 5 invitations a day; you have sent 5"):
            _invite(creator, "f@example.org")
        _nothing_more(matches=2, mails=5)
        _invite(UserFactory(), "f@example.org")  # the limit is the sender's: another player may
    with clock(utc_start + timedelta(hours=23)), pytest.raises(Refused, match="a day"):
        _invite(creator, "g@example.org")
    with clock(utc_start + timedelta(hours=24, minutes=1)):
        _invite(creator, "g@example.org")


def test_one_address_gets_at_most_three_invitations_a_day_from_everyone_together(utc_start) -> None:
    with clock(utc_start):
        for _ in range(3):
            _invite(UserFactory(), "target@example.org")
        with pytest.raises(Refused) as refused:
            _invite(UserFactory(), "other@example.org", "TARGET@example.org ")
        assert str(refused.value) == (
            "target@example.org has had 3 invitations to Parlour in the last day, the most one address gets "
            "from everyone together; invite it again tomorrow."
        )
        _nothing_more(matches=3, mails=3)
        # A match the site makes itself is held to it too.
        with pytest.raises(Refused, match="target@example.org has had 3"):
            _invite(None, "target@example.org")
    with clock(utc_start + timedelta(days=1, minutes=1)):
        _invite(UserFactory(), "target@example.org")
    assert Mail.objects.filter(recipient="target@example.org").count() == 4


def test_a_mail_sent_again_counts_towards_the_address_limit(settings) -> None:
    from games.services import invite_resend

    settings.GAMES_INVITATIONS_PER_ADDRESS_PER_DAY = 2
    creator = UserFactory()
    match = _invite(creator, "target@example.org")
    invite_resend(match_id=match.pk, number=1, by=creator)
    with pytest.raises(Refused, match="target@example.org has had 2"):
        invite_resend(match_id=match.pk, number=1, by=creator)
    assert Mail.objects.filter(recipient="target@example.org").count() == 2


# --- what goes into the mail -------------------------------------------------


def test_the_invitation_subject_is_fixed_and_the_inviters_name_is_quoted_without_control_characters() -> None:
    creator = UserFactory()
    # Saved past the profile form's checks on purpose: the mail must not rely on them.
    chosen = "WIN $$$ evil.example\r\nBcc: a@x.org\u202e now"  # 39 of the 40 allowed
    User.objects.filter(pk=creator.pk).update(display_name=chosen)
    creator.refresh_from_db()
    _invite(creator, "someone@example.org")
    mail = Mail.objects.get(recipient="someone@example.org")
    assert mail.subject == "An invitation to play Karnoffel on Parlour"
    quoted = "A Parlour player who calls themselves"
    assert f'{quoted} "WIN $$$ evil.example Bcc: a@x.org now"' in mail.body
    assert f"{quoted} “WIN $$$ evil.example Bcc: a@x.org now”" in mail.html
    for text in (mail.body, mail.html):
        assert "\r" not in text and "\u202e" not in text and "\nBcc" not in text


def test_mail_safe_keeps_one_line_of_visible_text() -> None:
    assert mail_safe("Ann\x00\r\n\tLee\u200b\u2028 \u202eX") == "Ann Lee X"
    assert mail_safe("Zoë Ünal") == "Zoë Ünal"


def test_turn_and_digest_subjects_carry_no_chosen_text(eager, django_capture_on_commit_callbacks) -> None:
    players = [UserFactory(notify=User.Notify.EACH_TURN, auto_forced_moves=False) for _ in range(4)]
    User.objects.filter(pk__in=[p.pk for p in players]).update(display_name="WIN $$$ now\n")
    with django_capture_on_commit_callbacks(execute=True):
        match = make_match(GAME, users=[User.objects.get(pk=p.pk) for p in players])
    turn = Mail.objects.get(dedupe_key__startswith="turn:")
    assert turn.subject == f"Your turn at Karnoffel #{match.pk}"
    User.objects.filter(pk__in=[p.pk for p in players]).update(notify=User.Notify.DAILY)
    seven = timezone.now().replace(hour=7, minute=0, second=0, microsecond=0)  # the players' digest hour, UTC
    with mock.patch("django.utils.timezone.now", return_value=seven):
        tasks.digest_send()
    digest = Mail.objects.get(dedupe_key__startswith="digest:")
    assert "WIN" not in digest.subject and "waiting for you on Parlour" in digest.subject


# --- expiry ------------------------------------------------------------------


def test_a_waiting_match_expires_with_its_invitations(settings, utc_start) -> None:
    settings.GAMES_WAITING_EXPIRE_DAYS = 5
    creator, invitee = UserFactory(), UserFactory()
    with clock(utc_start):
        waiting = _invite(creator, "late@example.org", "other@example.org")
        started = make_match(GAME)
    assert waiting.expires_at == utc_start + timedelta(days=5)
    token = waiting.seats.get(number=1).invite_token
    link = reverse("games-invite", args=[token])
    with clock(utc_start + timedelta(days=5) - timedelta(seconds=1)):
        assert tasks.waiting_expire() == 0
        assert login(invitee).get(link).status_code == 200
    with clock(utc_start + timedelta(days=5)):
        # Past its time: no one takes a seat, even before the sweep has come by.
        with pytest.raises(Refused, match="no longer valid"):
            invite_accept(token=token, user=invitee)
        assert tasks.waiting_expire() == 1
        assert tasks.waiting_expire() == 0, "a second run voids nothing twice"
    waiting.refresh_from_db()
    started.refresh_from_db()
    assert waiting.status == Match.Status.ABANDONED and waiting.finished_at == utc_start + timedelta(days=5)
    assert started.status == Match.Status.ACTIVE, "only waiting matches expire"
    assert not waiting.seats.exclude(invite_token="").exists(), "every link is void"
    page = login(invitee).get(link, follow=True)
    message = str(list(page.context["messages"])[0])
    assert "no longer valid" in message or "already been used" in message
    with pytest.raises(Refused, match="no longer valid"):
        invite_accept(token=token, user=invitee)


def test_expire_claims_each_match_once(utc_start) -> None:
    from games.services import match_expire

    with clock(utc_start):
        match = _invite(UserFactory(), "a@example.org")
    with clock(utc_start + timedelta(days=8)):
        assert match_expire(match_id=match.pk) is True
        assert match_expire(match_id=match.pk) is False


def test_the_invitation_page_says_when_it_expires(utc_start) -> None:
    with clock(utc_start):
        match = _invite(UserFactory(display_name="Dora"), "a@example.org")
    link = reverse("games-invite", args=[match.seats.get(number=1).invite_token])
    with clock(utc_start + timedelta(days=1)):
        text = login(UserFactory()).get(link).content.decode()
    assert "expires" in text and "9 March 2026" in text
    assert "9 March 2026" in Mail.objects.get().body


# --- nothing tells whether an address has an account ---------------------------


def test_an_invitation_is_the_same_whether_or_not_the_address_has_an_account() -> None:
    known = UserFactory(email="known@example.org", display_name="Quentin Known")
    creator = UserFactory()
    match = _invite(creator, "known@example.org")
    _invite(creator, "stranger@example.org")
    seats = {s.invite_email: s for s in Seat.objects.exclude(invite_email="")}
    assert seats["known@example.org"].user is None and seats["stranger@example.org"].user is None
    mails = {m.recipient: m for m in Mail.objects.all()}
    assert mails["known@example.org"].user is None and mails["stranger@example.org"].user is None
    assert mails["known@example.org"].subject == mails["stranger@example.org"].subject
    assert (
        mails["known@example.org"].body.split("/invite/")[0] == mails["stranger@example.org"].body.split("/invite/")[0]
    )
    page = login(creator).get(match.get_absolute_url()).content.decode()
    assert "Invited: known@example.org" in page and "Quentin Known" not in page
    # The creator may even invite an address of someone seated (their own): nothing is looked up.
    own = _invite(creator, creator.email)
    assert own.seats.get(number=1).invite_email == creator.email.lower()
    # The account holder who follows the link takes the seat, as anyone holding it could.
    invite_accept(token=seats["known@example.org"].invite_token, user=known)


def test_refusals_read_the_same_for_an_address_with_an_account_and_one_without(settings) -> None:
    settings.GAMES_INVITATIONS_PER_ADDRESS_PER_DAY = 1
    UserFactory(email="known@example.org")
    messages = {}
    for email in ("known@example.org", "stranger@example.org"):
        _invite(UserFactory(), email)
        with pytest.raises(Refused) as again:
            _invite(UserFactory(), email)
        with pytest.raises(Refused) as twice:
            _invite(UserFactory(), email, email.upper())
        messages[email] = (str(again.value).replace(email, "ADDRESS"), str(twice.value))
    assert messages["known@example.org"] == messages["stranger@example.org"]


def test_the_new_match_form_shows_the_limit_and_creates_nothing(settings) -> None:
    settings.GAMES_INVITATIONS_PER_ADDRESS_PER_DAY = 1
    _invite(UserFactory(), "twice@example.org")
    data = untouched_form(GAME, 4)
    data.update({"seat_1_kind": "email", "seat_1_email": "twice@example.org"})
    data.update({"seat_2_kind": "bot", "seat_3_kind": "bot"})
    page = login(UserFactory()).post(reverse("games-create") + f"?game={GAME}", data)
    assert page.status_code == 200
    assert "twice@example.org has had 1 invitation to Parlour" in page.content.decode()
    _nothing_more(matches=1, mails=1)
