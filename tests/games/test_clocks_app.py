"""Match clocks in the app: deadlines in the database, timeouts played by a bot, absence, bots on a delay.

Time travel: ``world`` is the clock (``django.utils.timezone.now``), the broker and beat at once. Every
task the code queues is held with the moment it is due (its ``eta``, its ``countdown``, or at once) and
runs only when a test moves the clock there, as a worker would; emptying ``world.queue`` is a broker that
lost its messages. Beat's half-minute task that queues the held mails falling due (``mail_due``) runs
as the clock passes each half minute; the deadline sweep is called by the tests, as beat would call it.
"""

from __future__ import annotations

import heapq
import itertools
import math
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from unittest import mock

import pytest
from celery import current_app
from django.db import connection
from django.db.models import F
from django.urls import reverse

from accounts.models import User
from games import tasks
from games.clocks import TimeControl
from games.models import Mail, Match, Move, Seat
from games.services import SeatSpec, match_create, move_submit, seat_reclaim, seat_timeout
from tests.games.conftest import login
from tests.games.factories import UserFactory, quick_options
from tests.games.test_concurrency import _thread_pids, no_connection_left  # noqa: F401 - a fixture
from tests.games.test_queries import MOVE_QUERY_BUDGET, _move_queries, _writes

pytestmark = pytest.mark.django_db(transaction=True)  # on-commit callbacks queue the tasks, as in production

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
MINUTE = timedelta(minutes=1)
# Ten minutes a move: near enough that each deadline is scheduled as a task (GAMES_DEADLINE_ETA_HORIZON_SECONDS).
TEN_MINUTES = TimeControl(initial=10 * MINUTE, increment=10 * MINUTE, cap=10 * MINUTE)
QUEUED_TASKS = ("bot_move", "deadline_fire", "deadline_batch", "mail_send")


@dataclass(order=True)
class Message:
    due: datetime
    seq: int
    task: str = field(compare=False)
    args: tuple[Any, ...] = field(compare=False)


class World:
    """The clock and the broker: tasks run in the order they fall due, and the clock moves to each."""

    # How often beat runs ``mail_due`` (config/settings.py); its runs fall on START plus whole multiples of it.
    MAIL_DUE_EVERY = timedelta(seconds=30)

    def __init__(self) -> None:
        self.now = START
        self.queue: list[Message] = []
        self.published: list[Message] = []
        self.ran: list[str] = []
        self._seq = itertools.count()

    def __call__(self) -> datetime:
        return self.now

    def publish(self, task: str, args: Any = (), kwargs: Any = None, **options: Any) -> None:
        due = options.get("eta") or self.now + timedelta(seconds=options.get("countdown") or 0)
        message = Message(due, next(self._seq), task, tuple(args or ()))
        heapq.heappush(self.queue, message)
        self.published.append(message)

    def run(self, *, until: datetime | None = None, limit: int = 5000) -> int:
        """Run the tasks due by ``until`` (now by default), moving the clock forward to each; how many ran."""
        until = until or self.now
        ran = 0
        while True:
            beat = self._mail_due_run()
            if self.queue and self.queue[0].due <= until and (beat is None or self.queue[0].due <= beat):
                assert ran < limit, f"more than {limit} tasks: a runaway chain"
                self.step()
                ran += 1
            elif beat is not None and beat <= until:  # beat's run: the mails it queues are due at once
                self.now = max(self.now, beat)
                current_app.tasks["games.tasks.mail_due"].apply(throw=True)
            else:
                break
        self.now = max(self.now, until)
        return ran

    def _mail_due_run(self) -> datetime | None:
        """Beat's first run of ``mail_due`` that finds a held mail due; the runs that would find none are skipped."""
        held = Mail.objects.filter(status=Mail.Status.PENDING, updated_at__lt=F("send_after"))
        first = held.order_by("send_after").values_list("send_after", flat=True).first()
        if first is None:
            return None
        runs = math.ceil((max(first, self.now) - START) / self.MAIL_DUE_EVERY)
        return START + runs * self.MAIL_DUE_EVERY

    def advance(self, delta: timedelta) -> int:
        return self.run(until=self.now + delta)

    def step(self) -> None:
        """Run the next task, moving the clock to when it falls due if that is later."""
        assert self.queue, "nothing is queued"
        message = heapq.heappop(self.queue)
        self.now = max(self.now, message.due)
        current_app.tasks[f"games.tasks.{message.task}"].apply(args=message.args, throw=True)
        self.ran.append(message.task)

    def sweep(self) -> int:
        """What beat does every minute: the deadline sweep; its batches join the queue, due at once."""
        return tasks.deadline_sweep.apply(throw=True).result


@pytest.fixture
def world() -> Iterator[World]:
    world = World()
    patches = [mock.patch("django.utils.timezone.now", world)]
    for name in QUEUED_TASKS:
        task = current_app.tasks[f"games.tasks.{name}"]
        patches.append(
            mock.patch.object(
                task, "apply_async", lambda args=(), kwargs=None, _n=name, **o: world.publish(_n, args, kwargs, **o)
            )
        )
    for patch in patches:
        patch.start()
    try:
        yield world
    finally:
        for patch in reversed(patches):
            patch.stop()


def clocked(
    game: str,
    *,
    humans: int,
    bots: int = 0,
    clock: TimeControl | None = TEN_MINUTES,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    level: str = "random",
    **user_fields: Any,
) -> Match:
    users = [UserFactory(notify=User.Notify.NEVER, **user_fields) for _ in range(humans)]
    seats = [SeatSpec(user=u) for u in users] + [SeatSpec(bot=level)] * bots
    return match_create(
        game=game,
        players=players or humans + bots,
        options=quick_options(game) if options is None else options,
        created_by=users[0] if users else None,
        seats=seats,
        time_control=clock,
        timeout_bot_level="random",
    )


def _awaited(match: Match) -> list[Seat]:
    return list(match.seats.filter(awaiting=True).select_related("user"))


def _play(match: Match, seat: Seat) -> Move:
    match.refresh_from_db()
    action = match.engine.legal_actions(match.state, seat.number)[0]
    return move_submit(match=match, user=seat.user, seat=seat.number, action=action, version=match.version)


def _timeouts(match: Match, **filters: Any) -> int:
    return Move.objects.filter(match=match, kind=Move.Kind.TIMEOUT, **filters).count()


# --- deadlines -------------------------------------------------------------


def test_it_gives_each_awaited_seat_a_deadline_and_schedules_a_task_for_it(world: World) -> None:
    match = clocked("rapscallion", humans=4)  # a sealed step: all four seats are awaited
    seats = _awaited(match)
    assert len(seats) == 4 and {s.deadline for s in seats} == {START + 10 * MINUTE}
    fires = sorted(m.args for m in world.published if m.task == "deadline_fire")
    assert fires == sorted((s.pk, s.deadline.isoformat()) for s in seats)
    assert all(m.due == START + 10 * MINUTE for m in world.published if m.task == "deadline_fire")


def test_it_keeps_the_bank_between_turns_with_the_increment_up_to_the_cap(world: World) -> None:
    fischer = TimeControl(initial=10 * MINUTE, increment=5 * MINUTE, cap=12 * MINUTE)
    match = clocked("rapscallion", humans=4, clock=fischer)
    first, second = _awaited(match)[:2]
    world.advance(3 * MINUTE)
    _play(match, first)
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
    assert _timeouts(match) == 0 and not any(m.task == "deadline_fire" for m in world.published)


def test_a_deadline_beyond_the_horizon_is_left_to_the_sweep(world: World) -> None:
    day = TimeControl(initial=timedelta(days=1), increment=timedelta(days=1), cap=timedelta(days=1))
    match = clocked("karnoffel", humans=4, clock=day)
    assert not any(m.task == "deadline_fire" for m in world.published)  # Redis would redeliver it hourly
    world.advance(timedelta(days=1, minutes=1))
    assert world.sweep() == 1
    world.run()
    assert _timeouts(match) == 1


# --- exactly once ----------------------------------------------------------


@pytest.mark.parametrize("sweep_first", [False, True])
def test_a_passed_deadline_makes_exactly_one_timeout_move_when_task_and_sweep_both_run(
    world: World, sweep_first: bool
) -> None:
    match = clocked("karnoffel", humans=4)
    (seat,) = _awaited(match)
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
    (seat,) = _awaited(match)
    expected_view = match.engine.view(match.state, seat.number)
    world.now = seat.deadline
    with mock.patch("games.services.choose", side_effect=choose) as spy:
        assert seat_timeout(seat_id=seat.pk, deadline=seat.deadline) is True
    (game, level, view, legal), _kwargs = spy.call_args
    assert (game, level, view) == ("karnoffel", match.timeout_bot_level, expected_view) and "hand" in view
    assert legal == match.engine.legal_actions(match.state, seat.number)


def test_a_deadline_that_has_not_passed_is_left_alone(world: World) -> None:
    match = clocked("karnoffel", humans=4)
    (seat,) = _awaited(match)
    world.now = seat.deadline - timedelta(seconds=1)
    assert seat_timeout(seat_id=seat.pk, deadline=seat.deadline) is False
    assert world.sweep() == 0 and _timeouts(match) == 0


def test_a_worker_killed_after_the_claim_leaves_the_deadline_for_the_next_sweep(world: World) -> None:
    match = clocked("karnoffel", humans=4)
    (seat,) = _awaited(match)
    world.now = seat.deadline + MINUTE
    claims = []

    def killed(*args: Any) -> None:
        claims.append(Seat.objects.get(pk=seat.pk).deadline)  # inside the transaction: the claim is made
        raise SystemExit("worker killed")

    with mock.patch("games.services._play_forced", side_effect=killed), pytest.raises(SystemExit):
        seat_timeout(seat_id=seat.pk, deadline=seat.deadline)  # the process dies after the claim, before commit
    assert claims == [None]
    seat.refresh_from_db()
    assert seat.deadline is not None and seat.timeouts_in_row == 0 and _timeouts(match) == 0
    world.queue.clear()  # and its message is gone with it
    assert world.sweep() == 1
    world.run()
    assert _timeouts(match, seat=seat.number) == 1


def test_with_the_broker_emptied_deadlines_still_fire_from_the_sweep(world: World) -> None:
    match = clocked("karnoffel", humans=4)
    for _ in range(6):
        (seat,) = _awaited(match)
        world.queue.clear()  # every scheduled deadline task is lost
        world.now = seat.deadline + MINUTE
        assert world.sweep() == 1
        world.run()
    assert _timeouts(match) == 6 and "deadline_fire" not in world.ran


def test_the_sweep_plays_a_batch_itself_when_the_broker_refuses_it(world: World) -> None:
    match = clocked("karnoffel", humans=4)
    (seat,) = _awaited(match)
    world.queue.clear()
    world.now = seat.deadline + MINUTE
    batch = current_app.tasks["games.tasks.deadline_batch"]
    with mock.patch.object(batch, "apply_async", side_effect=ConnectionError("broker down")):
        assert world.sweep() == 1
    assert _timeouts(match) == 1


# --- absence ---------------------------------------------------------------


def test_timeouts_in_a_row_mark_the_seat_absent_mail_once_and_the_bot_plays_on_until_reclaimed(world: World) -> None:
    match = clocked("karnoffel", humans=1, bots=3, options={"target": 2})
    seat = match.seats.get(number=0)
    for expected in (1, 2, 3):
        assert not seat.absent
        while _timeouts(match) < expected:  # the bots move, seat 0's time runs out
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
    assert _timeouts(match) == 3 and Mail.objects.filter(dedupe_key__startswith="absent:").count() == 1

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
    (seat,) = _awaited(match)
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
    seats = _awaited(match)
    world.run(until=seats[0].deadline)
    assert _timeouts(match) == 4  # the whole sealed step timed out
    seat = next(s for s in _awaited(match))
    seat.refresh_from_db()
    assert seat.timeouts_in_row == 1
    _play(match, seat)
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
    from games.services import _reclaim_bank

    whole_match = TimeControl(initial=timedelta(hours=72), increment=timedelta(0), cap=timedelta(hours=72))
    assert _reclaim_bank(whole_match, timedelta(0)) == timedelta(hours=72)
    fischer = TimeControl(initial=timedelta(hours=24), increment=timedelta(hours=4), cap=timedelta(hours=72))
    assert _reclaim_bank(fischer, timedelta(0)) == timedelta(hours=4)
    assert _reclaim_bank(fischer, timedelta(hours=30)) == timedelta(hours=30)


# --- whole matches ---------------------------------------------------------


def test_bot_seats_play_in_turn_on_a_delay_until_the_match_ends_with_no_human_action(world: World) -> None:
    match = clocked("karnoffel", humans=0, bots=4)
    world.run(until=world.now + timedelta(days=1), limit=3000)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    bot_moves = list(Move.objects.filter(match=match, kind=Move.Kind.BOT).values_list("created_at", flat=True))
    assert len(bot_moves) > 10 and _timeouts(match) == 0
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
    assert _timeouts(match) == 12 and Mail.objects.filter(dedupe_key__startswith="absent:").count() == 4
    assert sum(s.bot_moves for s in seats) == Move.objects.filter(match=match, kind__in=["bot", "timeout"]).count()
    assert not Seat.objects.filter(match=match).exclude(deadline=None).exists()


# --- costs and plans -------------------------------------------------------


@pytest.mark.django_db  # inside the test's transaction, as test_queries counts them
@pytest.mark.parametrize("game", ["karnoffel", "rapscallion"])
def test_a_move_with_a_clock_costs_no_more_queries_than_without(world: World, game: str) -> None:
    counts = []
    for clock in (None, TEN_MINUTES):
        match = clocked(game, humans=4, clock=clock, auto_forced_moves=False)
        world.advance(MINUTE)
        queries = _move_queries(match)
        assert len(queries) <= MOVE_QUERY_BUDGET, queries
        assert _writes(queries, "UPDATE", "games_seat") <= 2
        counts.append(len(queries))
    assert counts[1] == counts[0]
    assert match.seats.exclude(bank=None).count() == 1  # the clock did run: the mover has a bank


def test_seats_with_four_different_clocks_are_written_in_one_statement(world: World) -> None:
    from django.test.utils import CaptureQueriesContext

    from games.services import _seats_save

    match = clocked("rapscallion", humans=4)
    seats = list(match.seats.all())
    for number, seat in enumerate(seats):
        seat.bank = (number + 1) * MINUTE
        seat.deadline = START + seat.bank
    with CaptureQueriesContext(connection) as ctx:
        _seats_save(seats)
    assert _writes([q["sql"] for q in ctx.captured_queries], "UPDATE", "games_seat") == 1
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
    (seat,) = _awaited(match)
    world.now = seat.deadline
    with mock.patch("games.services.match_locked", spy):
        assert seat_timeout(seat_id=seat.pk, deadline=seat.deadline)
        _play(match, _awaited(match)[0])
    assert seen == ["off", "on"]


@pytest.mark.postgres
@pytest.mark.usefixtures("no_connection_left")
def test_the_tasks_and_the_sweep_at_the_same_moment_make_exactly_one_timeout_each(world: World) -> None:
    from games.services import match_timeouts

    match = clocked("rapscallion", humans=4)
    seats = _awaited(match)
    world.now = seats[0].deadline + MINUTE
    barrier = threading.Barrier(len(seats) + 1, timeout=30)
    results: list[Any] = []

    def run(call: Any) -> None:
        try:
            barrier.wait()
            results.append(call())
        except Exception as exc:  # reported in the assertion
            results.append(exc)
        finally:
            if connection.connection is not None:
                _thread_pids.append(connection.connection.info.backend_pid)
            connection.close()

    calls = [lambda s=s: seat_timeout(seat_id=s.pk, deadline=s.deadline) for s in seats]
    calls.append(lambda: match_timeouts(match_id=match.pk))
    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads)
    assert not any(isinstance(r, BaseException) for r in results), results
    moves = list(Move.objects.filter(match=match, kind=Move.Kind.TIMEOUT).values_list("seat", flat=True))
    assert sorted(moves) == [0, 1, 2, 3]
    assert sum(int(r) for r in results) == 4  # each seat's timeout was played by exactly one caller
