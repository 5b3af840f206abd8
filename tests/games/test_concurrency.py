"""Two submissions of the same turn at once: exactly one move (PostgreSQL row locks)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from engine import IllegalAction
from games.models import Move
from games.services import MoveRefused, move_submit
from engine import get_game
from tests.games.factories import UserFactory, game_names, make_match


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", game_names())
def test_two_submissions_of_the_same_turn_make_exactly_one_move(game: str) -> None:
    players = get_game(game).MIN_PLAYERS
    match = make_match(game, users=[UserFactory(auto_forced_moves=False) for _ in range(players)])
    number = match.engine.to_act(match.state)[0]
    seat = match.seats.select_related("user").get(number=number)
    legal = match.engine.legal_actions(match.state, number)
    actions = [legal[0], legal[-1]]  # the same turn, possibly two different choices
    version = match.version
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def submit(action: dict) -> None:
        try:
            barrier.wait()
            move_submit(match=type(match).objects.get(pk=match.pk), user=seat.user, seat=number,
                        action=action, version=version)
            outcomes.append("ok")
        except (MoveRefused, IllegalAction) as exc:
            outcomes.append(str(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(a,)) for a in actions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    if hasattr(connection, "close_pool"):  # the threads' pooled connections would block the test database's teardown
        connection.close_pool()
    # Both requests answer: one move, one clear refusal (not a database error).
    assert len(outcomes) == 2 and outcomes.count("ok") == 1, outcomes
    refusal = next(o for o in outcomes if o != "ok")
    assert "changed" in refusal or "not your turn" in refusal
    assert Move.objects.filter(match=match, ply=version).count() == 1
    match.refresh_from_db()
    assert match.version == Move.objects.filter(match=match).count()
