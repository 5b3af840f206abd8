"""Renfield refuses what the rules do not allow without changing the state (junk and out-of-turn
actions, numbers that are not whole numbers, bad options), and its views and log lines show no hidden card."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import renfield as game
from tests.engine.helpers_renfield import (
    ALL_PASS,
    FOLDS,
    PACK,
    WILD,
    H,
    act,
    all_views_hide,
    locations,
    refused,
    start,
)
from tests.engine.invariants import assert_cards_conserved

# --- views and refusals ---------------------------------------------------------


def test_it_shows_money_pot_order_bugs_and_folds_but_no_hidden_card() -> None:
    state = act(start(FOLDS), *ALL_PASS, "order:TPS", "T17", "T16", "T15", "fold")
    for seat in (None, 0, 1, 2):
        v = game.view(state, seat)
        assert v["money"] == v["scores"] == state["money"] and v["pot"] == state["pot"]
        assert v["order"] == ["T", "P", "S"] and v["bugs"] == [11, 0, 0] and v["in"] == [False, True, True]
        json.dumps(v)
    assert "hand" not in game.view(state, None)
    assert game.view(state, 1)["hand"] == state["hands"][1]
    all_views_hide(state)


def test_it_refuses_junk_and_out_of_turn_actions_without_change() -> None:
    state = start(H)
    refused(state, {"type": "bid", "amount": 2}, "not your turn", seat=0)
    junks = (
        {},
        {"type": "nonsense"},
        {"type": "play", "card": "T16"},
        {"type": "bid"},
        {"type": "bid", "amount": "2"},
        {"type": "bid", "amount": 2.5},
        {"type": "bid", "amount": 2, "extra": 1},
        None,
        "bid",
    )
    for junk in junks:
        refused(state, junk)
    state = act(state, "bid:2", "pass", "pass", "order:TPS")
    refused(state, "T5", "do not hold")
    refused(state, "T99", "do not hold")


def number_steps() -> list[tuple[str, dict, dict]]:
    """Every Renfield action that carries a number, each in a state where it
    is legal as given: (name, state, action)."""
    wild = act(start(WILD, wild_cards=True, wilds=["T1"]), *ALL_PASS, "order:SPT", "P9")
    return [
        ("bid", start(H), {"type": "bid", "amount": 1}),
        ("blaze bid", start(H, blaze=True), {"type": "bid", "amount": 1}),
        ("auction bid", start(H, extra=PACK, auction=True), {"type": "bid", "amount": 1}),
        ("wild play", wild, {"type": "play", "card": "T1", "suit": "P", "rank": 1}),
    ]


@pytest.mark.parametrize("odd", [True, 1.0, "1", [1], None], ids=repr)
def test_it_refuses_numbers_that_are_not_whole_numbers_without_change(odd: Any) -> None:
    for name, state, action in number_steps():
        seat = game.to_act(state)[0]
        key = "rank" if "rank" in action else "amount"
        assert action in game.legal_actions(state, seat), name  # the whole number is legal
        refused(state, {**action, key: odd}, "whole number")


def test_it_refuses_a_bid_of_true_even_where_one_is_the_only_bid() -> None:
    state = start(H, stake=1)
    assert [a for a in game.legal_actions(state, 1) if a["type"] == "bid"] == [{"type": "bid", "amount": 1}]
    refused(state, {"type": "bid", "amount": True}, "whole number of dollars from 1 to 1")
    assert game.apply(state, 1, {"type": "bid", "amount": 1})["bidding"]["high"] == 1


def test_it_never_logs_a_number_that_is_not_a_whole_number() -> None:
    for name, state, action in number_steps():
        seat = game.to_act(state)[0]
        key = "rank" if "rank" in action else "amount"
        assert "1" in game.describe(state, seat, action), name
        for odd in (True, 1.0, 2.5):
            text = game.describe(state, seat, {**action, key: odd})
            assert str(odd) not in text and "True" not in text, (name, text)


@pytest.mark.parametrize(
    ("players", "options", "fragment"),
    [
        (3, {"stake": 0}, "between"),
        (3, {"hands": -1}, "between"),
        (3, {"auction": "yes"}, "true or false"),
        (9, {}, "3 to 8 players"),
        (2, {}, "3 to 8 players"),
        (8, {"auction": True}, "at most 7"),
        (8, {"stud": True}, "at most 7"),
        (7, {"breathing_room": True}, "at most 6"),
        (4, {"stud": True, "breathing_room": True}, "cannot be played together"),
        (4, {"stud": True, "draw": True}, "cannot be played together"),
        (4, {"death_all_suits": True}, "needs the The Death Card"),
        (4, {"flatline_zeroes": True}, "needs the Flatline"),
        (4, {"death_card": True, "death_cards": []}, "at least one Death"),
        (4, {"wild_cards": True, "wilds": []}, "at least one wild"),
        (4, {"wild_cards": True, "death_card": True, "wilds": ["S7"]}, "both Death and wild"),
        (4, {"death_card": True, "death_cards": ["S0"]}, "not a card"),
        (7, {"stud": True, "auction": True}, "need 56 cards"),
        (6, {"breathing_room": True, "auction": True}, "need 55 cards"),
        (6, {"breathing_room": True, "auction": True, "flatline": True, "flatline_zeroes": True}, "has only 54"),
        (3, {"deck": game.PLAYING_CARDS[:-1]}, "deck"),
        (3, {"flatline": True, "flatline_zeroes": True, "deck": game.PLAYING_CARDS}, "missing P0"),
    ],
)
def test_it_refuses_bad_options_with_a_sentence(players: int, options: dict, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        game.new_match(players, options, seed=1)


def test_it_accepts_the_feasible_limits() -> None:
    for players, options in [
        (7, {"stud": True}),
        (6, {"stud": True, "auction": True}),
        (6, {"breathing_room": True}),
        (5, {"breathing_room": True, "auction": True}),
        (7, {"auction": True}),
        (8, {}),
    ]:
        state = game.new_match(players, options, seed=1)
        assert_cards_conserved(state, game.FULL_DECK, locations)


def test_it_describes_without_revealing() -> None:
    state = start(H, draw=True)
    assert game.describe(state, 1, {"type": "bet"}) == "bet $5"
    state = act(state, "check", "check", "check")
    assert game.describe(state, 1, {"type": "discard", "card": "T16"}) == "discarded a card"
    state = act(state, "draw", "draw", "draw", "bid:2", "pass", "pass")
    assert game.describe(state, 1, {"type": "order", "suits": ["S", "T", "P"]}).startswith("ordered the suits Stones")
    state = act(state, "order:TPS")
    assert game.describe(state, 1, {"type": "play", "card": "T4"}) == "played Tools 4"
