"""The sweep's batches: every due seat of a batch of matches timed out in one transaction, each exactly once
(two batches at once, a batch meeting a match another transaction holds, on PostgreSQL), a batch with one
broken match still playing the others' timeouts, and a batch costing the same statements however many
matches it holds. Time travel: ``world`` (tests/games/world.py)."""

from __future__ import annotations

import threading
from typing import Any
from unittest import mock

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games import services, tasks
from games.models import Match, Move, Seat
from games.selectors import match_locked
from games.services import timeouts_batch
from tests.games.world import MINUTE, World, awaited, clocked, timeouts
from tests.threads import together

pytestmark = pytest.mark.django_db(transaction=True)

THREAD_TIMEOUT = 30.0


def sealed_matches(count: int) -> list[Match]:
    """Rapscallion matches in their sealed step: all four seats awaited, each with its own deadline."""
    return [clocked("rapscallion", humans=4) for _ in range(count)]


def overdue(world: World, matches: list[Match]) -> None:
    world.queue.clear()  # the deadline tasks are lost: only the sweep's batches play them
    world.now = max(s.deadline for m in matches for s in awaited(m) if s.deadline is not None) + MINUTE


def timeout_seats(matches: list[Match]) -> list[tuple[int, int]]:
    """(match, seat) of every timeout move, from the Move log."""
    moves = Move.objects.filter(match__in=matches, kind=Move.Kind.TIMEOUT)
    return sorted(moves.values_list("match_id", "seat"))


def test_a_batch_times_out_every_due_seat_of_its_matches_once(world: World) -> None:
    matches = sealed_matches(3)
    overdue(world, matches)
    assert tasks.deadline_batch.apply(args=([m.pk for m in matches],), throw=True).result == 12
    assert timeout_seats(matches) == sorted((m.pk, n) for m in matches for n in range(4))
    for seat in Seat.objects.filter(match__in=matches):
        assert (seat.timeouts_in_row, seat.bot_moves) == (1, 1)
    # The snapshots moved on by the four moves each, and their plies are the Move log's.
    for match in matches:
        match.refresh_from_db()
        plies = list(Move.objects.filter(match=match).values_list("ply", flat=True))
        assert plies == list(range(match.version)) and match.version >= 4
    assert tasks.deadline_batch.apply(args=([m.pk for m in matches],), throw=True).result == 0  # nothing twice


def test_a_batch_costs_the_same_statements_for_two_matches_as_for_six(world: World) -> None:
    counts = []
    for size in (2, 6):
        matches = sealed_matches(size)
        overdue(world, matches)
        with CaptureQueriesContext(connection) as ctx:
            count, left = timeouts_batch(match_ids=[m.pk for m in matches])
        assert (count, left) == (4 * size, [])
        counts.append(len(ctx.captured_queries))
    # Lock read, claim, moves, snapshots, seats (and the transaction's own statements): per batch, not per match.
    assert counts[0] == counts[1] <= 10, counts


def test_a_batch_where_one_match_fails_still_plays_the_others_timeouts(world: World) -> None:
    matches = sealed_matches(3)
    broken = matches[1]
    overdue(world, matches)
    real = services.bot_action

    def failing(*, match: Match, seat: int, level: str) -> Any:
        if match.pk == broken.pk:
            raise RuntimeError("an engine bug in this match")
        return real(match=match, seat=seat, level=level)

    with mock.patch("games.services.bot_action", side_effect=failing):
        assert tasks.deadline_batch.apply(args=([m.pk for m in matches],), throw=True).result == 8
    others = [m for m in matches if m is not broken]
    assert timeout_seats(others) == sorted((m.pk, n) for m in others for n in range(4))
    assert timeouts(broken) == 0 and len([s for s in awaited(broken) if s.deadline is not None]) == 4
    assert world.sweep() == 1  # its deadlines are still there, for the next sweep
    world.run()
    assert timeouts(broken) == 4 and timeout_seats(others) == sorted((m.pk, n) for m in others for n in range(4))


def test_a_failed_batch_writes_nothing_of_itself(world: World) -> None:
    matches = sealed_matches(2)
    overdue(world, matches)
    with (
        mock.patch("games.services._bookkeeping", side_effect=RuntimeError("after the claim")),
        pytest.raises(RuntimeError),
    ):
        timeouts_batch(match_ids=[m.pk for m in matches])
    assert timeout_seats(matches) == [] and Seat.objects.filter(match__in=matches, deadline=None).count() == 0


# --- PostgreSQL: batches meeting each other and other transactions -------------------------------------------------


@pytest.mark.postgres
@pytest.mark.usefixtures("no_connection_left")
def test_two_batches_of_the_same_matches_at_once_time_out_each_seat_once(world: World) -> None:
    matches = sealed_matches(4)
    overdue(world, matches)
    ids = [m.pk for m in matches]
    results = together([lambda: tasks.deadline_batch(ids), lambda: tasks.deadline_batch(list(reversed(ids)))])
    assert not any(isinstance(r, BaseException) for r in results), results
    assert sum(results) == 16  # each seat's timeout played by exactly one of them
    assert timeout_seats(matches) == sorted((m.pk, n) for m in matches for n in range(4))


@pytest.mark.postgres
@pytest.mark.usefixtures("no_connection_left")
def test_a_batch_leaves_out_a_match_another_transaction_holds_and_plays_it_once_free(world: World) -> None:
    matches = sealed_matches(3)
    held = matches[0]
    overdue(world, matches)
    locked, release = threading.Event(), threading.Event()

    def hold() -> str:  # a player's move in progress on one match
        with transaction.atomic():
            match_locked(held.pk)
            locked.set()
            release.wait(THREAD_TIMEOUT)
        return "held"

    batches: list[Any] = []

    def spy(*, match_ids: list[int]) -> Any:
        batches.append(services.timeouts_batch(match_ids=match_ids))
        return batches[-1]

    def sweep_batch() -> int:
        locked.wait(THREAD_TIMEOUT)
        threading.Timer(0.5, release.set).start()  # the move commits while the batch's task waits for it
        with mock.patch("games.tasks.timeouts_batch", side_effect=spy):
            return tasks.deadline_batch([m.pk for m in matches])

    assert sorted(together([hold, sweep_batch]), key=str) == [12, "held"]
    assert batches == [(8, [held.pk])]  # the batch did not wait for the held match, nor touch it
    assert timeout_seats(matches) == sorted((m.pk, n) for m in matches for n in range(4))
