"""Rentz: seeded random whole matches through the shared invariants, plus hypothesis."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import rentz
from engine.cards import french_deck
from tests.engine.helpers_rentz import hidden, locations
from tests.engine.invariants import assert_view_hides, random_playout

DECK = french_deck()

OPTION_SETS = [
    None,
    {"end_when_decided": False},
    {"points": {"acool": -5, "queens": -40, "rentz": [400, 300, 200, 100]}},
    {"points": {"diamonds": 0, "king_of_hearts": -150}, "end_when_decided": False},
]


def _check_match(state: dict, options: dict | None) -> None:
    points = rentz.validate_options(4, options)["points"]
    history = state["history"]
    assert len(history) == 20
    assert [h["dealer"] for h in history] == [i // 5 for i in range(20)]
    assert state["scores"] == [sum(h["points"][s] for h in history) for s in range(4)]
    for h in history:
        if h["game"] == "rentz":
            assert sorted(h["points"]) == sorted(points["rentz"])
        elif h["game"] == "acool":
            assert sum(h["points"]) == 13 * points["acool"]
        else:
            total = {"diamonds": 13, "queens": 4, "king_of_hearts": 1}[h["game"]]
            assert sum(h["points"]) == total * points[h["game"]]


# A few matches with every step checked, many more with a check now and then.
@pytest.mark.parametrize("seed", range(4))
def test_it_keeps_every_invariant_at_every_step(seed: int) -> None:
    options = OPTION_SETS[seed % len(OPTION_SETS)]
    state, _ = random_playout(
        rentz, 4, seed, options=options, full_deck=DECK, locations=locations, hidden=hidden, check_every=1
    )
    _check_match(state, options)


@pytest.mark.parametrize("seed", range(100, 300))
def test_it_keeps_the_invariants_over_many_matches(seed: int) -> None:
    options = OPTION_SETS[seed % len(OPTION_SETS)]
    state, _ = random_playout(
        rentz, 4, seed, options=options, full_deck=DECK, locations=locations, hidden=hidden, check_every=97
    )
    _check_match(state, options)


@pytest.mark.parametrize("seed", range(4))
def test_it_replays_a_stacked_first_hand(seed: int) -> None:
    deck = list(DECK)
    random.Random(seed).shuffle(deck)
    random_playout(
        rentz, 4, seed, options={"deck": deck}, full_deck=DECK, locations=locations, hidden=hidden, check_every=53
    )


def test_it_keeps_hands_legal_and_views_closed_mid_match() -> None:
    reached = {"plays": 0}  # the examples reached a seat about to play, whose cards are checked

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(seed=st.integers(0, 10**9), steps=st.integers(0, 300), early=st.booleans())
    def check(seed: int, steps: int, early: bool) -> None:
        rng = random.Random(seed)
        state = rentz.new_match(4, {"end_when_decided": early}, seed=seed)
        for _ in range(steps):
            seat = rentz.to_act(state)[0]
            state = rentz.apply(state, seat, rng.choice(rentz.legal_actions(state, seat)))
        assert sorted(locations(state)) == sorted(DECK)
        seat = rentz.to_act(state)[0]
        plays = [action for action in rentz.legal_actions(state, seat) if action["type"] == "play"]
        for action in plays:
            assert action["card"] in state["hands"][seat]
        reached["plays"] += bool(plays)
        for viewer in (None, 0, 1, 2, 3):
            assert_view_hides(rentz, state, viewer, hidden)
            assert rentz.view(state, viewer)["hand_sizes"] == [len(h) for h in state["hands"]]
        # Whatever a seat is proved to lack, it really lacks.
        for s, lacks in enumerate(state["lacks"]):
            for card in state["hands"][s]:
                assert card[0] not in lacks.get(card[1], ""), f"seat {s} holds {card} but is recorded as lacking it"

    check()
    assert reached["plays"], "no example reached a seat about to play a card"
