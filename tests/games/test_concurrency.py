"""Two submissions of the same turn at once: exactly one move (PostgreSQL row locks).

The submissions run in threads, each with its own database connection (tests/games/threads.py). Every
thread closes its connection and the pool is closed afterwards (``no_connection_left``), or the test
database stays "in use" at teardown.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from django.db import connection

from engine import get_game
from games.errors import Refused
from games.models import Match, Move
from games.services import move_submit
from tests.games.factories import UserFactory, game_names, make_match, play_engine_moves
from tests.threads import THREAD_TIMEOUT, thread_pids, together


def _together(calls: list[Callable[[], str]]) -> list[str]:
    """The calls at the same moment (``tests.threads.together``); a refusal answers with its sentence, any other
    exception as "error: ..." so that the assertion shows it."""
    return [a if isinstance(a, str) else f"error: {a!r}" for a in together(calls, refusals=(Refused,))]


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
            move_submit(
                match=Match.objects.get(pk=match.pk), user=seat.user, seat=number, action=action, version=version
            )
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


def _simultaneous_step() -> tuple[Match, list[int]]:
    """A match paused where several seats act at once (sealed bids), with nobody's forced moves played."""
    for game in game_names():
        module = get_game(game)
        for players in range(module.MIN_PLAYERS, module.MAX_PLAYERS + 1):
            match = make_match(game, users=[UserFactory(auto_forced_moves=False) for _ in range(players)])
            for step in range(200):
                if match.is_over:
                    break
                if len(match.engine.to_act(match.state)) > 1:
                    return match, match.engine.to_act(match.state)
                play_engine_moves(match, 1, seed=step)
    pytest.skip("No game in the engine has a simultaneous step.")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_sealed_bids_sent_at_once_all_count_and_leave_the_seats_in_step(no_connection_left: None) -> None:
    """Each bid waits for the one before it and then sees the seats as that one left them.

    Read in the same statement as the lock, the seats came back as they were before the wait: the last
    bid then took a seat that an earlier bid had cleared for still awaited, and did not write it again.
    """
    match, to_act = _simultaneous_step()
    seats = {s.number: s for s in match.seats.select_related("user")}
    version = match.version

    def bid(number: int) -> Callable[[], str]:
        action = match.engine.legal_actions(match.state, number)[0]

        def call() -> str:
            move_submit(
                match=Match.objects.get(pk=match.pk),
                user=seats[number].user,
                seat=number,
                action=action,
                version=version,
            )
            return "ok"

        return call

    assert _together([bid(number) for number in to_act]) == ["ok"] * len(to_act)
    match.refresh_from_db()
    assert match.version == version + len(to_act) == Move.objects.filter(match=match).count()
    awaiting = sorted(match.seats.filter(awaiting=True).values_list("number", flat=True))
    assert awaiting == ([] if match.is_over else match.engine.to_act(match.state))


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_move_locks_the_match_before_its_seats(no_connection_left: None) -> None:
    """The order every path that locks both takes (timeouts, vacations, invitations): no deadlock with a move.

    One transaction holds the match, as the timeout's claim does; a move's read (``match_locked``) starts
    meanwhile and must wait on the match without holding any seat, so the first transaction can still
    update a seat (with a short lock timeout, which fails if the move's read took the seats first).
    """
    from django.db import transaction

    from games.models import Seat
    from games.selectors import match_locked

    game = game_names()[0]
    match = make_match(game, users=[UserFactory() for _ in range(get_game(game).MIN_PLAYERS)])
    seat_id = match.seats.order_by("number").values_list("pk", flat=True).first()
    # ``updated`` is set inside the holder's transaction, before its commit: the mover's read can only return
    # after that commit, so it finds it set. (An event set after the commit would race the mover's thread.)
    held, updated = threading.Event(), threading.Event()
    outcome: dict[str, str] = {}

    def holder() -> None:
        try:
            with transaction.atomic():
                Match.objects.select_for_update().get(pk=match.pk)
                held.set()
                # Give the mover's read the time to reach the match lock and queue behind it.
                deadline = time.monotonic() + 5
                while time.monotonic() < deadline and not _waiting_on_a_lock():
                    time.sleep(0.02)
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL lock_timeout = '2s'")
                Seat.objects.filter(pk=seat_id).update(timeouts_in_row=1)
                updated.set()
            outcome["holder"] = "ok"
        except Exception as exc:
            outcome["holder"] = f"error: {exc!r}"
        finally:
            thread_pids.append(connection.connection.info.backend_pid)
            connection.close()

    def mover() -> None:
        try:
            assert held.wait(THREAD_TIMEOUT)
            with transaction.atomic():
                found = match_locked(match.pk)
                outcome["mover"] = "ok" if found is not None and updated.is_set() else "read before the release"
                outcome["seen"] = str(next(s for s in found[1] if s.pk == seat_id).timeouts_in_row) if found else ""
        except Exception as exc:
            outcome["mover"] = f"error: {exc!r}"
        finally:
            thread_pids.append(connection.connection.info.backend_pid)
            connection.close()

    threads = [threading.Thread(target=holder), threading.Thread(target=mover)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=THREAD_TIMEOUT)
    assert not any(thread.is_alive() for thread in threads)
    # The mover waited for the holder and then saw the seat as the holder left it.
    assert outcome == {"holder": "ok", "mover": "ok", "seen": "1"}


def _waiting_on_a_lock() -> bool:
    """Whether another session of this test waits for a row lock."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
        )
        return cursor.fetchone()[0] > 0
