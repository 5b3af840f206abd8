"""The bots framework: levels, seeding and refusals, the same for every game."""

from __future__ import annotations

import pytest

from engine import GAMES, get_game
from engine.bots import LEVELS, choose


def _opening(name: str) -> tuple[dict, list[dict]]:
    game = get_game(name)
    state = game.new_match(game.MIN_PLAYERS, None, seed=21)
    seat = game.to_act(state)[0]
    return game.view(state, seat), game.legal_actions(state, seat)


def test_it_refuses_unknown_levels_and_empty_choices() -> None:
    view, legal = _opening("karnoffel")
    with pytest.raises(ValueError, match="levels are"):
        choose("karnoffel", "genius", view, legal)
    with pytest.raises(ValueError, match="no legal actions"):
        choose("karnoffel", "basic", view, [])


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("level", LEVELS)
def test_it_chooses_a_legal_action_repeatably(name: str, level: str) -> None:
    view, legal = _opening(name)
    first = choose(name, level, view, legal, seed=5, playouts=8, time_limit=60)
    again = choose(name, level, view, legal, seed=5, playouts=8, time_limit=60)
    assert first in legal
    assert first == again


def test_it_takes_the_only_action_without_thinking() -> None:
    view, legal = _opening("karnoffel")
    assert choose("karnoffel", "strong", view, legal[:1]) == legal[0]


def test_it_varies_random_choices_with_the_seed() -> None:
    view, legal = _opening("karnoffel")
    picks = {choose("karnoffel", "random", view, legal, seed=s)["card"] for s in range(40)}
    assert len(picks) > 1
