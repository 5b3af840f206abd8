"""Seeded random Rapscallion matches through the shared invariants, plus
property tests: the hand evaluator against pokerkit, and sealed bids that no
other view can tell apart."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import StandardHighHand

from engine import rapscallion as R
from tests.engine.helpers_rapscallion import full_deck, hidden, locations
from tests.engine.invariants import random_playout

# Playing cards held (a sealed one included) when each round's bidding opens.
CARDS_AT_ROUND = [1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7]


class Checked:
    """The game module, with the digest's counts checked after every apply."""

    def __init__(self) -> None:
        self.reached: set[str] = set()  # which phase-specific checks ran

    def __getattr__(self, name: str) -> Any:
        return getattr(R, name)

    def apply(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> dict[str, Any]:
        new = R.apply(state, seat, action)
        self.reached |= check_counts(new)
        return new


def check_counts(state: dict[str, Any]) -> set[str]:
    """Check the counts; returns the names of the phase-specific checks that applied to this state."""
    n, reached = state["players"], set()
    if state["phase"] == "take":
        reached.add("take")
        # A cancelled seat can always re-bid with the printed sets: nobody is left without a bid.
        assert None not in state["final"]
        assert sorted(state["order"]) == list(range(n))
    if state["phase"] == "bid" and state["asked"] == list(range(n)) and not state["reveals"]:
        reached.add("deal")
        held = [
            len(h) + (s is not None and R.is_playing(s)) for h, s in zip(state["hands"], state["sealed"], strict=True)
        ]
        assert held == [CARDS_AT_ROUND[state["round"]]] * n
        row = len(state["centre"])  # the face-down card is listed as "hidden"
        assert row == (3 if n == 2 else n) and state["down"] is not None
    for seat in range(n):
        raps = [c for c in state["bidding"][seat] + state["spent"][seat] if R.is_rapscallion(c)]
        side = state["side_bet"][seat]
        assert len(raps) + (side is not None and R.is_rapscallion(side)) <= 2
    if state["phase"] == "over":
        reached.add("over")
        assert all(len(hand) == 8 for hand in state["hands"])
        assert max(state["scores"]) >= state["options"]["target"]
    return reached


PRINTED = {
    "colours": {c: [40 + k, 50 + k, 60 + k] for k, c in enumerate(R.COLOURS)},
    "general": [70 + k for k in range(12)],
}


def options_for(seed: int) -> dict[str, Any]:
    options: dict[str, Any] = {"target": 10 + 15 * (seed % 4)}
    if seed % 5 == 1:
        options["bidding_values"] = PRINTED
    if seed % 7 == 2:
        options["deck"] = random.Random(seed).sample(R.PLAYING_DECK, 52)
    return options


# Full checks at every step on short matches, lighter checks on the rest.
FULL = [(2 + seed % 5, seed, {"target": 10 if seed < 20 else 35}) for seed in range(30)]
LIGHT = [(2 + seed % 5, seed, options_for(seed)) for seed in range(30, 210)]


@pytest.mark.parametrize(("players", "seed", "options"), FULL)
def test_it_keeps_every_invariant_at_every_step(players: int, seed: int, options: dict[str, Any]) -> None:
    checked = Checked()
    state, _ = random_playout(
        checked,
        players,
        seed,
        options=options,
        full_deck=full_deck(players, seed, options),
        locations=locations,
        hidden=hidden,
        check_every=1,
    )
    assert R.is_over(state)
    assert checked.reached == {"take", "deal", "over"}, f"phase checks that never ran: {checked.reached}"


@pytest.mark.parametrize(("players", "seed", "options"), LIGHT)
def test_it_keeps_the_invariants_on_longer_matches(players: int, seed: int, options: dict[str, Any]) -> None:
    state, _ = random_playout(
        Checked(),
        players,
        seed,
        options=options,
        full_deck=full_deck(players, seed, options),
        locations=locations,
        hidden=hidden,
        check_every=53,
    )
    result = R.outcome(state)
    assert result["places"] == R.places(state) and len(state["history"]) == state["hand_no"] + 1


def test_it_plays_a_default_match_to_100_at_every_table_size() -> None:
    for players in range(2, 7):
        state, _ = random_playout(R, players, 1000 + players, check_every=97)
        assert max(state["scores"]) >= 100 and state["options"]["target"] == 100


# --- the evaluator against pokerkit ---------------------------------------------------------------


def pokerkit_hand(cards: list[str]) -> StandardHighHand:
    return StandardHighHand.from_game("".join(c[0] + c[1].lower() for c in cards))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(R.PLAYING_DECK), min_size=16, max_size=16, unique=True))
def test_it_orders_hands_as_pokerkit_does_and_breaks_its_ties_by_suit(cards: list[str]) -> None:
    a, b = cards[:8], cards[8:]
    (key_a, five_a), (key_b, _five_b) = R.best_hand(a), R.best_hand(b)
    pk_a, pk_b = pokerkit_hand(a), pokerkit_hand(b)
    assert (key_a[:2] > key_b[:2]) == (pk_a > pk_b)
    assert (key_a[:2] == key_b[:2]) == (pk_a == pk_b)
    assert key_a != key_b  # the suit tie-break always decides between two players
    assert R.best_hand(five_a)[0] == key_a and set(five_a) <= set(a)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6), st.integers(0, 10_000), st.integers(0, 400))
def test_it_shows_other_seats_the_same_view_whichever_card_was_sealed(players: int, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    state = R.new_match(players, None, seed=seed)
    for step in range(10_000):
        if R.is_over(state):
            return
        waiting = R.to_act(state)
        # Only while another bid is still awaited: the last one turns every bid over.
        if step >= steps and len(waiting) >= 2:
            break
        seat = rng.choice(waiting)
        state = R.apply(state, seat, rng.choice(R.legal_actions(state, seat)))
    bidder = rng.choice(waiting)
    for observer in [None, *range(players)]:
        if observer == bidder:
            continue
        shown = {
            json.dumps(R.view(R.apply(state, bidder, action), observer), sort_keys=True)
            for action in R.legal_actions(state, bidder)
        }
        assert len(shown) == 1


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), st.integers(0, 10_000), st.integers(0, 300))
def test_it_accepts_exactly_the_legal_actions(players: int, seed: int, steps: int) -> None:
    """``apply`` checks legality without building the list; it must agree with it."""
    rng = random.Random(seed)
    state = R.new_match(players, None, seed=seed)
    for _ in range(steps):
        if R.is_over(state):
            return
        seat = rng.choice(R.to_act(state))
        state = R.apply(state, seat, rng.choice(R.legal_actions(state, seat)))
    codes = full_deck(players, seed, {}) + ["hidden", None, 3]
    for seat in range(players):
        legal = R.legal_actions(state, seat)
        candidates = [{"type": kind, "card": card} for kind in ("side_bet", "bid", "take") for card in codes]
        for action in rng.sample(candidates, 60) + legal + [{"type": "take"}, {"card": "2C"}, "bid", None]:
            try:
                R.apply(state, seat, action)
            except R.IllegalAction:
                assert action not in legal
            else:
                assert action in legal
