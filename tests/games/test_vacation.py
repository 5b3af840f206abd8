"""Vacation: a player stops their own clocks, and only theirs, within a yearly budget of days."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest
from django.test import Client

from accounts.models import User
from games import tasks
from games.clocks import DAY, HOUR, TimeControl
from games.errors import Refused
from games.models import Match, Move, Seat
from games.services import match_timeouts, move_submit
from games.vacation import vacation_end, vacation_expire, vacation_start
from tests.games.factories import UserFactory, make_match, play_until_turn

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
# Fischer: 24 hours to start, 4 hours more a move, at most 3 days saved up.
FISCHER = TimeControl(initial=24 * HOUR, increment=4 * HOUR, cap=72 * HOUR)


class Clock:
    """The time every service reads (``django.utils.timezone.now``), moved by hand."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def advance(self, span: timedelta) -> datetime:
        self.now += span
        return self.now


@pytest.fixture
def clock() -> Iterator[Clock]:
    at = Clock(T0)
    with mock.patch("django.utils.timezone.now", side_effect=lambda: at.now):
        yield at


def clocked(match: Match, tc: TimeControl = FISCHER) -> Match:
    """Put a clock on a started match: each awaited seat's turn starts now, as the services would start it."""
    Match.objects.filter(pk=match.pk).update(time_control=tc.to_json())
    match.refresh_from_db()
    for seat in match.seats.select_related("user").filter(awaiting=True):
        Seat.objects.filter(pk=seat.pk).update(deadline=seat.turn_deadline(clock=match.clock, now=T0))
    return match


def seat_of(match: Match, user: User) -> Seat:
    return Seat.objects.get(match=match, user=user)


def fresh(user: User) -> User:
    user.refresh_from_db()
    return user


def bid(match: Match, user: User) -> None:
    """The player's sealed bid in Rapscallion: any legal one."""
    match.refresh_from_db()
    number = seat_of(match, user).number
    action = match.engine.legal_actions(match.state, number)[0]
    move_submit(match=match, user=user, seat=None, action=action, version=match.version)


# --- stopping and restarting clocks ----------------------------------------------


def test_it_stops_only_the_players_clocks_and_spends_only_their_budget(clock: Clock) -> None:
    ann, ben = UserFactory(), UserFactory()
    match = clocked(make_match("rapscallion", users=[ann, ben]))  # both bid at once: both clocks run
    clock.advance(6 * HOUR)

    stopped = vacation_start(user=ann, days=3)

    assert stopped == 1
    assert (ann.vacation_started_at, ann.vacation_until) == (T0 + 6 * HOUR, T0 + 6 * HOUR + 3 * DAY)
    assert (seat_of(match, ann).deadline, seat_of(match, ann).bank) == (None, 18 * HOUR)
    assert seat_of(match, ben).deadline == T0 + 24 * HOUR  # Ben's clock runs on
    # Past both deadlines: Ben times out, Ann does not.
    clock.advance(2 * DAY)
    assert match_timeouts(match_id=match.pk) == 1
    assert list(Move.objects.filter(match=match, kind=Move.Kind.TIMEOUT).values_list("seat", flat=True)) == [
        seat_of(match, ben).number
    ]

    assert vacation_end(user=ann) == 2

    assert seat_of(match, ann).deadline == clock.now + 18 * HOUR  # the time she had left
    assert (fresh(ann).vacation_days_used, fresh(ann).vacation_started_at, fresh(ann).vacation_until) == (2, None, None)
    assert (fresh(ben).vacation_days_used, fresh(ben).on_vacation) == (0, False)


def test_the_sweep_ends_a_vacation_when_its_days_are_over_with_the_same_time_left(clock: Clock) -> None:
    ann, ben = UserFactory(), UserFactory()
    match = clocked(make_match("rapscallion", users=[ann, ben]))
    clock.advance(5 * HOUR)
    vacation_start(user=ann, days=2)
    clock.advance(DAY)
    assert tasks.vacation_sweep.apply().get() == 0  # not over yet
    assert seat_of(match, ann).deadline is None

    clock.advance(DAY + 3 * timedelta(minutes=1))  # the sweep runs a little after the end
    assert tasks.vacation_sweep.apply().get() == 1

    assert seat_of(match, ann).deadline == clock.now + 19 * HOUR
    ann = fresh(ann)
    assert (ann.on_vacation, ann.vacation_days_used, ann.vacation_year) == (False, 2, 2026)
    # Run again, as a second beat or a retried task would: nothing more happens.
    clock.advance(timedelta(minutes=1))
    assert vacation_expire() == 0
    assert seat_of(match, ann).deadline == clock.now - timedelta(minutes=1) + 19 * HOUR
    assert fresh(ann).vacation_days_used == 2


def test_a_turn_that_comes_during_vacation_gets_its_deadline_when_the_vacation_ends(clock: Clock) -> None:
    users = [UserFactory() for _ in range(4)]
    match = clocked(make_match("rentz", users=users))
    first = Seat.objects.get(match=match, awaiting=True).number
    later = (first + 1) % 4
    away = users[later]
    vacation_start(user=away, days=5)

    clock.advance(HOUR)
    play_until_turn(match, later)

    seat = seat_of(match, away)
    assert seat.awaiting and seat.deadline is None
    # The seat's bank: the initial time, or more if the deal made it move once already (a move earns the increment).
    bank = seat.bank or FISCHER.initial
    assert bank >= FISCHER.initial
    clock.advance(DAY)
    vacation_end(user=away)
    assert seat_of(match, away).deadline == clock.now + bank


def test_a_move_made_on_vacation_earns_the_increment(clock: Clock) -> None:
    ann, ben = UserFactory(), UserFactory()
    match = clocked(make_match("rapscallion", users=[ann, ben]))
    clock.advance(6 * HOUR)
    vacation_start(user=ann, days=3)
    clock.advance(HOUR)

    bid(match, ann)

    seat = seat_of(match, ann)
    assert seat.bank == 18 * HOUR + FISCHER.increment and seat.deadline is None


def test_a_deadline_already_passed_is_not_undone_by_a_vacation(clock: Clock) -> None:
    ann, ben = UserFactory(), UserFactory()
    match = clocked(make_match("rapscallion", users=[ann, ben]))
    clock.advance(25 * HOUR)
    assert vacation_start(user=ann, days=1) == 0
    assert seat_of(match, ann).deadline == T0 + 24 * HOUR


def test_the_sweep_stops_a_clock_that_started_as_the_vacation_began(clock: Clock) -> None:
    ann, ben = UserFactory(), UserFactory()
    match = clocked(make_match("rapscallion", users=[ann, ben]))
    # As if a move had given Ann a turn in the same instant, reading her as not yet on vacation.
    User.objects.filter(pk=ann.pk).update(vacation_started_at=T0, vacation_until=T0 + 2 * DAY)
    clock.advance(HOUR)
    vacation_expire()
    assert (seat_of(match, ann).deadline, seat_of(match, ann).bank) == (None, 23 * HOUR)
    assert seat_of(match, ben).deadline == T0 + 24 * HOUR


# --- the budget -------------------------------------------------------------------


def test_the_budget_refuses_more_days_than_are_left(clock: Clock) -> None:
    ann, ben = UserFactory(vacation_days_used=10, vacation_year=2026), UserFactory()
    match = clocked(make_match("rapscallion", users=[ann, ben]))
    with pytest.raises(Refused, match=r"^You have only 4 vacation days left this year; choose 4 or fewer\.$"):
        vacation_start(user=ann, days=5)
    assert not fresh(ann).on_vacation and seat_of(match, ann).deadline == T0 + 24 * HOUR
    vacation_start(user=ann, days=4)
    assert fresh(ann).vacation_until == T0 + 4 * DAY


@pytest.mark.parametrize(
    "fields, days, message",
    [
        ({"vacation_days_used": 14, "vacation_year": 2026}, 1, "You have no vacation days left this year."),
        ({}, 0, "A vacation lasts at least 1 day."),
        (
            {"vacation_started_at": T0, "vacation_until": T0 + DAY},
            1,
            r"^You are already on vacation until Tuesday 3 March, 09:00\.$",
        ),
    ],
)
def test_it_refuses_a_vacation_with_a_sentence(
    clock: Clock, fields: dict[str, object], days: int, message: str
) -> None:
    user = UserFactory(**fields)
    with pytest.raises(Refused, match=message):
        vacation_start(user=user, days=days)


def test_days_used_last_year_do_not_count_this_year(clock: Clock) -> None:
    user = UserFactory(vacation_days_used=14, vacation_year=2025)
    assert user.vacation_budget(now=T0).days_left == 14
    vacation_start(user=user, days=14)
    clock.advance(3 * HOUR)
    assert vacation_end(user=user) == 1  # any vacation costs at least a day
    user = fresh(user)
    assert (user.vacation_days_used, user.vacation_year) == (1, 2026)


def test_ending_a_vacation_that_is_not_on_is_refused(clock: Clock) -> None:
    with pytest.raises(Refused, match="You are not on vacation."):
        vacation_end(user=UserFactory())


# --- auto vacation ------------------------------------------------------------------


def test_auto_vacation_spends_a_day_instead_of_a_timeout_then_times_out_when_none_are_left(clock: Clock) -> None:
    users = [UserFactory() for _ in range(4)]
    match = clocked(make_match("rentz", users=users))
    seat = Seat.objects.select_related("user").get(match=match, awaiting=True)
    player = seat.user
    assert player is not None
    User.objects.filter(pk=player.pk).update(auto_vacation=True, vacation_days_used=13, vacation_year=2026)
    version = match.version

    clock.advance(24 * HOUR + timedelta(minutes=1))
    assert match_timeouts(match_id=match.pk) == 0

    assert seat_of(match, player).deadline == T0 + 48 * HOUR
    assert fresh(player).vacation_days_used == 14
    match.refresh_from_db()
    assert match.version == version and not Move.objects.filter(match=match, kind=Move.Kind.TIMEOUT).exists()

    clock.advance(DAY)
    assert match_timeouts(match_id=match.pk) == 1
    assert Move.objects.filter(match=match, kind=Move.Kind.TIMEOUT, seat=seat.number).count() == 1
    assert fresh(player).vacation_days_used == 14


def test_without_auto_vacation_the_timeout_happens_and_no_day_is_spent(clock: Clock) -> None:
    users = [UserFactory() for _ in range(4)]
    match = clocked(make_match("rentz", users=users))
    seat = Seat.objects.select_related("user").get(match=match, awaiting=True)
    clock.advance(25 * HOUR)
    assert match_timeouts(match_id=match.pk) == 1
    assert seat.user is not None and fresh(seat.user).vacation_days_used == 0


# --- the profile page ---------------------------------------------------------------


def test_the_profile_page_starts_and_ends_a_vacation(clock: Clock) -> None:
    ann, ben = UserFactory(), UserFactory()
    match = clocked(make_match("rapscallion", users=[ann, ben]))
    client = Client()
    client.force_login(ann)
    assert "You have <strong>14 of 14</strong> vacation days left this year." in client.get("/me/").content.decode()

    page = client.post("/me/vacation/", {"days": "3"}, follow=True).content.decode()

    assert "Your clocks are stopped until Thursday 5 March, 09:00. Enjoy your vacation!" in page
    assert "You are on vacation until Thursday 5 March, 09:00." in page
    assert seat_of(match, ann).deadline is None
    clock.advance(DAY + HOUR)

    page = client.post("/me/vacation/end/", follow=True).content.decode()

    assert "Welcome back. Your clocks run again; the vacation took 2 vacation days." in page
    assert "You have <strong>12 of 14</strong> vacation days left this year." in page
    assert seat_of(match, ann).deadline == clock.now + 24 * HOUR


@pytest.mark.parametrize(
    "days, message",
    [
        ("15", "You have only 14 vacation days left this year; choose 14 or fewer."),
        ("0", "A vacation lasts at least 1 day."),
        ("", "Say how many days of vacation you want."),
        ("two", "Enter the number of days as a whole number."),
    ],
)
def test_the_vacation_form_refuses_bad_days_with_a_sentence(clock: Clock, days: str, message: str) -> None:
    ann = UserFactory()
    client = Client()
    client.force_login(ann)
    response = client.post("/me/vacation/", {"days": days})
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not fresh(ann).on_vacation


def test_the_vacation_pages_need_a_login_and_a_post(clock: Clock) -> None:
    client = Client()
    for url in ("/me/vacation/", "/me/vacation/end/"):
        response = client.post(url, {"days": "1"})
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    ann = UserFactory()
    client.force_login(ann)
    assert client.get("/me/vacation/").status_code == 405
    assert client.get("/me/vacation/end/").status_code == 405
    assert not fresh(ann).on_vacation


def test_ending_from_the_page_when_not_on_vacation_says_so(clock: Clock) -> None:
    client = Client()
    client.force_login(UserFactory())
    assert "You are not on vacation." in client.post("/me/vacation/end/", follow=True).content.decode()


def test_the_dashboard_tells_a_player_on_vacation_until_when(clock: Clock) -> None:
    ann = UserFactory()
    client = Client()
    client.force_login(ann)
    assert "You are on vacation" not in client.get("/").content.decode()
    vacation_start(user=ann, days=2)
    assert "You are on vacation until Wednesday 4 March, 09:00" in client.get("/").content.decode()


def test_an_auto_vacation_day_is_written_in_the_log_that_everyone_reads(clock: Clock) -> None:
    users = [UserFactory() for _ in range(4)]
    match = clocked(make_match("rentz", users=users))
    seat = Seat.objects.select_related("user").get(match=match, awaiting=True)
    player = seat.user
    assert player is not None
    User.objects.filter(pk=player.pk).update(auto_vacation=True, vacation_days_used=12, vacation_year=2026)
    lines_before = len(Match.objects.get(pk=match.pk).recent_moves)

    clock.advance(24 * HOUR + timedelta(minutes=1))
    assert match_timeouts(match_id=match.pk) == 0

    match.refresh_from_db()
    assert len(match.recent_moves) == lines_before + 1
    line = match.recent_moves[-1]
    assert (line["seat"], line["kind"]) == (seat.number, "vacation")
    assert line["ply"] == match.version - 1  # numbered with the move before it: the next move still reads as newer
    other = next(u for u in users if u.pk != player.pk)
    client = Client()
    client.force_login(other)
    page = client.get(match.get_absolute_url()).content.decode()
    log = page.split('id="log-lines"', 1)[1].split("</ol>", 1)[0]
    shown = [li for li in log.split("<li")[1:] if "ran out of time: a vacation day was spent, a day more to play" in li]
    assert len(shown) == 1 and player.name in shown[0]
    # Public, and no more: not how many days the player has left, which stays their own.
    assert line["text"] == "ran out of time: a vacation day was spent, a day more to play"

    clock.advance(DAY)  # the second day left is spent too, and logged again
    assert match_timeouts(match_id=match.pk) == 0
    clock.advance(DAY)  # none left: the timeout happens, with no vacation line
    assert match_timeouts(match_id=match.pk) == 1
    match.refresh_from_db()
    kinds = [m["kind"] for m in match.recent_moves[lines_before:]]
    assert kinds[:3] == ["vacation", "vacation", "timeout"]
    # On the page each line has a key of its own, between the move before and the move after (parlour.js
    # keys the reader's place and the announcements by it), and a note shows no number of its own.
    page = client.get(match.get_absolute_url()).content.decode()
    log = page.split('id="log-lines"', 1)[1].split("</ol>", 1)[0]
    keys = re.findall(r'data-key="([^"]+)"', log)
    assert len(keys) == len(set(keys)), keys
    numbers = [float(k) for k in keys]
    assert numbers == sorted(numbers, reverse=True)
    notes = [k for k in keys if "." in k]
    assert len(notes) == 2 and notes[0].split(".")[0] == notes[1].split(".")[0] and notes[0] != notes[1]
