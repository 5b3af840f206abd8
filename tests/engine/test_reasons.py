"""What every Karnoffel and Rentz reason may name, along seeded random playouts: a reason names only cards that
every seat sees or that were just played face up to the trick, a hand's or the match's reason names no card, and
states stored before reasons existed still play, show and explain (nothing)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import get_game
from tests.engine.helpers_reasons import named_cards
from tests.engine.invariants import strings_in

OPTIONS = {"karnoffel": {"target": 3}, "rentz": {}}


def playout(name: str, seed: int) -> list[tuple[Any, int, dict[str, Any], Any]]:
    game, rng = get_game(name), random.Random(seed)
    state, steps = game.new_match(4, OPTIONS[name], seed=seed), []
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        action = rng.choice(game.legal_actions(state, seat))
        after = game.apply(state, seat, action)
        steps.append((state, seat, action, after))
        state = after
    return steps


def trick_cards(name: str, state: Any) -> list[str]:
    """The cards on the table in the trick being played."""
    if name == "karnoffel":
        return [p["card"] for p in state["trick"]]
    return list(state["trick_cards"])


@pytest.mark.parametrize("name", ["karnoffel", "rentz"])
@pytest.mark.parametrize("seed", [1, 2])
def test_it_never_names_a_card_some_seat_may_not_see(name: str, seed: int) -> None:
    game, kinds = get_game(name), set()
    for before, _seat, action, after in playout(name, seed):
        public = set(trick_cards(name, before)) | {action.get("card")}
        for reader in [None, 0, 1, 2, 3]:
            public_now = public | set(strings_in(game.view(after, reader)))
            for reason in game.reasons(before, after):
                kinds.add(reason["kind"])
                assert named_cards(reason) <= public_now, reason
                if reason["kind"] != "trick":
                    assert not set(strings_in(reason)) & set(game.DECK), reason
        if not game.reasons(before, after):
            assert "settled" not in game.view(after, None)
    assert kinds == {"trick", "hand", "match"}


@pytest.mark.parametrize("name", ["karnoffel", "rentz"])
def test_it_settles_a_trick_only_with_its_last_card(name: str) -> None:
    for before, _seat, action, after in playout(name, 3):
        ends_trick = action["type"] == "play" and len(trick_cards(name, before)) == 3
        assert any(r["kind"] == "trick" for r in get_game(name).reasons(before, after)) == ends_trick


@pytest.mark.parametrize("name", ["karnoffel", "rentz"])
def test_it_plays_and_shows_a_state_stored_before_reasons(name: str) -> None:
    game = get_game(name)
    old = {
        k: v for k, v in game.new_match(4, OPTIONS[name], seed=4).items() if k not in ("settled", "last_hand_reason")
    }
    assert game.reasons(old, old) == []
    assert game.view(old, 0)["to_act"] == game.to_act(old)
    seat = game.to_act(old)[0]
    after = game.apply(old, seat, game.legal_actions(old, seat)[0])
    assert game.reasons(old, after) == []
