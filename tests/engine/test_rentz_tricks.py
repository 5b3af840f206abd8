"""Rentz's four trick-taking mini-games (Acool, Diamonds, Queens, King of Hearts), one scenario per rule of
the digest on stacked decks: the lead, following suit, who takes a trick, what it scores and when a hand ends."""

from __future__ import annotations

import copy
import random

import pytest

from engine import IllegalAction, rentz
from tests.engine.helpers_rentz import (
    BY_SUIT,
    CLUBS,
    DIAMONDS,
    HEARTS,
    SPADES,
    at_hand,
    finish_hand,
    play,
    play_trick,
    start,
)

# --- trick-taking mini-games ---------------------------------------------------------------


def test_it_has_the_dealer_lead_the_first_trick_and_the_winner_lead_the_next() -> None:
    hands = [
        CLUBS[:6] + DIAMONDS[:7],
        CLUBS[6:] + DIAMONDS[7:],
        HEARTS,
        SPADES,
    ]
    state = start(hands, "acool")
    assert rentz.to_act(state) == [0]
    state = play_trick(state, ["2C", "AC", "2H", "2S"])
    assert state["tricks"][-1]["winner"] == 1
    assert rentz.to_act(state) == [1]


def test_it_makes_players_follow_suit_when_they_can() -> None:
    hands = [CLUBS[:6] + DIAMONDS[:7], CLUBS[6:] + DIAMONDS[7:], HEARTS, SPADES]
    state = play(start(hands, "acool"), 0, "2C")
    assert {a["card"] for a in rentz.legal_actions(state, 1)} == set(CLUBS[6:])
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction, match="follow suit"):
        play(state, 1, "9D")
    assert state == before


def test_it_lets_a_void_player_play_any_card() -> None:
    state = play(start(BY_SUIT, "acool"), 0, "2C")
    assert {a["card"] for a in rentz.legal_actions(state, 1)} == set(DIAMONDS)


def test_it_gives_the_trick_to_the_highest_card_of_the_led_suit_without_trumps() -> None:
    hands = [CLUBS[:6] + DIAMONDS[:7], HEARTS, CLUBS[6:] + DIAMONDS[7:], SPADES]
    state = start(hands, "acool")
    state = play_trick(state, ["5C", "AH", "8C", "AS"])
    assert state["tricks"][-1]["winner"] == 2


def test_it_scores_acool_ten_off_per_trick_and_plays_all_thirteen() -> None:
    state = start(BY_SUIT, "acool")
    for k in range(13):
        assert state["hand_no"] == 0 and len(state["tricks"]) == k
        state = _rest_of_trick(play(state, 0, CLUBS[k]))
    assert state["history"][-1] == {"hand_no": 0, "dealer": 0, "game": "acool", "points": [-130, 0, 0, 0]}
    assert state["hand_no"] == 1


def _any(state: dict, seat: int) -> str:
    return rentz.legal_actions(state, seat)[0]["card"]


def _rest_of_trick(state: dict) -> dict:
    while state["trick_cards"]:
        seat = rentz.to_act(state)[0]
        state = play(state, seat, _any(state, seat))
    return state


def test_it_counts_acool_tricks_for_whoever_takes_them() -> None:
    hands = [CLUBS[:6] + DIAMONDS[:7], CLUBS[6:] + DIAMONDS[7:], HEARTS, SPADES]
    state = start(hands, "acool")
    state = play_trick(state, ["2C", "AC", "2H", "2S"])  # seat 1 takes one
    state = play_trick(state, ["8C", "3H", "3S", "3C"])  # seat 1 leads and takes another
    assert rentz.view(state, None)["tricks_taken"] == [0, 2, 0, 0]
    state = finish_hand(state, random.Random(5))
    points = state["history"][-1]["points"]
    assert sum(points) == -130 and points[1] <= -20


def _diamond_table() -> list[list[str]]:
    return [
        CLUBS,
        DIAMONDS[:5] + HEARTS[:8],
        DIAMONDS[5:9] + HEARTS[8:] + SPADES[:4],
        DIAMONDS[9:] + SPADES[4:],
    ]


def _shed_diamonds(state: dict, tricks: int) -> dict:
    """Seat 0 leads clubs; the void seats throw their diamonds first."""
    for k in range(tricks):
        state = play(state, 0, CLUBS[k])
        for seat in (1, 2, 3):
            legal = [a["card"] for a in rentz.legal_actions(state, seat)]
            diamonds = [c for c in legal if c[1] == "D"]
            state = play(state, seat, (diamonds or legal)[0])
    return state


def test_it_scores_diamonds_fifteen_off_each_and_ends_when_all_are_taken() -> None:
    state = _shed_diamonds(start(_diamond_table(), "diamonds"), 5)
    assert state["hand_no"] == 1, "the hand ends after the fifth trick: all 13 diamonds are taken"
    assert state["history"][-1]["points"] == [-195, 0, 0, 0]


def test_it_plays_diamonds_out_when_end_when_decided_is_off() -> None:
    state = _shed_diamonds(start(_diamond_table(), "diamonds", end_when_decided=False), 5)
    assert state["hand_no"] == 0 and len(state["tricks"]) == 5
    state = finish_hand(state, random.Random(0))
    assert state["history"][-1]["points"] == [-195, 0, 0, 0]


def _queen_table() -> list[list[str]]:
    return [CLUBS, DIAMONDS, HEARTS, SPADES]


def test_it_scores_queens_twenty_five_off_each_and_ends_when_all_are_taken() -> None:
    state = start(_queen_table(), "queens")
    state = play_trick(state, ["QC", "QD", "QH", "QS"])
    assert state["hand_no"] == 1
    assert state["history"][-1]["points"] == [-100, 0, 0, 0]


def test_it_plays_queens_out_when_end_when_decided_is_off() -> None:
    state = start(_queen_table(), "queens", end_when_decided=False)
    state = play_trick(state, ["QC", "QD", "QH", "QS"])
    assert state["hand_no"] == 0 and rentz.to_act(state) == [0]
    state = finish_hand(state, random.Random(0))
    assert state["history"][-1]["points"] == [-100, 0, 0, 0]


def test_it_scores_queens_for_whoever_takes_them() -> None:
    hands = [CLUBS[:6] + DIAMONDS[:7], CLUBS[6:] + DIAMONDS[7:], HEARTS, SPADES]
    state = start(hands, "queens")
    state = play_trick(state, ["2C", "QC", "QH", "QS"])  # seat 1 takes three queens
    state = play_trick(state, ["8C", "2H", "2S", "3C"])  # a trick without a queen costs nothing
    view = rentz.view(state, None)
    assert view["penalties"] == [[], ["QC", "QH", "QS"], [], []]
    assert view["tricks_taken"] == [0, 2, 0, 0]


def test_it_ends_king_of_hearts_with_the_trick_that_takes_the_king() -> None:
    for early in (True, False):
        state = start(BY_SUIT, "king_of_hearts", end_when_decided=early)
        state = play_trick(state, ["2C", "2D", "3H", "2S"])
        assert state["hand_no"] == 0
        state = play_trick(state, ["3C", "3D", "KH", "3S"])
        assert state["hand_no"] == 1, "the hand ends with the trick that takes the K of hearts"
        assert state["history"][-1]["points"] == [-75, 0, 0, 0]


def test_it_has_a_later_dealer_lead_the_first_trick_and_scores_whoever_takes() -> None:
    low, high = CLUBS[:6] + DIAMONDS[:7], CLUBS[6:] + DIAMONDS[7:]
    state = at_hand(5, [SPADES, low, high, HEARTS])
    assert state["dealer"] == 1
    state = rentz.apply(state, 1, {"type": "choose", "game": "queens"})
    assert rentz.to_act(state) == [1], "the dealer leads the first trick"
    assert all(rentz.legal_actions(state, s) == [] for s in (0, 2, 3))
    state = play_trick(state, ["2C", "AC", "QH", "QS"])
    assert state["tricks"] == [{"leader": 1, "winner": 2, "cards": ["2C", "AC", "QH", "QS"]}]
    assert rentz.to_act(state) == [2], "the winner leads the next trick"
    state = play_trick(state, ["QC", "2H", "2S", "3C"])
    state = play_trick(state, ["QD", "3H", "3S", "2D"])
    assert state["history"][-1] == {"hand_no": 5, "dealer": 1, "game": "queens", "points": [0, 0, -100, 0]}
    assert state["hand_no"] == 6 and state["dealer"] == 1 and "queens" not in state["remaining"]


# The digest puts no restriction on a lead or on a discard (docs: Decisions).
ANY_LEAD = [
    ["2C", "3C", "4C", "2D", "3D", "QD", "AD", "2H", "3H", "KH", "2S", "3S", "QS"],
    ["5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC", "4D", "5D", "6D"],
    ["7D", "8D", "9D", "TD", "JD", "KD", "4H", "5H", "6H", "7H", "8H", "9H", "TH"],
    ["JH", "QH", "AH", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "KS", "AS"],
]


@pytest.mark.parametrize("game", ["diamonds", "queens", "king_of_hearts"])
def test_it_lets_any_card_be_led_and_any_card_be_thrown_when_void(game: str) -> None:
    state = start(ANY_LEAD, game)
    assert [a["card"] for a in rentz.legal_actions(state, 0)] == state["hands"][0], "penalty cards may be led"
    state = play(state, 0, "2S")
    # Seat 1 has no spades: it may keep its diamonds and its queen.
    assert [a["card"] for a in rentz.legal_actions(state, 1)] == state["hands"][1]
    state = play(state, 1, "5C")
    assert rentz.to_act(state) == [2]
