"""Match clocks in the app: each awaited seat's deadline in the database with a task scheduled for it, the
bank between turns, exactly one timeout move however the task and the sweep meet (a killed worker, an emptied
broker, two callers at once on PostgreSQL), and what a clock costs a move. Time travel: ``world``
(tests/games/world.py) is the clock, the broker and beat at once."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from celery import current_app
from django.db import connection

from games import tasks
from games.clocks import TimeControl
from games.models import Move, Seat
from games.services import seat_timeout
from tests.games.queries import MOVE_QUERY_BUDGET, move_queries, writes
from tests.games.world import MINUTE, START, TEN_MINUTES, World, awaited, clocked, move_first_legal, timeouts
from tests.threads import together

pytestmark = pytest.mark.django_db(transaction=True)  # on-commit callbacks queue the tasks, as in production


# --- deadlines -------------------------------------------------------------


def test_it_gives_each_awaited_seat_a_deadline_and_schedules_a_task_for_it(world: World) -> None:
    match = clocked("rapscallion", humans=4)  # a sealed step: all four seats are awaited
    seats = awaited(match)
    assert len(seats) == 4 and {s.deadline for s in seats} == {START + 10 * MINUTE}
    fires = sorted(m.args for m in world.published if m.task == "deadline_fire")
    assert fires == sorted((s.pk, s.deadline.isoformat()) for s in seats)
    assert all(m.due == START + 10 * MINUTE for m in world.published if m.task == "deadline_fire")


def test_it_keeps_the_bank_between_turns_with_the_increment_up_to_the_cap(world: World) -> None:
    fischer = TimeControl(initial=10 * MINUTE, increment=5 * MINUTE, cap=12 * MINUTE)
    match = clocked("rapscallion", humans=4, clock=fischer)
    first, second = awaited(match)[:2]
    world.advance(3 * MINUTE)
    move_first_legal(match, first)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.bank == 12 * MINUTE  # 7 minutes left + 5, capped at 12
    assert second.deadline == START + 10 * MINUTE  # a simultaneous step: the others' clocks run on


def test_a_casual_match_never_times_out(world: World) -> None:
    match = clocked("karnoffel", humans=4, clock=None)
    assert not match.seats.exclude(deadline=None).exists()
    world.advance(timedelta(days=400))
    world.sweep()
    world.run()
    assert timeouts(match) == 0 and not any(m.task == "deadline_fire" for m in world.published)


def test_a_deadline_beyond_the_horizon_is_left_to_the_sweep(world: World) -> None:
    day = TimeControl(initial=timedelta(days=1), increment=timedelta(days=1), cap=timedelta(days=1))
    match = clocked("karnoffel", humans=4, clock=day)
    assert not any(m.task == "deadline_fire" for m in world.published)  # Redis would redeliver it hourly
    world.advance(timedelta(days=1, minutes=1))
    assert world.sweep() == 1
    world.run()
    assert timeouts(match) == 1


# --- exactly once ----------------------------------------------------------


@pytest.mark.parametrize("sweep_first", [False, True])
def test_a_passed_deadline_makes_exactly_one_timeout_move_when_task_and_sweep_both_run(
    world: World, sweep_first: bool
) -> None:
    match = clocked("karnoffel", humans=4)
    (seat,) = awaited(match)
    deadline = seat.deadline
    world.now = deadline + timedelta(seconds=30)  # the worker was busy: the task runs late, with the sweep
    if sweep_first:
        tasks.deadline_batch.apply(args=([match.pk],), throw=True)
    world.run()
    world.sweep()
    world.run()
    assert world.ran.count("deadline_fire") == 1
    moves = list(Move.objects.filter(match=match, kind=Move.Kind.TIMEOUT))
    assert [(m.seat, m.ply) for m in moves] == [(seat.number, 0)]
    seat.refresh_from_db()
    assert (seat.timeouts_in_row, seat.bot_moves, seat.absent, seat.bank) == (1, 1, False, TEN_MINUTES.increment)
    assert seat_timeout(seat_id=seat.pk, deadline=deadline) is False  # a third try finds it taken


def test_the_timeout_bot_chooses_from_the_seats_own_view_at_the_matchs_level(world: World) -> None:
    from engine.bots import choose

    match = clocked("karnoffel", humans=4)
    (seat,) = awaited(match)
    expected_view = match.engine.view(match.state, seat.number)
    world.now = seat.deadline
    with mock.patch("games.services.choose", side_effect=choose) as spy:
        assert seat_timeout(seat_id=seat.pk, deadline=seat.deadline) is True
    (game, level, view, legal), _kwargs = spy.call_args
    assert (game, level, view) == ("karnoffel", match.timeout_bot_level, expected_view) and "hand" in view
    assert legal == match.engine.legal_actions(match.state, seat.number)


def test_a_deadline_that_has_not_passed_is_left_alone(world: World) -> None:
    match = clocked("karnoffel", humans=4)
    (seat,) = awaited(match)
    world.now = seat.deadline - timedelta(seconds=1)
    assert seat_timeout(seat_id=seat.pk, deadline=seat.deadline) is False
    assert world.sweep() == 0 and timeouts(match) == 0


def test_a_worker_killed_after_the_claim_leaves_the_deadline_for_the_next_sweep(world: World) -> None:
    match = clocked("karnoffel", humans=4)
    (seat,) = awaited(match)
    world.now = seat.deadline + MINUTE
    claims = []

    def killed(*args: Any) -> None:
        claims.append(Seat.objects.get(pk=seat.pk).deadline)  # inside the transaction: the claim is made
        raise SystemExit("worker killed")

    with mock.patch("games.services._play_forced", side_effect=killed), pytest.raises(SystemExit):
        seat_timeout(seat_id=seat.pk, deadline=seat.deadline)  # the process dies after the claim, before commit
    assert claims == [None]
    seat.refresh_from_db()
    assert seat.deadline is not None and seat.timeouts_in_row == 0 and timeouts(match) == 0
    world.queue.clear()  # and its message is gone with it
    assert world.sweep() == 1
    world.run()
    assert timeouts(match, seat=seat.number) == 1


def test_with_the_broker_emptied_deadlines_still_fire_from_the_sweep(world: World) -> None:
    match = clocked("karnoffel", humans=4)
    for _ in range(6):
        (seat,) = awaited(match)
        world.queue.clear()  # every scheduled deadline task is lost
        world.now = seat.deadline + MINUTE
        assert world.sweep() == 1
        world.run()
    assert timeouts(match) == 6 and "deadline_fire" not in world.ran


def test_the_sweep_plays_a_batch_itself_when_the_broker_refuses_it(world: World) -> None:
    match = clocked("karnoffel", humans=4)
    (seat,) = awaited(match)
    world.queue.clear()
    world.now = seat.deadline + MINUTE
    batch = current_app.tasks["games.tasks.deadline_batch"]
    with mock.patch.object(batch, "apply_async", side_effect=ConnectionError("broker down")):
        assert world.sweep() == 1
    assert timeouts(match) == 1


# --- costs and plans -------------------------------------------------------


@pytest.mark.django_db  # inside the test's transaction, as test_queries counts them
@pytest.mark.parametrize("game", ["karnoffel", "rapscallion"])
def test_a_move_with_a_clock_costs_no_more_queries_than_without(world: World, game: str) -> None:
    counts = []
    for clock in (None, TEN_MINUTES):
        match = clocked(game, humans=4, clock=clock, auto_forced_moves=False)
        world.advance(MINUTE)
        queries = move_queries(match)
        assert len(queries) <= MOVE_QUERY_BUDGET, queries
        assert writes(queries, "UPDATE", "games_seat") <= 2
        counts.append(len(queries))
    assert counts[1] == counts[0]
    assert match.seats.exclude(bank=None).count() == 1  # the clock did run: the mover has a bank


def test_seats_with_four_different_clocks_are_written_in_one_statement(world: World) -> None:
    from django.test.utils import CaptureQueriesContext

    from games.services import seats_save

    match = clocked("rapscallion", humans=4)
    seats = list(match.seats.all())
    for number, seat in enumerate(seats):
        seat.bank = (number + 1) * MINUTE
        seat.deadline = START + seat.bank
    with CaptureQueriesContext(connection) as ctx:
        seats_save(seats=seats)
    assert writes([q["sql"] for q in ctx.captured_queries], "UPDATE", "games_seat") == 1
    assert list(match.seats.values_list("bank", flat=True)) == [n * MINUTE for n in (1, 2, 3, 4)]


def test_beat_runs_the_deadline_sweep_every_minute() -> None:
    from django.conf import settings

    entries = [e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "games.tasks.deadline_sweep"]
    assert [e["schedule"] for e in entries] == [60.0], "config/settings.py needs the games-deadline-sweep entry"


def test_the_sweep_reads_the_partial_index_of_running_deadlines() -> None:
    from games.tasks import overdue_seats

    names = {index.name: index for index in Seat._meta.indexes}
    assert names["seat_deadline_running"].condition is not None
    sql = str(overdue_seats(now=START).query)
    assert '"deadline" <=' in sql and "ORDER BY" in sql


@pytest.mark.postgres
def test_postgresql_can_serve_the_sweep_from_the_partial_index() -> None:
    from games.tasks import overdue_seats

    with connection.cursor() as cursor:
        cursor.execute("SET enable_seqscan = off")  # an empty table: ask whether the index can serve
        plan = overdue_seats(now=START).values_list("match_id", flat=True)[:100].explain()
        cursor.execute("RESET enable_seqscan")
    assert "seat_deadline_running" in plan, plan


# --- PostgreSQL: a task and the sweep at the same moment ---------------------


@pytest.mark.postgres
def test_a_timeout_commits_without_waiting_for_the_disk_and_a_players_move_waits(world: World) -> None:
    from games import services

    seen = []
    real = services.match_locked

    def spy(match_id: int) -> Any:
        with connection.cursor() as cursor:
            cursor.execute("SHOW synchronous_commit")
            seen.append(cursor.fetchone()[0])
        return real(match_id)

    match = clocked("karnoffel", humans=4)
    (seat,) = awaited(match)
    world.now = seat.deadline
    with mock.patch("games.services.match_locked", spy):
        assert seat_timeout(seat_id=seat.pk, deadline=seat.deadline)
        move_first_legal(match, awaited(match)[0])
    assert seen == ["off", "on"]


@pytest.mark.postgres
@pytest.mark.usefixtures("no_connection_left")
def test_the_tasks_and_the_sweep_at_the_same_moment_make_exactly_one_timeout_each(world: World) -> None:
    from games.services import match_timeouts

    match = clocked("rapscallion", humans=4)
    seats = awaited(match)
    world.now = seats[0].deadline + MINUTE
    calls: list[Any] = [lambda s=s: seat_timeout(seat_id=s.pk, deadline=s.deadline) for s in seats]
    calls.append(lambda: match_timeouts(match_id=match.pk))
    results = together(calls)
    assert not any(isinstance(r, BaseException) for r in results), results
    moves = list(Move.objects.filter(match=match, kind=Move.Kind.TIMEOUT).values_list("seat", flat=True))
    assert sorted(moves) == [0, 1, 2, 3]
    assert sum(int(r) for r in results) == 4  # each seat's timeout was played by exactly one caller
