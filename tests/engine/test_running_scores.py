"""``running_scores(view)``: every game's running scores on its outcome's scale (a league scores a table "as it
stands" with them). At the end they are the outcome's scores; on the way, Renfield's are the money each seat
holds less the stake, the other games' the table's own scores."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from engine import GAMES, get_game

GAME_NAMES = sorted(GAMES)
TABLES: dict[str, tuple[int, dict[str, Any]]] = {
    "karnoffel": (4, {"target": 2}),
    "rentz": (4, {}),
    "rapscallion": (3, {"target": 10}),
    "renfield": (4, {}),
}


def states_along_playouts(name: str, every: int = 1) -> Iterator[Any]:
    """Every ``every``-th state of two seeded random matches, the final states included."""
    game = get_game(name)
    players, options = TABLES[name]
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_match(players, options, seed=seed)
        step = 0
        while not game.is_over(state):
            if step % every == 0:
                yield state
            seat = rng.choice(game.to_act(state))
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
            step += 1
        yield state


@pytest.mark.parametrize("name", GAME_NAMES)
def test_running_scores_at_the_end_are_the_outcomes(name: str) -> None:
    game = get_game(name)
    finals = [s for s in states_along_playouts(name) if game.is_over(s)]
    assert finals
    for state in finals:
        for seat in [None, *range(TABLES[name][0])]:
            assert game.running_scores(game.view(state, seat)) == [float(x) for x in game.outcome(state)["scores"]]


@pytest.mark.parametrize("name", GAME_NAMES)
def test_running_scores_on_the_way_are_the_result_so_far(name: str) -> None:
    game = get_game(name)
    for state in states_along_playouts(name, every=7):
        view = game.view(state, None)
        if name == "renfield":  # the table shows money held; the result is money won
            expected = [float(m - state["stake"]) for m in state["money"]]
        else:
            expected = [float(x) for x in view["scores"]]
        assert game.running_scores(view) == expected
        assert all(type(x) is float for x in game.running_scores(view))
