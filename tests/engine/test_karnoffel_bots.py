"""Karnoffel bots: legal choices from views, sound determinization, and the
basic policy's habits on stacked tables."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import karnoffel as K
from engine.bots import choose
from engine.bots import karnoffel as B
from tests.engine.helpers_karnoffel import locations, play, start


def sample_states(count: int, seed: int) -> list[dict[str, Any]]:
    """States met along random matches, from every stage of a hand."""
    rng = random.Random(seed)
    found: list[dict[str, Any]] = []
    match = 0
    while len(found) < count:
        state = K.new_match(4, {"target": 2}, seed=seed * 1000 + match)
        match += 1
        while not K.is_over(state):
            if rng.random() < 0.2:
                found.append(state)
            seat = state["turn"]
            state = K.apply(state, seat, rng.choice(K.legal_actions(state, seat)))
        found.append(state)
    return found[:count]


STATES = sample_states(300, 7)


def test_it_has_basic_and_strong_choose_legal_actions_from_views() -> None:
    for i, state in enumerate(STATES[:120]):
        for seat in K.to_act(state):
            legal = K.legal_actions(state, seat)
            seen = K.view(state, seat)
            assert choose("karnoffel", "basic", seen, legal, seed=i) in legal
            if i % 8 == 0:
                assert choose("karnoffel", "strong", seen, legal, seed=i, playouts=12, time_limit=30) in legal


def test_it_determinizes_to_the_same_view_and_legal_actions() -> None:
    rng = random.Random(1)
    for state in STATES:
        for seat in range(4):
            seen = K.view(state, seat)
            det = B.determinize(seen, rng)
            assert K.view(det, seat) == seen
            assert K.legal_actions(det, seat) == K.legal_actions(state, seat)
            assert K.to_act(det) == K.to_act(state)
            assert sorted(locations(det)) == sorted(K.DECK)
            assert [len(h) for h in det["hands"]] == [len(h) for h in state["hands"]]


def test_it_determinizes_within_what_the_view_proves() -> None:
    rng = random.Random(2)
    moved = 0
    for state in STATES[:100]:
        seen = K.view(state, 0)
        played = {p["card"] for t in state["tricks"] for p in t["cards"]} | {p["card"] for p in state["trick"]}
        det = B.determinize(seen, rng)
        for other in (1, 2, 3):
            face = state["face_up"][other]
            assert (face in det["hands"][other]) == (face not in played)
        moved += det["hands"][1] != state["hands"][1]
    assert moved > 50  # the unseen cards really are dealt at random


def test_it_can_play_on_from_a_determinized_state() -> None:
    rng = random.Random(3)
    for state in STATES[:60]:
        if K.is_over(state):
            continue
        det = B.determinize(K.view(state, state["turn"]), rng)
        while not K.is_over(det) and det["hand_no"] == state["hand_no"]:
            seat = det["turn"]
            det = K.apply(det, seat, rng.choice(K.legal_actions(det, seat)))


@pytest.mark.parametrize("level", ["basic", "strong"])
def test_it_chooses_the_same_when_others_hidden_cards_are_reshuffled(level: str) -> None:
    rng = random.Random(4)
    states = [s for s in STATES if not K.is_over(s)][: 80 if level == "basic" else 12]
    for i, state in enumerate(states):
        seat = state["turn"]
        other = B.determinize(K.view(state, seat), rng)
        assert other["hands"] != state["hands"] or len(state["hands"][(seat + 1) % 4]) <= 1
        picks = [
            choose("karnoffel", level, K.view(s, seat), K.legal_actions(s, seat), seed=i, playouts=8, time_limit=60)
            for s in (state, other)
        ]
        assert picks[0] == picks[1]


def test_it_measures_a_finished_hand_by_hands_won() -> None:
    state = {**K.new_match(4, seed=1), "hands_won": [3, 1]}
    assert B.utility(state, 0) == 2 and B.utility(state, 1) == -2
    over = {**state, "winner_team": 0}
    assert B.utility(over, 2) > B.utility(state, 2)


# --- the basic policy's habits (trump hearts: seat 1 shows the 2 of hearts) ---


def _basic(state: dict[str, Any], seat: int, **changes: Any) -> str:
    seen = {**K.view(state, seat), **changes}
    return B.basic(seen, K.legal_actions(state, seat), random.Random(0))["card"]


def test_it_wins_a_trick_as_cheaply_as_it_can() -> None:
    state = start(
        [
            ["KS", "3S", "4S", "5S", "6S"],
            ["2H", "9C", "3D", "4D", "5D"],
            ["KD", "TC", "KC", "8H", "6H"],
            ["QS", "7S", "8S", "9S", "TS"],
        ]
    )
    assert _basic(play(state, "9C"), 2) == "TC"


def test_it_saves_the_jack_of_trump_unless_the_trick_decides_the_hand() -> None:
    state = start(
        [
            ["KS", "3S", "4S", "5S", "6S"],
            ["2H", "6H", "3D", "4D", "5D"],
            ["KD", "JH", "2C", "3C", "4C"],
            ["QS", "7S", "8S", "9S", "TS"],
        ]
    )
    state = play(state, "6H")
    assert _basic(state, 2) == "2C"
    assert _basic(state, 2, taken=[0, 2]) == "JH"  # the opponents would win the hand
    assert _basic(state, 2, taken=[2, 0]) == "JH"  # it wins the hand for us


def test_it_lets_the_partners_winning_card_stand() -> None:
    state = start(
        [
            ["KS", "3S", "4S", "5S", "6S"],
            ["2H", "9C", "3D", "4D", "5D"],
            ["KD", "2D", "6D", "7D", "8D"],
            ["QS", "TC", "JS", "9S", "TS"],
        ]
    )
    state = play(state, "9C", "2D")
    card = _basic(state, 3)
    assert card == "9S"
    assert not K.beats(card, "9C", "9C", "H")


def test_it_does_not_waste_high_trumps_on_a_lost_trick() -> None:
    state = start(
        [
            ["KS", "3S", "4S", "5S", "6S"],
            ["2H", "JH", "3D", "4D", "5D"],
            ["KD", "6H", "KH", "8C", "QS"],
            ["QC", "7S", "8S", "9S", "TS"],
        ]
    )
    assert _basic(play(state, "JH"), 2) == "8C"


def test_it_leads_its_cheapest_sure_winner_and_keeps_the_jack() -> None:
    state = start(
        [
            ["KS", "3S", "4S", "5S", "6S"],
            ["2H", "JH", "6H", "3D", "4D"],
            ["KD", "2D", "6D", "7D", "8D"],
            ["QS", "TC", "JS", "9S", "TS"],
        ]
    )
    # Nothing the others may hold beats a led 2 of trump once the Jack and 6 are ours.
    assert _basic(state, 1) == "2H"


def test_it_leads_a_low_card_without_a_sure_winner() -> None:
    state = start(
        [
            ["KS", "3S", "4S", "5S", "6S"],
            ["2H", "9C", "TD", "3D", "KC"],
            ["KD", "2D", "6D", "7D", "8D"],
            ["QS", "TC", "JS", "9S", "TS"],
        ]
    )
    assert _basic(state, 1) == "3D"


def test_it_beats_random_play_clearly() -> None:
    wins = 0
    for seed in range(12):
        state = K.new_match(4, {"target": 3}, seed=seed)
        step = 0
        while not K.is_over(state):
            step += 1
            seat = state["turn"]
            level = "basic" if seat % 2 == seed % 2 else "random"
            legal = K.legal_actions(state, seat)
            state = K.apply(state, seat, choose("karnoffel", level, K.view(state, seat), legal, seed=f"{seed}:{step}"))
        wins += state["winner_team"] == seed % 2
    assert wins >= 10
