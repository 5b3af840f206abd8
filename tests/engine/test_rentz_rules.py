"""Rentz's table, one scenario per rule of the digest on stacked decks: four seats, the deal, each dealer
choosing each mini-game once, the twenty hands and the places; then options, refused actions and views."""

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
from tests.engine.helpers_rentz import (
    BY_SUIT,
    CLUBS,
    DECK,
    DIAMONDS,
    finish_hand,
    finish_match,
    hidden,
    layout_table,
    play,
    play_layout_hand,
    play_trick,
    stacked,
    start,
)
from tests.engine.invariants import assert_view_hides

ROOT = Path(__file__).resolve().parents[2]


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
        state = finish_hand(state, rng)
    assert sorted(chosen) == sorted(rentz.MINI_GAMES)
    assert state["dealer"] == 1 and rentz.to_act(state) == [1]
    assert len(rentz.legal_actions(state, 1)) == 5


def test_it_refuses_a_mini_game_the_dealer_has_already_dealt() -> None:
    state = rentz.new_match(4, {"deck": stacked(BY_SUIT)}, seed=1)
    state = rentz.apply(state, 0, {"type": "choose", "game": "acool"})
    state = finish_hand(state, random.Random(0))
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction, match="already dealt Acool"):
        rentz.apply(state, 0, {"type": "choose", "game": "acool"})
    with pytest.raises(IllegalAction, match="no mini-game"):
        rentz.apply(state, 0, {"type": "choose", "game": "hearts"})
    assert state == before


def test_it_plays_twenty_hands_four_dealers_by_five_mini_games() -> None:
    state = rentz.new_match(4, None, seed=11)
    state = finish_match(state, random.Random(11))
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


def test_it_gives_tied_totals_a_shared_place() -> None:
    state = rentz.new_match(4, None, seed=2)
    state = finish_match(state, random.Random(2))
    state = {**state, "scores": [10, 50, 10, -5]}
    assert rentz.outcome(state)["places"] == [2, 1, 2, 4]


def test_it_shuffles_later_hands_from_the_seed() -> None:
    a = finish_hand(start(BY_SUIT, "acool"), random.Random(1))
    b = finish_hand(start(BY_SUIT, "acool"), random.Random(2))
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


# --- options ---------------------------------------------------------------------------------


def test_it_applies_overridden_point_values() -> None:
    state = start(BY_SUIT, "acool", points={"acool": -7})
    state = finish_hand(state, random.Random(0))
    assert state["history"][-1]["points"] == [-91, 0, 0, 0]
    state = start(layout_table(), "rentz", points={"rentz": [400, 300, 200, 100]})
    state, _, _ = play_layout_hand(state)
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
    state = finish_match(rentz.new_match(4, None, seed=4), random.Random(4))
    assert all(rentz.legal_actions(state, s) == [] for s in range(4))
    with pytest.raises(IllegalAction, match="match is over"):
        rentz.apply(state, 0, {"type": "pass"})
    with pytest.raises(ValueError, match="not over"):
        rentz.outcome(rentz.new_match(4, None, seed=4))


# --- views ----------------------------------------------------------------------------------------


def test_it_shows_a_seat_its_own_hand_and_no_one_elses() -> None:
    state = play_trick(start(BY_SUIT, "acool"), ["2C", "2D", "2H"])
    for seat in (None, 0, 1, 2, 3):
        assert_view_hides(rentz, state, seat, hidden)
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
    state, _, _ = play_layout_hand(start(layout_table(), "rentz"))
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
