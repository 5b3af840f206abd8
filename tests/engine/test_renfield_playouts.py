"""Seeded random Renfield matches through the engine invariants, every variant
alone and in combinations, at 3, 5 and 8 players where the rules allow."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import renfield as game
from tests.engine.helpers_renfield import COMBOS, VARIANTS, allowed, hidden, locations
from tests.engine.invariants import random_playout


def money_conserved(state: dict) -> bool:
    return sum(state["money"]) + state["pot"] == state["players"] * state["stake"]


CASES = [(players, options) for options in VARIANTS + COMBOS for players in (3, 5, 8) if allowed(players, options)]


@pytest.mark.parametrize(("players", "options"), CASES, ids=[f"{p}-{'+'.join(o) or 'base'}" for p, o in CASES])
def test_it_keeps_the_invariants_in_random_matches(players: int, options: dict) -> None:
    for k in range(4):
        seed = 1000 * players + 17 * k + len(options)
        check_every = 1 if k == 0 else 13
        state, actions = random_playout(
            game,
            players,
            seed,
            options={**options, "hands": 2},
            full_deck=game.FULL_DECK,
            locations=locations,
            hidden=hidden,
            check_every=check_every,
        )
        assert money_conserved(state)
        assert len(state["history"]) == 2
        assert game.outcome(state)["scores"] == [m - state["stake"] for m in state["money"]]


def test_it_conserves_money_after_every_action() -> None:
    for seed in range(40):
        options = (VARIANTS + COMBOS)[seed % len(VARIANTS + COMBOS)]
        players = next(p for p in (3, 4, 5) if allowed(p, options))
        rng = random.Random(seed)
        state = game.new_match(players, options, seed=seed)
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
            assert money_conserved(state)
            assert state["pot"] >= 0


def test_it_plays_whole_default_matches_at_every_table_size() -> None:
    for players in range(3, 9):
        state, _ = random_playout(
            game, players, 77 + players, full_deck=game.FULL_DECK, locations=locations, hidden=hidden, check_every=29
        )
        assert len(state["history"]) == players  # one deal per player
        assert [h["dealer"] for h in state["history"]] == list(range(players))


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(3, 8),
    flags=st.fixed_dictionaries(
        {
            name: st.booleans()
            for name in (
                "auction",
                "blaze",
                "death_card",
                "draw",
                "flatline",
                "stud",
                "wild_cards",
                "breathing_room",
                "buying_the_trick",
            )
        }
    ),
)
def test_it_plays_any_allowed_combination(seed: int, players: int, flags: dict) -> None:
    options = {**flags, "hands": 1}
    if not allowed(players, options):
        with pytest.raises(ValueError):
            game.new_match(players, options, seed=seed)
        return
    state, _ = random_playout(
        game,
        players,
        seed,
        options=options,
        full_deck=game.FULL_DECK,
        locations=locations,
        hidden=hidden,
        check_every=17,
    )
    assert money_conserved(state)
