"""Absence on the clock: timeouts in a row mark a seat absent, mail the player once and let the bot play
on until the player reclaims the seat; matches of bots alone, or whose humans all vanish, still end.
Time travel: ``world`` (tests/games/world.py) is the clock, the broker and beat at once."""

from __future__ import annotations

import heapq
import itertools
from datetime import timedelta

import pytest
from django.urls import reverse

from accounts.models import User
from games import tasks
from games.clocks import TimeControl
from games.models import Mail, Match, Move, Seat
from games.services import seat_reclaim
from tests.games.conftest import login
from tests.games.factories import UserFactory
from tests.games.world import MINUTE, TEN_MINUTES, World, awaited, clocked, move_first_legal, timeouts

pytestmark = pytest.mark.django_db(transaction=True)  # on-commit callbacks queue the tasks, as in production


# --- absence ---------------------------------------------------------------


def test_timeouts_in_a_row_mark_the_seat_absent_mail_once_and_the_bot_plays_on_until_reclaimed(world: World) -> None:
    match = clocked("karnoffel", humans=1, bots=3, options={"target": 2})
    seat = match.seats.get(number=0)
    for expected in (1, 2, 3):
        assert not seat.absent
        while timeouts(match) < expected:  # the bots move, seat 0's time runs out
            world.step()
        seat.refresh_from_db()
        assert seat.timeouts_in_row == expected
    assert seat.absent and seat.deadline is None
    mails = Mail.objects.filter(dedupe_key__startswith=f"absent:{seat.pk}:")
    assert mails.count() == 1 and mails.get().recipient == seat.user.email
    assert "take your seat back" in mails.get().body.lower() and match.get_absolute_url() in mails.get().body
    assert match.seats.get(number=0).user.notify == User.Notify.NEVER  # sent whatever the turn-mail choice

    # The bot plays the absent seat like a bot seat, each move on the bot delay, counted for leagues.
    while not Move.objects.filter(match=match, seat=0, kind=Move.Kind.BOT).exists():
        world.step()
    seat.refresh_from_db()
    assert seat.bot_moves == 3 + Move.objects.filter(match=match, seat=0, kind=Move.Kind.BOT).count()
    assert timeouts(match) == 3 and Mail.objects.filter(dedupe_key__startswith="absent:").count() == 1

    # Reclaimed on the seat's own turn, its bot move already queued: the case the reclaim must handle.
    for _ in range(200):
        if match.seats.get(number=0).awaiting:
            break
        world.step()
    match.refresh_from_db()
    assert not match.is_over, "the setup needs a match still in play"
    reclaimed_at = match.version
    response = login(seat.user).post(reverse("games-reclaim", args=[match.pk]))
    assert response.status_code == 302 and response.url == match.get_absolute_url()
    seat.refresh_from_db()
    assert not seat.absent and seat.timeouts_in_row == 0
    bot_moves = seat.bot_moves
    assert seat.awaiting, "the test needs the turn already waiting when the seat is reclaimed"
    assert seat.deadline == world.now + TEN_MINUTES.increment  # a fresh deadline; the queued bot move stands down
    world.run(until=world.now + 5 * MINUTE, limit=500)
    assert not Move.objects.filter(match=match, seat=0, kind=Move.Kind.BOT, ply__gte=reclaimed_at).exists()
    seat.refresh_from_db()
    assert seat.bot_moves == bot_moves and seat.awaiting and seat.deadline is not None  # the player's turn, timed


def test_the_bot_sweep_wakes_the_bot_of_an_absent_player_a_lost_message_left_waiting(world: World) -> None:
    match = clocked("karnoffel", humans=4)
    (seat,) = awaited(match)
    Seat.objects.filter(pk=seat.pk).update(absent=True, deadline=None)
    world.advance(10 * MINUTE)  # no message: the bot for the absent player was never queued
    assert tasks.bot_sweep.apply(throw=True).result == 1
    world.run(until=world.now)
    move = Move.objects.get(match=match, ply=0)
    assert (move.seat, move.kind) == (seat.number, Move.Kind.BOT)
    seat.refresh_from_db()
    assert seat.bot_moves == 1


def test_a_players_own_move_ends_the_run_of_timeouts(world: World) -> None:
    match = clocked("rapscallion", humans=4)
    seats = awaited(match)
    world.run(until=seats[0].deadline)
    assert timeouts(match) == 4  # the whole sealed step timed out
    seat = next(s for s in awaited(match))
    seat.refresh_from_db()
    assert seat.timeouts_in_row == 1
    move_first_legal(match, seat)
    seat.refresh_from_db()
    assert seat.timeouts_in_row == 0 and seat.bot_moves == 1


def test_reclaim_refuses_who_has_no_seat_and_changes_nothing_for_a_present_player(world: World) -> None:
    match = clocked("karnoffel", humans=4)
    stranger = login(UserFactory())
    assert stranger.post(reverse("games-reclaim", args=[match.pk])).status_code == 403
    Match.objects.filter(pk=match.pk).update(private=True)
    assert stranger.post(reverse("games-reclaim", args=[match.pk])).status_code == 404
    seat = match.seats.get(number=0)
    assert login(seat.user).get(reverse("games-reclaim", args=[match.pk])).status_code == 405
    before = Seat.objects.filter(match=match).values_list("deadline", "absent", "timeouts_in_row")
    seat_reclaim(match=match, user=seat.user)
    assert list(Seat.objects.filter(match=match).values_list("deadline", "absent", "timeouts_in_row")) == list(before)


def test_a_player_coming_back_with_no_time_left_gets_at_least_one_moves_worth() -> None:
    whole_match = TimeControl(initial=timedelta(hours=72), increment=timedelta(0), cap=timedelta(hours=72))
    assert Seat(bank=timedelta(0)).bank_when_reclaimed(whole_match) == timedelta(hours=72)
    fischer = TimeControl(initial=timedelta(hours=24), increment=timedelta(hours=4), cap=timedelta(hours=72))
    assert Seat(bank=timedelta(0)).bank_when_reclaimed(fischer) == timedelta(hours=4)
    assert Seat(bank=timedelta(hours=30)).bank_when_reclaimed(fischer) == timedelta(hours=30)


# --- whole matches ---------------------------------------------------------


def test_bot_seats_play_in_turn_on_a_delay_until_the_match_ends_with_no_human_action(world: World) -> None:
    match = clocked("karnoffel", humans=0, bots=4)
    world.run(until=world.now + timedelta(days=1), limit=3000)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    bot_moves = list(Move.objects.filter(match=match, kind=Move.Kind.BOT).values_list("created_at", flat=True))
    assert len(bot_moves) > 10 and timeouts(match) == 0
    # Each one landed the bot delay after the one before (forced moves go with the move that caused them).
    gaps = {later - earlier for earlier, later in itertools.pairwise(bot_moves)}
    assert min(gaps) >= timedelta(seconds=2)


def test_a_match_whose_four_humans_all_vanish_ends_by_timeouts(world: World) -> None:
    match = clocked("karnoffel", humans=4, options={"target": 1})
    world.queue.clear()  # and nothing ever scheduled survives: only the sweep, once a minute, and the clock
    for _ in range(2000):
        world.advance(MINUTE)
        world.sweep()
        world.run(limit=3000)
        world.queue = [m for m in world.queue if m.task != "deadline_fire"]
        heapq.heapify(world.queue)
        match.refresh_from_db()
        if match.is_over:
            break
    assert match.status == Match.Status.FINISHED
    seats = list(match.seats.order_by("number"))
    assert all(s.absent and s.timeouts_in_row == 3 for s in seats)
    assert timeouts(match) == 12 and Mail.objects.filter(dedupe_key__startswith="absent:").count() == 4
    assert sum(s.bot_moves for s in seats) == Move.objects.filter(match=match, kind__in=["bot", "timeout"]).count()
    assert not Seat.objects.filter(match=match).exclude(deadline=None).exists()
