"""Rapscallion bots: legal choices from views, sound determinizations, view-only decisions."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from engine import rapscallion as R
from engine.__main__ import play_match
from engine.bots import choose
from engine.bots import rapscallion as B
from tests.engine.helpers_rapscallion import full_deck, locations

State = dict[str, Any]


def random_states(players: int, seed: int, every: int = 7) -> list[State]:
    """Every ``every``-th state of a random match, over several hands."""
    rng = random.Random(seed)
    state = R.new_match(players, {"target": 100}, seed=seed)
    states = []
    step = 0
    while not R.is_over(state):
        if step % every == 0:
            states.append(state)
        seat = rng.choice(R.to_act(state))
        state = R.apply(state, seat, rng.choice(R.legal_actions(state, seat)))
        step += 1
    return states + [state]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_it_determinizes_to_a_state_the_seat_cannot_tell_from_the_real_one(players: int) -> None:
    deck = Counter(full_deck(players, players, {"target": 100}))
    rng = random.Random(players)
    checked = 0
    for state in random_states(players, players, every=3):
        for seat in range(players):
            shown = R.view(state, seat)
            det = B.determinize(shown, rng)
            assert R.view(det, seat) == shown
            assert R.legal_actions(det, seat) == R.legal_actions(state, seat)
            assert R.to_act(det) == R.to_act(state)
            assert Counter(locations(det)) == deck
            checked += 1
    assert checked > 100


def test_it_determinizes_respecting_what_the_view_proves() -> None:
    rng = random.Random(5)
    for state in random_states(4, 11, every=3):
        for seat in range(4):
            det = B.determinize(R.view(state, seat), rng)
            for other in range(4):
                held = det["hands"][other] + det["bidding"][other] + [det["sealed"][other]]
                assert set(state["known"][other]) <= set(held)
                # A coloured set never leaves its seat within a hand.
                colour = R.colour_set(state["options"]["bidding_values"], state["colours"][other])
                mine = held + det["aside"][other] + det["spent"][other] + [det["side_bet"][other]]
                assert set(colour) <= set(mine)
            assert det["side_bet"][seat] == state["side_bet"][seat]
            assert det["hands"][seat] == state["hands"][seat]


def test_it_varies_the_unseen_cards_between_determinizations() -> None:
    state = random_states(3, 12, every=50)[2]
    shown = R.view(state, 0)
    deals = {tuple(B.determinize(shown, random.Random(k))["hands"][1]) for k in range(10)}
    assert len(deals) > 1


@pytest.mark.parametrize("players", [2, 4, 6])
def test_it_has_basic_choose_a_legal_action_from_the_view(players: int) -> None:
    for k, state in enumerate(random_states(players, 20 + players, every=3)):
        for seat in R.to_act(state):
            legal = R.legal_actions(state, seat)
            assert choose("rapscallion", "basic", R.view(state, seat), legal, seed=k) in legal


def test_it_has_strong_choose_a_legal_action_from_the_view() -> None:
    for k, state in enumerate(random_states(3, 30, every=90)[:6]):
        for seat in R.to_act(state)[:1]:
            legal = R.legal_actions(state, seat)
            action = choose("rapscallion", "strong", R.view(state, seat), legal, seed=k, playouts=4, time_limit=0.3)
            assert action in legal


@pytest.mark.parametrize("level", ["basic", "strong"])
def test_it_chooses_the_same_when_the_hidden_cards_are_dealt_differently(level: str) -> None:
    states = random_states(4, 40, every=23)
    for k, state in enumerate(states[:: 4 if level == "strong" else 1][: 3 if level == "strong" else 12]):
        for seat in R.to_act(state)[: 1 if level == "strong" else 6]:
            shown = R.view(state, seat)
            other = B.determinize(shown, random.Random(k))
            assert other["hands"] != state["hands"] or other["stock"] != state["stock"] or R.is_over(state)
            budget = {"playouts": 4, "time_limit": 5.0} if level == "strong" else {}
            real = choose("rapscallion", level, shown, R.legal_actions(state, seat), seed=k, **budget)
            again = choose("rapscallion", level, R.view(other, seat), R.legal_actions(other, seat), seed=k, **budget)
            assert real == again


# --- what basic does ------------------------------------------------------------------------------------


def _view(**changes: Any) -> dict[str, Any]:
    state = R.new_match(3, None, seed=50)
    shown = R.view(state, 0)
    shown.update(changes)
    return shown


def test_it_has_basic_side_bet_its_lowest_number() -> None:
    shown = _view(bidding_cards=["B13", "R-red-1", "B1", "B7", "R-red-2"])
    legal = [{"type": "side_bet", "card": c} for c in shown["bidding_cards"]]
    assert B.basic(shown, legal, random.Random(1)) == {"type": "side_bet", "card": "B1"}


def test_it_has_basic_spend_a_rapscallion_only_on_a_card_that_makes_a_hand() -> None:
    cards = ["B13", "R-red-1", "B7"]
    legal = [{"type": "bid", "card": c} for c in cards]
    flush = _view(
        phase="bid",
        round_kind="playing",
        bidding_cards=cards,
        hand=["2H", "5H", "9H", "JH", "3C", "4D", "8S"],
        centre=["KH", "2S", "hidden"],
    )
    assert B.basic(flush, legal, random.Random(1))["card"] == "R-red-1"
    dull = _view(
        phase="bid", round_kind="playing", bidding_cards=cards, hand=["2H", "5C", "9D"], centre=["3S", "4S", "hidden"]
    )
    assert B.basic(dull, legal, random.Random(1))["card"] == "B7"


def test_it_has_basic_take_the_card_that_helps_most() -> None:
    shown = _view(phase="take", round_kind="playing", hand=["7H", "7C", "2D", "9S"], centre=["KD", "7S", "hidden"])
    legal = [{"type": "take", "card": c} for c in shown["centre"]]
    assert B.basic(shown, legal, random.Random(1))["card"] == "7S"


def test_it_has_basic_give_up_the_least_useful_playing_card_for_a_bidding_card() -> None:
    shown = _view(phase="bid", round_kind="bidding", hand=["7H", "7C", "2D"], centre=["B30", "B19", "hidden"])
    legal = [{"type": "bid", "card": c} for c in shown["hand"]]
    assert B.basic(shown, legal, random.Random(1))["card"] == "2D"


def test_it_has_basic_beat_random_clearly() -> None:
    wins = 0
    for seed in range(6):
        state, _ = play_match("rapscallion", 3, seed, ["basic", "random", "random"])
        wins += R.outcome(state)["places"][0] == 1
    assert wins >= 5
