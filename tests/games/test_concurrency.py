"""Two submissions of the same turn at once: exactly one move (PostgreSQL row locks).

The submissions run in threads, each with its own database connection. Every thread closes its
connection and the pool is closed afterwards, or the test database stays "in use" at teardown.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import pytest
from django.db import connection

from engine import IllegalAction, get_game
from games.models import Match, Move
from games.services import MoveRefused, move_submit
from tests.games.factories import UserFactory, game_names, make_match

THREAD_TIMEOUT = 30.0


# The server process ids of the connections the submission threads used. Only these are
# checked at teardown: other sessions (another test's live server, a worker) are not ours.
_thread_pids: list[int] = []


def _open_sessions(pids: list[int]) -> int:
    """How many of ``pids`` are still sessions on the server."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(%s)", [pids])
        return cursor.fetchone()[0]


@pytest.fixture
def no_connection_left() -> Iterator[None]:
    """After the test, even a failed one: the pool is closed and the threads' sessions are gone."""
    _thread_pids.clear()
    yield
    connection.close_pool()  # the threads' pooled connections would block the test database's teardown
    for _ in range(50):  # a closed client's server process takes a moment to go
        if _open_sessions(_thread_pids) == 0:
            return
        time.sleep(0.1)
    pytest.fail(f"{_open_sessions(_thread_pids)} database sessions of the threads are still open.")


def _together(calls: list[Callable[[], str]]) -> list[str]:
    """Run the calls in threads released at the same moment; every thread answers, none hangs."""
    barrier = threading.Barrier(len(calls), timeout=THREAD_TIMEOUT)
    outcomes: list[str] = []

    def run(call: Callable[[], str]) -> None:
        try:
            barrier.wait()
            outcomes.append(call())
        except (MoveRefused, IllegalAction) as exc:
            outcomes.append(str(exc))
        except Exception as exc:  # reported in the assertion, not lost in the thread
            outcomes.append(f"error: {exc!r}")
        finally:
            if connection.connection is not None:
                _thread_pids.append(connection.connection.info.backend_pid)
            connection.close()  # this thread's own connection

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=THREAD_TIMEOUT)
    assert not any(thread.is_alive() for thread in threads), "a submission did not finish"
    return outcomes


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", game_names())
def test_two_submissions_of_the_same_turn_make_exactly_one_move(game: str, no_connection_left: None) -> None:
    players = get_game(game).MIN_PLAYERS
    match = make_match(game, users=[UserFactory(auto_forced_moves=False) for _ in range(players)])
    number = match.engine.to_act(match.state)[0]
    seat = match.seats.select_related("user").get(number=number)
    legal = match.engine.legal_actions(match.state, number)
    version = match.version

    def submit(action: dict) -> Callable[[], str]:
        def call() -> str:
            move_submit(match=Match.objects.get(pk=match.pk), user=seat.user, seat=number, action=action,
                        version=version)
            return "ok"
        return call

    outcomes = _together([submit(legal[0]), submit(legal[-1])])  # the same turn, possibly two different choices
    # Both requests answer: one move, one clear refusal (not a database error).
    assert len(outcomes) == 2 and outcomes.count("ok") == 1, outcomes
    refusal = next(o for o in outcomes if o != "ok")
    assert "changed" in refusal or "not your turn" in refusal
    assert Move.objects.filter(match=match, ply=version).count() == 1
    match.refresh_from_db()
    assert match.version == Move.objects.filter(match=match).count()
    awaiting = sorted(match.seats.filter(awaiting=True).values_list("number", flat=True))
    assert awaiting == match.engine.to_act(match.state)
