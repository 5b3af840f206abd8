"""Rentz: one scenario per rule of the digest, on stacked decks."""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import IllegalAction, get_game, rentz
from engine.cards import french_deck
from tests.engine.invariants import assert_view_hides

DECK = french_deck()
ROOT = Path(__file__).resolve().parents[2]
CLUBS, DIAMONDS, HEARTS, SPADES = ([r + s for r in "23456789TJQKA"] for s in "CDHS")


def stacked(hands: list[list[str]], dealer: int = 0) -> list[str]:
    """The deck that deals ``hands[seat]`` to each seat: one card at a time from the dealer's left."""
    assert sorted(c for h in hands for c in h) == sorted(DECK)
    deck = []
    for k in range(13):
        for j in range(4):
            deck.append(hands[(dealer + 1 + j) % 4][k])
    return deck


def start(hands: list[list[str]], game: str, **options: Any) -> dict:
    state = rentz.new_match(4, {"deck": stacked(hands), **options}, seed=1)
    return rentz.apply(state, 0, {"type": "choose", "game": game})


def play(state: dict, seat: int, card: str) -> dict:
    return rentz.apply(state, seat, {"type": "play", "card": card})


def play_trick(state: dict, cards: list[str]) -> dict:
    """Play one trick: ``cards`` in play order from the seat to act."""
    for card in cards:
        state = play(state, rentz.to_act(state)[0], card)
    return state


def hidden_hands(state: dict, seat: int | None) -> set[str]:
    return {c for s, h in enumerate(state["hands"]) if s != seat for c in h}


MAX_HAND_STEPS = 1000  # far more than any hand needs: 52 plays and a few hundred passes at most

# The simplest table: each seat holds one whole suit, so nobody can ever follow.
BY_SUIT = [CLUBS, DIAMONDS, HEARTS, SPADES]


# --- the table -----------------------------------------------------------------------------


def test_it_seats_exactly_four_players() -> None:
    for players in (2, 3, 5):
        with pytest.raises(ValueError, match="exactly 4 players"):
            rentz.new_match(players, None, seed=1)
    assert rentz.MIN_PLAYERS == rentz.MAX_PLAYERS == 4


def test_it_deals_a_stacked_deck_one_card_at_a_time_from_the_dealers_left() -> None:
    deck = list(DECK)
    state = rentz.new_match(4, {"deck": deck}, seed=1)
    # Seat 0 deals the first hand: the top card goes to seat 1, the fourth to seat 0.
    assert set(state["hands"][1]) == set(deck[0::4])
    assert set(state["hands"][2]) == set(deck[1::4])
    assert set(state["hands"][3]) == set(deck[2::4])
    assert set(state["hands"][0]) == set(deck[3::4])
    assert all(len(h) == 13 for h in state["hands"])


def test_it_lets_the_dealer_choose_after_seeing_the_cards() -> None:
    state = rentz.new_match(4, {"deck": stacked(BY_SUIT)}, seed=1)
    assert state["phase"] == "choose"
    assert rentz.to_act(state) == [0]
    assert rentz.view(state, 0)["hand"] == CLUBS
    assert rentz.legal_actions(state, 0) == [{"type": "choose", "game": g} for g in rentz.MINI_GAMES]
    assert all(rentz.legal_actions(state, s) == [] for s in (1, 2, 3))


def test_it_lets_each_dealer_choose_each_mini_game_once_then_passes_the_deal() -> None:
    state = rentz.new_match(4, None, seed=3)
    rng = random.Random(3)
    chosen: list[str] = []
    while state["hand_no"] < 5:
        assert state["dealer"] == 0
        legal = rentz.legal_actions(state, 0)
        assert {a["game"] for a in legal} == set(rentz.MINI_GAMES) - set(chosen)
        chosen.append(legal[0]["game"])
        state = rentz.apply(state, 0, legal[0])
        state = _finish_hand(state, rng)
    assert sorted(chosen) == sorted(rentz.MINI_GAMES)
    assert state["dealer"] == 1 and rentz.to_act(state) == [1]
    assert len(rentz.legal_actions(state, 1)) == 5


def test_it_refuses_a_mini_game_the_dealer_has_already_dealt() -> None:
    state = rentz.new_match(4, {"deck": stacked(BY_SUIT)}, seed=1)
    state = rentz.apply(state, 0, {"type": "choose", "game": "acool"})
    state = _finish_hand(state, random.Random(0))
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction, match="already dealt Acool"):
        rentz.apply(state, 0, {"type": "choose", "game": "acool"})
    with pytest.raises(IllegalAction, match="no mini-game"):
        rentz.apply(state, 0, {"type": "choose", "game": "hearts"})
    assert state == before


def _finish_hand(state: dict, rng: random.Random) -> dict:
    hand = state["hand_no"]
    for _ in range(MAX_HAND_STEPS):
        if rentz.is_over(state) or state["hand_no"] != hand:
            return state
        seat = rentz.to_act(state)[0]
        state = rentz.apply(state, seat, rng.choice(rentz.legal_actions(state, seat)))
    raise AssertionError("the hand never ended")


def test_it_plays_twenty_hands_four_dealers_by_five_mini_games() -> None:
    state = rentz.new_match(4, None, seed=11)
    state = _finish_match(state, random.Random(11))
    history = state["history"]
    assert len(history) == 20
    for dealer in range(4):
        mine = history[dealer * 5 : dealer * 5 + 5]
        assert all(h["dealer"] == dealer for h in mine)
        assert sorted(h["game"] for h in mine) == sorted(rentz.MINI_GAMES)
    assert rentz.is_over(state) and rentz.to_act(state) == []
    totals = [sum(h["points"][s] for h in history) for s in range(4)]
    result = rentz.outcome(state)
    assert result["scores"] == totals
    best = max(totals)
    assert [p == 1 for p in result["places"]] == [t == best for t in totals]


def _finish_match(state: dict, rng: random.Random) -> dict:
    for _ in range(20):
        state = _finish_hand(state, rng)
    assert rentz.is_over(state)
    return state


def test_it_gives_tied_totals_a_shared_place() -> None:
    state = rentz.new_match(4, None, seed=2)
    state = _finish_match(state, random.Random(2))
    state = {**state, "scores": [10, 50, 10, -5]}
    assert rentz.outcome(state)["places"] == [2, 1, 2, 4]


def test_it_shuffles_later_hands_from_the_seed() -> None:
    a = _finish_hand(start(BY_SUIT, "acool"), random.Random(1))
    b = _finish_hand(start(BY_SUIT, "acool"), random.Random(2))
    assert a["hands"] == b["hands"]  # the same seed deals the same second hand
    assert a["hands"] != [sorted(h, key=DECK.index) for h in BY_SUIT]


def test_it_deals_the_same_match_from_the_same_seed_in_another_process() -> None:
    """Stored matches replay from their seed: nothing may depend on Python's per-process string hashing."""
    script = (
        "import json\nfrom engine import rentz\n"
        "s = rentz.new_match(4, None, seed=7)\n"
        "while s['hand_no'] < 2:\n"
        "    seat = rentz.to_act(s)[0]\n"
        "    s = rentz.apply(s, seat, rentz.legal_actions(s, seat)[0])\n"
        "print(json.dumps(s))\n"
    )
    here = rentz.new_match(4, None, seed=7)
    while here["hand_no"] < 2:
        seat = rentz.to_act(here)[0]
        here = rentz.apply(here, seat, rentz.legal_actions(here, seat)[0])
    for hash_seed in ("1", "2"):
        done = subprocess.run(
            [sys.executable, "-c", script],
            cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        assert json.loads(done.stdout) == here


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
    state = _finish_hand(state, random.Random(5))
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
    state = _finish_hand(state, random.Random(0))
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
    state = _finish_hand(state, random.Random(0))
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


def at_hand(hand_no: int, hands: list[list[str]], seed: int = 1) -> dict:
    """The state as hand ``hand_no`` is dealt (random play before it), with ``hands`` put in place of its deal.

    Only the first hand can be stacked, so a later dealer's table is set up by replacing the dealt cards.
    """
    assert sorted(c for h in hands for c in h) == sorted(DECK)
    state = rentz.new_match(4, None, seed=seed)
    rng = random.Random(seed)
    for _ in range(hand_no):
        state = _finish_hand(state, rng)
    assert state["hand_no"] == hand_no and state["phase"] == "choose"
    return {**state, "hands": [sorted(h, key=DECK.index) for h in hands]}


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


# --- the rentz layout game ------------------------------------------------------------------


def layout_table() -> list[list[str]]:
    return [
        ["JC", "TC", "9C", "QC", "2C", "3D", "4D", "5D", "6D", "7D", "2H", "3H", "4H"],
        ["JD", "TD", "QD", "KD", "AD", "8D", "9D", "2D", "5H", "6H", "7H", "8H", "9H"],
        ["JH", "JS", "TH", "QH", "KH", "AH", "2S", "3S", "4S", "5S", "6S", "7S", "8S"],
        ["KC", "AC", "8C", "7C", "6C", "5C", "4C", "3C", "9S", "TS", "QS", "KS", "AS"],
    ]


def test_it_lets_only_jacks_open_a_row_and_the_dealer_plays_first() -> None:
    state = start(layout_table(), "rentz")
    assert rentz.to_act(state) == [0]
    assert rentz.legal_actions(state, 0) == [{"type": "play", "card": "JC"}]
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction, match="does not fit the layout"):
        play(state, 0, "TC")
    assert state == before


def test_it_grows_a_row_one_rank_at_a_time_at_either_end() -> None:
    state = play(start(layout_table(), "rentz"), 0, "JC")
    assert {a["card"] for a in rentz.legal_actions(state, 1)} == {"JD"}
    state = play(state, 1, "JD")
    assert {a["card"] for a in rentz.legal_actions(state, 2)} == {"JH", "JS"}
    state = play(state, 2, "JS")
    # Seat 3 holds KC but not QC: only the spade next to the Jack fits.
    assert {a["card"] for a in rentz.legal_actions(state, 3)} == {"TS", "QS"}
    state = play(state, 3, "QS")
    assert {a["card"] for a in rentz.legal_actions(state, 0)} == {"TC", "QC"}
    state = play(state, 0, "QC")
    assert rentz.view(state, None)["layout"]["C"] == {"low": "JC", "high": "QC"}
    assert {a["card"] for a in rentz.legal_actions(state, 1)} == {"TD", "QD"}


def test_it_allows_a_pass_only_without_a_playable_card() -> None:
    state = play(start(layout_table(), "rentz"), 0, "JC")
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction, match="pass only when you cannot play"):
        rentz.apply(state, 1, {"type": "pass"})
    assert state == before
    state = play(play(state, 1, "JD"), 2, "JH")
    # Seat 3: no Jack, no TC/QC, no TD/QD, no TH/QH: it must pass.
    assert rentz.legal_actions(state, 3) == [{"type": "pass"}]
    state = rentz.apply(state, 3, {"type": "pass"})
    assert rentz.to_act(state) == [0]
    assert state["lacks"][3] == {"C": "TQ", "D": "TQ", "H": "TQ", "S": "J"}


def test_it_grows_rows_up_to_the_ace_and_down_to_the_two_without_wrapping() -> None:
    two, ten, jack, king, ace = (rentz.RANK_INDEX[r] for r in "2TJKA")
    rows: dict[str, list[int] | None] = {"C": [jack, king], "D": [two, jack], "H": [ten, ace], "S": None}
    assert rentz.layout_playable(rows, "AC") and rentz.layout_playable(rows, "TC")
    assert not rentz.layout_playable(rows, "9C"), "one rank at a time"
    assert rentz.layout_playable(rows, "QD") and not rentz.layout_playable(rows, "AD"), "no wrap below the 2"
    assert rentz.layout_playable(rows, "9H") and not rentz.layout_playable(rows, "2H"), "no wrap above the ace"
    assert rentz.layout_playable(rows, "JS") and not rentz.layout_playable(rows, "TS")
    assert rentz.layout_ends(rows) == {"C": "TA", "D": "Q", "H": "9", "S": "J"}


def test_it_has_a_later_dealer_play_first_in_the_layout_game() -> None:
    table = layout_table()
    first, _, _ = _play_layout_hand(start(table, "rentz"))
    # The same table turned one seat on, dealt by seat 1: the same game, every seat one on.
    state = at_hand(5, [table[(s - 1) % 4] for s in range(4)])
    state = rentz.apply(state, 1, {"type": "choose", "game": "rentz"})
    assert rentz.to_act(state) == [1], "the dealer plays first"
    assert rentz.legal_actions(state, 1) == [{"type": "play", "card": "JC"}]
    state = play(state, 1, "JC")
    assert rentz.to_act(state) == [2]
    state, _, _ = _play_layout_hand(state)
    record, original = state["history"][-1], first["history"][-1]
    assert record["order"] == [(s + 1) % 4 for s in original["order"]]
    assert record["points"] == [original["points"][(s - 1) % 4] for s in range(4)]


def test_it_refuses_a_pass_in_a_trick_game() -> None:
    state = start(BY_SUIT, "acool")
    with pytest.raises(IllegalAction, match="cannot pass"):
        rentz.apply(state, 0, {"type": "pass"})


def _play_layout_hand(state: dict) -> tuple[dict, list[int], list[list[int]]]:
    """Play the first legal card each turn; returns the state, the order seats emptied and who acted."""
    order: list[int] = []
    actors: list[list[int]] = []
    hand = state["hand_no"]
    for _ in range(MAX_HAND_STEPS):
        if state["hand_no"] != hand:
            break
        seat = rentz.to_act(state)[0]
        actors.append([seat, *order])
        state = rentz.apply(state, seat, rentz.legal_actions(state, seat)[0])
        if state["hand_no"] == hand and not state["hands"][seat] and seat not in order:
            order.append(seat)
    else:
        raise AssertionError("the layout hand never ended")
    return state, order, actors


def test_it_skips_a_player_who_is_out_and_pays_200_150_100_50() -> None:
    state, order, actors = _play_layout_hand(start(layout_table(), "rentz"))
    for seat, *out in actors:
        assert seat not in out, "a seat that is out is never asked to act again"
    record = state["history"][-1]
    assert record["game"] == "rentz"
    assert len(order) == 2  # the third seat out ends the hand before this loop sees it
    assert record["order"][:2] == order
    assert sorted(record["order"]) == [0, 1, 2, 3]
    bonuses = dict(zip(record["order"], [200, 150, 100, 50], strict=True))
    assert record["points"] == [bonuses[s] for s in range(4)]


def test_it_ends_rentz_when_three_are_out_with_the_fourth_last() -> None:
    state = start(layout_table(), "rentz")
    hand = 0
    for _ in range(MAX_HAND_STEPS):
        seat = rentz.to_act(state)[0]
        nxt = rentz.apply(state, seat, rentz.legal_actions(state, seat)[0])
        if nxt["hand_no"] != hand:
            break
        state = nxt
    else:
        raise AssertionError("the layout hand never ended")
    assert len(state["hands"][seat]) == 1, "the hand ends as the third seat plays its last card"
    assert len(state["out"]) == 2
    last = [s for s in range(4) if s not in state["out"] and s != seat]
    assert len(last) == 1 and state["hands"][last[0]], "the fourth still holds cards"
    assert nxt["history"][-1]["order"] == [*state["out"], seat, last[0]]
    assert nxt["history"][-1]["points"][last[0]] == 50


# --- options ---------------------------------------------------------------------------------


def test_it_applies_overridden_point_values() -> None:
    state = start(BY_SUIT, "acool", points={"acool": -7})
    state = _finish_hand(state, random.Random(0))
    assert state["history"][-1]["points"] == [-91, 0, 0, 0]
    state = start(layout_table(), "rentz", points={"rentz": [400, 300, 200, 100]})
    state, _, _ = _play_layout_hand(state)
    assert sorted(state["history"][-1]["points"]) == [100, 200, 300, 400]
    state = start(BY_SUIT, "king_of_hearts", points={"king_of_hearts": -100})
    state = play_trick(state, ["2C", "2D", "KH", "2S"])
    assert state["history"][-1]["points"] == [-100, 0, 0, 0]


def test_it_fills_in_default_options() -> None:
    options = rentz.validate_options(4, None)
    assert options == {"points": rentz.DEFAULT_POINTS, "end_when_decided": True}
    options = rentz.validate_options(4, {"points": {"queens": -40}})
    assert options["points"] == {**rentz.DEFAULT_POINTS, "queens": -40}
    assert rentz.DEFAULT_POINTS["queens"] == -25, "the defaults are never changed"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"points": [1, 2]}, "must be a dictionary"),
        ({"points": {"hearts": -5}}, "not a mini-game"),
        ({"points": {"acool": 10}}, "Acool penalty must be a whole number from"),
        ({"points": {"queens": True}}, "Queens penalty must be a whole number"),
        ({"points": {"diamonds": -1.5}}, "Diamonds penalty must be a whole number"),
        ({"points": {"king_of_hearts": -(10**6)}}, "King of Hearts penalty"),
        ({"points": {"rentz": [200, 150, 100]}}, "list of four whole numbers"),
        ({"points": {"rentz": [100, 150, 100, 50]}}, "must not grow"),
        ({"points": {"rentz": [200, 150, 100, -50]}}, "from 0 to"),
        ({"end_when_decided": "yes"}, "true or false"),
        ({"trumps": "H"}, "Unknown option 'trumps'"),
        ({"deck": DECK[:51]}, "not a complete 52-card deck"),
        ({"deck": DECK[:51] + ["2C"]}, "repeated 2C"),
    ],
)
def test_it_refuses_bad_options_with_a_clear_message(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        rentz.new_match(4, options, seed=1)


# --- illegal actions ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "action", "message"),
    [
        (1, {"type": "play", "card": "2C"}, "not your turn"),
        (0, {"type": "play", "card": "2D"}, "do not hold"),
        (0, {"type": "choose", "game": "rentz"}, "already been chosen"),
        (0, {"type": "play", "card": "2C", "extra": 1}, "exactly the fields"),
        (0, {"type": "bid", "amount": 3}, "not a Rentz action"),
        (0, "2C", "not a Rentz action"),
        (0, None, "not a Rentz action"),
    ],
)
def test_it_refuses_illegal_actions_and_changes_nothing(seat: int, action: Any, message: str) -> None:
    state = start(BY_SUIT, "acool")
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction, match=message):
        rentz.apply(state, seat, action)
    assert state == before


def test_it_refuses_a_play_before_the_mini_game_is_chosen() -> None:
    state = rentz.new_match(4, {"deck": stacked(BY_SUIT)}, seed=1)
    with pytest.raises(IllegalAction, match="first choose"):
        play(state, 0, "2C")


def test_it_refuses_everything_once_the_match_is_over() -> None:
    state = _finish_match(rentz.new_match(4, None, seed=4), random.Random(4))
    assert all(rentz.legal_actions(state, s) == [] for s in range(4))
    with pytest.raises(IllegalAction, match="match is over"):
        rentz.apply(state, 0, {"type": "pass"})
    with pytest.raises(ValueError, match="not over"):
        rentz.outcome(rentz.new_match(4, None, seed=4))


# --- views ----------------------------------------------------------------------------------------


def test_it_shows_a_seat_its_own_hand_and_no_one_elses() -> None:
    state = play_trick(start(BY_SUIT, "acool"), ["2C", "2D", "2H"])
    for seat in (None, 0, 1, 2, 3):
        assert_view_hides(rentz, state, seat, hidden_hands)
    seated = rentz.view(state, 1)
    assert seated["hand"] == DIAMONDS[1:]
    assert seated["hand_sizes"] == [12, 12, 12, 13]
    assert "hand" not in rentz.view(state, None)


def test_it_shows_played_tricks_by_card_and_the_table_state() -> None:
    state = start(BY_SUIT, "queens")
    state = play_trick(state, ["2C", "QD", "2H", "2S"])
    state = play(state, 0, "3C")
    view = rentz.view(state, 2)
    assert view["tricks"] == [{"leader": 0, "winner": 0, "cards": ["2C", "QD", "2H", "2S"]}]
    assert view["trick"] == [{"seat": 0, "card": "3C"}]
    assert view["tricks_taken"] == [1, 0, 0, 0]
    assert view["penalties"] == [["QD"], [], [], []]
    assert view["lacks"][1] == {"C": "23456789TJQKA"}, "failing to follow shows a void"
    assert view["game"] == "queens" and view["dealer"] == 0
    assert view["remaining"] == ["acool", "diamonds", "king_of_hearts", "rentz"]
    assert view["turn"] == 1 and view["to_act"] == [1]
    json.dumps(view)


def test_it_shows_the_layout_and_who_is_out() -> None:
    state, _, _ = _play_layout_hand(start(layout_table(), "rentz"))
    # The next hand is dealt at once; the finished layout hand lives on in the history.
    assert rentz.view(state, None)["history"][-1]["game"] == "rentz"
    state = start(layout_table(), "rentz")
    for card in ("JC", "JD", "JS"):
        state = play(state, rentz.to_act(state)[0], card)
    view = rentz.view(state, 0)
    assert view["layout"] == {
        "C": {"low": "JC", "high": "JC"},
        "D": {"low": "JD", "high": "JD"},
        "H": None,
        "S": {"low": "JS", "high": "JS"},
    }
    assert view["out"] == []


def test_it_keeps_views_apart_from_the_state() -> None:
    state = play_trick(start(BY_SUIT, "acool"), ["2C", "2D", "2H", "2S"])
    before = copy.deepcopy(state)
    view = rentz.view(state, 0)
    view["hand"].clear()
    view["tricks"][0]["cards"].clear()
    view["options"]["points"]["rentz"].clear()
    assert state == before


def test_it_refuses_a_view_for_a_seat_not_at_the_table() -> None:
    with pytest.raises(ValueError, match="no seat 4"):
        rentz.view(rentz.new_match(4, None, seed=1), 4)


def test_it_describes_actions_without_revealing_anything() -> None:
    state = rentz.new_match(4, {"deck": stacked(BY_SUIT)}, seed=1)
    assert rentz.describe(state, 0, {"type": "choose", "game": "king_of_hearts"}) == "chose King of Hearts"
    assert rentz.describe(state, 0, {"type": "play", "card": "TH"}) == "played 10♥"
    assert rentz.describe(state, 0, {"type": "pass"}) == "passed"
    assert rentz.card_label("KH") == "K♥"


def test_it_counts_hands_for_the_bots() -> None:
    state = start(BY_SUIT, "queens")
    assert rentz.hand_index(state) == 0
    state = play_trick(state, ["QC", "QD", "QH", "QS"])
    assert rentz.hand_index(state) == 1


def test_it_registers_with_the_engine() -> None:
    assert get_game("rentz") is rentz
