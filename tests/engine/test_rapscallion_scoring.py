"""Rapscallion's scoring and the end of a match, one scenario per rule of the digest: the best five of
eight cards by the category table and its tie-breaks by suit, the side bet, 5 for each rapscallion never
played, hands played on with the coloured sets passed to the next seat, and the end at the target."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from engine import rapscallion as R
from tests.engine.helpers_rapscallion import (
    State,
    act,
    bet_low,
    deal,
    first_legal_until,
    numbers,
    raps,
)

# --- scoring -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "category", "points"),
    [
        (["9H", "TH", "JH", "QH", "KH", "2C", "3D", "4S"], "straight flush", 20),
        (["AS", "2S", "3S", "4S", "5S", "KD", "KC", "KH"], "straight flush", 20),
        (["7C", "7D", "7H", "7S", "2D", "9C", "JS", "KH"], "four of a kind", 20),
        (["7C", "7D", "7H", "2S", "2D", "9C", "JS", "KH"], "full house", 15),
        (["2H", "5H", "9H", "JH", "KH", "2C", "3D", "4S"], "flush", 10),
        (["5C", "6D", "7H", "8S", "9C", "2D", "JS", "KH"], "straight", 5),
        (["AC", "2D", "3H", "4S", "5C", "9D", "JS", "KH"], "straight", 5),
        (["7C", "7D", "7H", "2S", "4D", "9C", "JS", "KH"], "three of a kind", 0),
        (["7C", "7D", "2H", "2S", "4D", "9C", "JS", "KH"], "two pair", 0),
        (["7C", "7D", "3H", "2S", "4D", "9C", "JS", "KH"], "one pair", 0),
        (["7C", "8D", "3H", "2S", "4D", "9C", "JS", "KH"], "high card", 0),
    ],
)
def test_it_scores_the_best_five_of_eight_by_the_category_table(cards: list[str], category: str, points: int) -> None:
    (key, five) = R.best_hand(cards)
    assert R.CATEGORIES[key[0]] == category and len(five) == 5 and set(five) <= set(cards)
    assert R.CATEGORY_POINTS[key[0]] == points


def test_it_prefers_the_higher_category_among_the_eight() -> None:
    # A straight and a flush at once: the flush counts.
    key, five = R.best_hand(["5C", "6D", "7H", "8S", "9C", "2C", "JC", "KC"])
    assert R.CATEGORIES[key[0]] == "flush" and sorted(five) == sorted(["2C", "5C", "9C", "JC", "KC"])
    # Two three-of-a-kinds make a full house with the higher as the three.
    key, five = R.best_hand(["7C", "7D", "7H", "9S", "9D", "9C", "2S", "3H"])
    assert R.CATEGORIES[key[0]] == "full house" and five[:3] == ["9S", "9D", "9C"]
    # Beside a second three of a kind, a higher pair is the better pair of the full house.
    key, five = R.best_hand(["5S", "5H", "5D", "3S", "3H", "3D", "KS", "KH"])
    assert R.CATEGORIES[key[0]] == "full house" and five == ["5S", "5H", "5D", "KS", "KH"]


def test_it_picks_the_best_five_of_every_five_the_eight_cards_hold() -> None:
    rng = random.Random(8)
    for i in range(300):
        if i % 2:  # few ranks: pairs, threes and fours, where the choice of the five is hardest
            ranks = rng.sample("23456789TJQKA", 3)
            cards = rng.sample([r + s for r in ranks for s in "CDHS"], 8)
        else:
            cards = rng.sample(R.PLAYING_DECK, 8)
        key, five = R.best_hand(cards)
        assert key == max(R.best_hand(list(c))[0] for c in itertools.combinations(cards, 5)), cards
        assert R.best_hand(five)[0] == key


def test_it_ranks_the_wheel_as_the_lowest_straight() -> None:
    wheel = R.best_hand(["AC", "2D", "3H", "4S", "5C"])[0]
    six = R.best_hand(["2D", "3H", "4S", "5C", "6C"])[0]
    broadway = R.best_hand(["TC", "JD", "QH", "KS", "AC"])[0]
    assert wheel < six < broadway


def test_it_breaks_equal_hands_by_the_suit_of_the_highest_card_then_the_next() -> None:
    spades = R.best_hand(["5S", "6C", "7C", "8C", "9S"])[0]
    hearts = R.best_hand(["5C", "6S", "7S", "8S", "9H"])[0]
    assert spades > hearts  # the 9s decide, whatever the lower cards
    # For a wheel the 5 is the highest card, not the ace.
    wheel_5s = R.best_hand(["AC", "2C", "3C", "4C", "5S"])[0]
    wheel_5h = R.best_hand(["AS", "2S", "3S", "4S", "5H"])[0]
    assert wheel_5s > wheel_5h
    # Pairs: the kings are the highest cards here, so their best suits decide.
    kings_spade = R.best_hand(["KS", "KC", "2D", "3D", "4D"])[0]
    kings_heart = R.best_hand(["KH", "KD", "2S", "3S", "4S"])[0]
    assert kings_spade > kings_heart
    # Flushes of the same ranks: the suit decides.
    assert R.best_hand(["2S", "5S", "9S", "JS", "KS"])[0] > R.best_hand(["2D", "5D", "9D", "JD", "KD"])[0]


def test_it_breaks_equal_hands_by_the_highest_card_even_when_it_is_a_kicker() -> None:
    """The digest: "the suit of their highest card ... then the next card": by
    height, not by poker's order of groups before kickers."""
    pair_ace_hearts = R.best_hand(["3S", "3C", "AH", "KD", "QC"])[0]
    pair_ace_spades = R.best_hand(["3H", "3D", "AS", "KC", "QD"])[0]
    assert pair_ace_spades > pair_ace_hearts
    # Two pair below an ace kicker: the ace, then the fives, then the fours.
    ace_spades = R.best_hand(["5C", "5D", "4C", "4D", "AS"])[0]
    ace_hearts = R.best_hand(["5S", "5H", "4S", "4H", "AH"])[0]
    assert ace_spades > ace_hearts
    # Poker rank still comes first: a pair of kings beats a pair of threes with any suits.
    assert R.best_hand(["KC", "KD", "2C", "4C", "5C"])[0] > pair_ace_spades
    # The same at the table: the better suit on the ace takes the best-hand bonus.
    hands = [["3S", "3C", "AH", "KD", "QC", "2D", "5H", "7S"], ["3H", "3D", "AS", "KC", "QD", "2C", "5D", "7H"]]
    rows = R.score_hand(hands, [None, None], [[], []])
    assert [row["points"]["best"] for row in rows] == [0, 20]


def test_it_gives_the_best_hand_20_and_the_worst_minus_10() -> None:
    hands = [
        ["5S", "6C", "7C", "8C", "9S", "2D", "JH", "KH"],  # straight to the 9 of spades
        ["5C", "6S", "7S", "8S", "9H", "2H", "JC", "KC"],  # straight to the 9 of hearts
        ["AC", "AD", "3H", "4H", "QD", "TD", "2C", "8D"],  # pair of aces
    ]
    rows = R.score_hand(hands, [None, None, None], [[], [], []])
    assert [row["points"]["hand"] for row in rows] == [5, 5, 0]
    assert [row["points"]["best"] for row in rows] == [20, 0, 0]
    assert [row["points"]["worst"] for row in rows] == [0, 0, -10]
    assert [row["total"] for row in rows] == [25, 5, -10]


@pytest.mark.parametrize(
    ("bets", "winner"),
    [
        (["B3", "B17", "B9"], 1),
        (["B3", "R-red-1", "B9"], 1),
        (["R-blue-1", "R-red-1", "B9"], 2),
        (["R-blue-1", "R-red-1", "R-green-2"], None),
        (["R-blue-1", "R-red-1", "B2", "B11"], 3),
    ],
)
def test_it_gives_the_side_bet_to_the_highest_card_with_cancelling_rapscallions(bets: list[str], winner: Any) -> None:
    assert R.side_bet_winner(bets) == winner
    hands = [["2C", "3D", "4H", "5S", "7C", "8D", "9H", "JS"][:5]] * len(bets)
    rows = R.score_hand(hands, bets, [[] for _ in bets])
    assert [row["points"]["side_bet"] for row in rows] == [15 if s == winner else 0 for s in range(len(bets))]


def test_it_pays_5_for_each_rapscallion_never_played() -> None:
    hands = [["2C", "3D", "4H", "5S", "7C"], ["2D", "3H", "4S", "5C", "7D"]]
    rows = R.score_hand(hands, ["B1", "R-blue-1"], [["R-red-1", "R-red-2", "B7"], ["R-blue-2"]])
    assert [row["points"]["rapscallions"] for row in rows] == [10, 5]


def _play_hand_keeping_rapscallions(state: State, spender: int) -> State:
    """One hand: ``spender`` side-bets one Rapscallion and bids the other in the
    first round; everyone else bids numbers only (lowest first)."""
    hand_no = state["hand_no"]
    while state["hand_no"] == hand_no and not R.is_over(state):
        seat = R.to_act(state)[0]
        if state["phase"] == "side_bet":
            state = act(state, seat, "side_bet", raps(state, seat)[0] if seat == spender else numbers(state, seat)[0])
        elif state["phase"] == "bid" and R.PLAN[state["round"]] == "P":
            card = raps(state, seat)[0] if seat == spender and raps(state, seat) else numbers(state, seat)[0]
            state = act(state, seat, "bid", card)
        else:
            state = R.apply(state, seat, R.legal_actions(state, seat)[0])
    return state


def test_it_pays_5_only_for_rapscallions_neither_bid_nor_side_bet_in_a_played_hand() -> None:
    start = deal(3, seed=25)
    state = _play_hand_keeping_rapscallions(start, spender=1)
    rows = state["last_hand"]["seats"]
    assert [row["points"]["rapscallions"] for row in rows] == [10, 0, 10]
    # The side bets are shown once the hand is scored.
    assert rows[1]["side_bet"] == f"Rapscallion ({start['colours'][1]})"
    assert R.view(state, 0)["last_hand"]["seats"][1]["side_bet"] == rows[1]["side_bet"]


def _target_reached_exactly(seed: int) -> tuple[int, list[int]]:
    first = first_legal_until(bet_low(deal(2, seed=seed, target=1000)), lambda s: s["hand_no"] == 1)
    return max(first["scores"]), first["scores"]


def test_it_ends_when_a_total_reaches_the_target_exactly_and_not_below() -> None:
    best, scores = _target_reached_exactly(26)
    assert best >= 10, scores  # the target option starts at 10
    ended = first_legal_until(bet_low(deal(2, seed=26, target=best)), lambda s: s["hand_no"] == 1 or R.is_over(s))
    assert R.is_over(ended) and ended["scores"] == scores
    going = first_legal_until(bet_low(deal(2, seed=26, target=best + 1)), lambda s: s["hand_no"] == 1)
    assert not R.is_over(going) and going["scores"] == scores


def test_it_scores_a_whole_hand_and_ends_at_the_target() -> None:
    state = bet_low(deal(3, seed=19, target=10))
    state = first_legal_until(state, R.is_over)
    rows = R.score_hand(state["hands"], state["side_bet"], state["bidding"])
    assert state["history"] == [[row["total"] for row in rows]]
    assert state["scores"] == state["history"][0] and max(state["scores"]) >= 10
    result = R.outcome(state)
    assert result["places"] == R.places(state) and result["last_hand"]["seats"][0]["total"] == rows[0]["total"]
    assert R.view(state, 0)["outcome"] == result
    assert R.to_act(state) == [] and R.legal_actions(state, 0) == []


def test_it_plays_on_and_passes_each_coloured_set_to_the_next_seat() -> None:
    state = bet_low(deal(4, seed=20))
    colours = state["colours"]
    state = first_legal_until(state, lambda s: s["hand_no"] == 1)
    assert state["colours"] == [colours[3], colours[0], colours[1], colours[2]]
    for seat in range(4):
        assert state["bidding"][seat] == R.colour_set(R.DEFAULT_VALUES, colours[seat - 1])
    assert state["phase"] == "side_bet" and all(len(h) == 1 for h in state["hands"])
    assert sorted(state["bidding_stock"]) == sorted(R.general_deck(R.DEFAULT_VALUES))
    assert R.view(state, None)["last_hand"]["hand_no"] == 0


def test_it_breaks_a_tie_at_the_end_by_the_last_hand_then_the_one_before() -> None:
    base = {"scores": [110, 110, 110, 50], "history": [[50, 60, 70, 0], [60, 50, 40, 50]]}
    assert R.places(base) == [1, 2, 3, 4]
    base = {"scores": [110, 110, 50], "history": [[40, 50, 0], [70, 60, 50]]}
    assert R.places(base) == [1, 2, 3]
    base = {"scores": [110, 110, 50], "history": [[50, 50, 0], [60, 60, 50]]}
    assert R.places(base) == [1, 1, 3]
    base = {"scores": [110, 100, 50], "history": [[0, 50, 0], [110, 50, 50]]}
    assert R.places(base) == [1, 2, 3]
