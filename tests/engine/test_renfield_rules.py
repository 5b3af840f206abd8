"""Renfield's base game, one scenario per rule of the digest on stacked decks: the deck and its values,
the deal and the stakes, bidding, tricks, folding and the pot."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine import renfield as game
from tests.engine.helpers_renfield import (
    ALL_PASS,
    FEWEST,
    FEWEST_PLAY,
    FOLDS,
    TIE,
    TIE_PLAY,
    UNIFORM,
    H,
    act,
    cards_of,
    first_legal_until,
    refused,
    start,
)
from tests.engine.invariants import strings_in

# --- the deck -----------------------------------------------------------------


def test_it_uses_the_digest_table_for_every_suit() -> None:
    bugs = [1, 0, 1, 2, 0, 3, 1, 2, 4, 0, 5, 0, 3, 6, 2, 4, 5]
    dollars = [1, 0, 0, 1, 2, 1, 2, 3, 2, 4, 3, 0, 4, 2, 5, 4, 5]
    table = game.table_from(None)
    for suit in "TPS":
        assert [game.bugs_of(table, f"{suit}{r}") for r in range(1, 18)] == bugs
        assert [game.dollars_of(table, f"{suit}{r}") for r in range(1, 18)] == dollars
    assert len(game.PLAYING_CARDS) == 51 and "S0" not in game.PLAYING_CARDS


def test_it_labels_cards_by_suit_name() -> None:
    assert game.card_label("T12") == "Tools 12"
    assert game.card_label("S0") == "Stones 0"
    assert game.label_code("Parts 3") == "P3"


def test_it_loads_a_clubs_own_values() -> None:
    state = start(H, deck_values=UNIFORM)
    assert game.bugs_of(state["table"], "T14") == 1
    per_suit = {s: {"bugs": [s == "T"] * 17, "dollars": [3] * 17} for s in "TPS"}
    per_suit = {s: {"bugs": [int(b) for b in row["bugs"]], "dollars": row["dollars"]} for s, row in per_suit.items()}
    table = game.validate_options(3, {"deck_values": per_suit})["deck_values"]
    assert game.bugs_of(game.table_from(table), "T5") == 1
    assert game.bugs_of(game.table_from(table), "P5") == 0


@pytest.mark.parametrize(
    ("values", "fragment"),
    [
        ({"bugs": [1] * 16, "dollars": [1] * 17}, "each rank 1 to 17"),
        ({"bugs": [1] * 17}, "exactly two lists"),
        ({"bugs": [-1] * 17, "dollars": [1] * 17}, "whole numbers from 0"),
        ({"bugs": ["1"] * 17, "dollars": [1] * 17}, "whole numbers"),
        ({"T": UNIFORM, "P": UNIFORM, "S": {"bugs": [1] * 17}}, "for Stones"),
        ([1, 2, 3], "exactly two lists"),
    ],
)
def test_it_refuses_a_bad_value_table(values: Any, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        game.new_match(3, {"deck_values": values}, seed=1)


def test_it_pays_for_the_trick_with_the_loaded_values() -> None:
    state = act(
        start(FEWEST, deck_values={"bugs": [1] * 17, "dollars": [7] * 17}), *ALL_PASS, "order:TPS", "T17", "T1", "T5"
    )
    assert state["money"][0] == 100 - 5 - 21


# --- the deal, stakes and the match -------------------------------------------


def test_it_deals_six_each_one_at_a_time_from_the_seat_after_the_dealer() -> None:
    deck = list(game.PLAYING_CARDS)  # T1..T17, P1..P17, S1..S17
    state = game.new_match(3, {"deck": deck}, seed=1)
    assert state["hands"][1] == ["T1", "T4", "T7", "T10", "T13", "T16"]
    assert state["hands"][2] == ["T2", "T5", "T8", "T11", "T14", "T17"]
    assert state["hands"][0] == ["T3", "T6", "T9", "T12", "T15", "P1"]
    assert state["keys"] == ["T0", "P0", "S0"] and len(state["deck"]) == 51 - 18


def test_it_starts_every_seat_with_the_stake_and_plays_the_set_number_of_hands() -> None:
    state = game.new_match(4, {"stake": 250}, seed=3)
    assert game.view(state, None)["scores"] == [250] * 4
    assert state["hands_total"] == 4  # one deal per player by default
    state = game.new_match(3, {"hands": 2}, seed=3)
    state = first_legal_until(state, lambda s: s["hand_no"] == 1)
    assert state["dealer"] == 1 and game.hand_index(state) == 1
    assert game.to_act(state) == [2]  # the bidding starts after the new dealer
    state = first_legal_until(state, game.is_over)
    assert len(state["history"]) == 2


def test_it_scores_money_minus_the_stake_and_places_by_money() -> None:
    state = act(start(FEWEST), *ALL_PASS, *FEWEST_PLAY)
    assert game.is_over(state)
    result = game.outcome(state)
    assert result["money"] == [66, 134, 100]
    assert result["scores"] == [-34, 34, 0]
    assert result["places"] == [3, 1, 2]
    assert result["hands"][0]["winners"] == [1]


def test_it_allows_debts_and_shows_them() -> None:
    state = act(start(FEWEST, stake=10), *ALL_PASS, "order:TPS", "T17", "T1", "T5")
    assert state["money"][0] == 10 - 5 - 8
    assert game.view(state, 2)["scores"][0] == -3


# --- bidding ------------------------------------------------------------------


def test_it_bids_once_around_from_the_seat_after_the_dealer() -> None:
    state = start(H)
    assert game.to_act(state) == [1]
    state = act(state, "bid:3")
    assert game.to_act(state) == [2]
    refused(state, "bid:3", "from 4 to 100")
    refused(state, "bid:101", "from 4 to 100")
    state = act(state, "bid:4", "pass")
    assert state["phase"] == "order" and state["bidder"] == 2 and game.to_act(state) == [2]
    assert state["pot"] == 4 and state["money"] == [100, 100, 96]


def test_it_limits_a_bid_to_the_money_held() -> None:
    state = start(H, stake=3)
    bids = [a["amount"] for a in game.legal_actions(state, 1) if a["type"] == "bid"]
    assert bids == [1, 2, 3]


def test_it_gives_the_dealer_the_lead_for_five_when_nobody_bids() -> None:
    state = act(start(H), *ALL_PASS)
    assert state["bidder"] == 0 and state["pot"] == 5 and state["money"][0] == 95
    assert game.to_act(state) == [0]


def test_it_makes_the_dealer_pay_five_for_an_unbid_lead_even_into_debt() -> None:
    state = act(start(H, stake=3), *ALL_PASS)
    assert state["bidder"] == 0 and state["money"] == [-2, 3, 3] and state["pot"] == 5
    assert game.view(state, 1)["scores"][0] == -2


def test_it_gives_an_unbid_lead_to_the_last_seat_in_before_a_folded_dealer() -> None:
    state = act(start(H, draw=True), "check", "check", "fold", "draw", "draw")
    assert state["bidding"]["seq"] == [1, 2]  # the dealer folded in the betting
    state = act(state, "pass", "pass")
    assert state["bidder"] == 2 and state["money"] == [100, 100, 95] and state["pot"] == 5
    assert state["phase"] == "order" and game.to_act(state) == [2]


def test_it_lets_the_winner_order_the_suits_and_lead() -> None:
    state = act(start(H), "bid:2", "pass", "pass")
    assert len(game.legal_actions(state, 1)) == 6
    refused(state, "order:TTP", "each once")
    state = act(state, "order:STP")
    assert state["order"] == ["S", "T", "P"] and state["phase"] == "play" and game.to_act(state) == [1]


# --- tricks -------------------------------------------------------------------


def test_it_makes_players_follow_suit() -> None:
    state = act(start(H), "bid:2", "pass", "pass", "order:TPS", "T4")
    assert cards_of(game.legal_actions(state, 2)) == {"T15", "T5"}
    refused(state, "P7", "follow suit with a Tools card")


def test_it_allows_any_card_without_the_led_suit() -> None:
    state = act(start(FEWEST), *ALL_PASS, "order:TPS", "T17", "T1", "T5", "T16", "T3", "T6", "T15", "T4", "T7", "T14")
    assert cards_of(game.legal_actions(state, 1)) == {"P3", "P4", "P5"}


def test_it_lets_a_higher_suit_beat_any_lower_suit() -> None:
    state = act(
        start(FEWEST),
        *ALL_PASS,
        "order:SPT",
        "T17",
        "T1",
        "T5",
        "T16",
        "T3",
        "T6",
        "T15",
        "T4",
        "T7",
        "T14",
        "P3",
        "S3",
    )
    assert state["tricks"][-1]["taker"] == 2  # Stones 3 over Tools 14 and Parts 3
    assert state["leader"] == 2


def test_it_lets_the_higher_rank_win_within_a_suit_and_lead_next() -> None:
    state = act(start(H), "bid:2", "pass", "pass", "order:TPS", "T4", "T5", "T3")
    assert state["tricks"][0]["taker"] == 2 and game.to_act(state) == [2]
    assert state["taken"][2] == ["T4", "T5", "T3"]


@pytest.mark.parametrize(("third", "taker", "price"), [("S2", 0, (2 + 0 + 0) * 4), ("T5", 2, (2 + 0 + 2) * 2)])
def test_it_doubles_the_price_for_each_two(third: str, taker: int, price: int) -> None:
    hands = [
        ["P9", "T3", "T4", "T6", "T7", "T8"],
        ["P2", "T9", "T10", "T11", "T13", "T14"],
        ["S2", "T15", "T16", "T17", "T5", "T1"],
    ]
    state = act(start(hands), *ALL_PASS, "order:TPS", "P9", "P2", third)
    assert state["tricks"][0]["taker"] == taker
    paid = 100 - state["money"][taker] - (5 if taker == 0 else 0)
    assert paid == price and state["pot"] == 5 + price


def test_it_doubles_the_bugs_for_each_twelve() -> None:
    table = game.table_from(None)
    assert game.bug_total(table, ["T14", "P12"]) == 12
    assert game.bug_total(table, ["T14", "P12", "S12"]) == 24
    assert game.bug_total(table, ["T14", "P12", "S12", "T12"]) == 48
    assert game.bug_total(table, ["T12"]) == 0


def test_it_scores_doubled_bugs_at_the_end_of_the_hand() -> None:
    hands = [list(h) for h in FEWEST]
    hands[2] = ["T5", "T6", "T7", "S3", "S12", "S5"]  # seat 0 takes a 12 in trick 5
    play = [s if s != "S4" else "S12" for s in FEWEST_PLAY]
    state = act(start(hands), *ALL_PASS, *play)
    assert state["history"][0]["bugs"][0] == (34 - 2) * 2


# --- folding ------------------------------------------------------------------


def test_it_allows_a_fold_only_with_a_bug_taken() -> None:
    state = act(start(FOLDS), *ALL_PASS, "order:TPS")
    assert {"type": "fold"} not in game.legal_actions(state, 0)
    refused(state, "fold", "at least one bug")
    state = act(state, "T17", "T16", "T15")
    assert {"type": "fold"} in game.legal_actions(state, 0)


def test_it_makes_the_taker_pay_before_folding_and_passes_the_lead() -> None:
    state = act(start(FOLDS), *ALL_PASS, "order:TPS", "T17", "T16", "T15")
    assert state["money"][0] == 100 - 5 - 14  # paid as the trick was taken
    state = act(state, "fold")
    assert state["in"] == [False, True, True]
    assert state["leader"] == 1 and game.to_act(state) == [1]
    mine = game.view(state, 0)
    assert mine["hand"] == [] and mine["laid_down_counts"][0] == 5
    assert mine["taken"][0] == ["T17", "T16", "T15"]  # taken cards stay face up
    assert not set(strings_in(game.view(state, 1))) & set(state["laid_down"][0])


def test_it_plays_out_the_hand_for_the_last_seat_in() -> None:
    state = act(start(FOLDS), *ALL_PASS, "order:TPS", "T17", "T16", "T15", "T3", "T5", "T4", "fold", "P7", "fold")
    assert game.is_over(state)
    record = state["history"][0]
    assert record["folded"] == [0, 1] and record["winners"] == [2]
    assert state["taken"][2] == ["P7", "P8", "S7", "S8"]
    assert record["bugs"][2] == 6 and record["pot"] == 5 + 14 + 3 + 10
    assert state["money"] == [81, 97, 122] and state["pot"] == 0


def test_it_never_leads_a_death_card_when_playing_out_the_last_seat_in() -> None:
    folds = ["T17", "T16", "T15", "T3", "T5", "T4", "fold", "P7", "fold"]
    state = act(start(FOLDS, death_card=True), *ALL_PASS, "order:TPS", *folds)  # Stones 7 is Death
    assert game.is_over(state)
    assert state["taken"][2] == ["P7", "P8", "S8"] and state["hands"][2] == ["S7"]
    assert len(state["tricks"]) == 5 and state["removed"] == []


def test_it_never_lets_a_folded_seat_win() -> None:
    state = act(start(FOLDS), *ALL_PASS, "order:TPS", "T17", "T16", "T15", "T3", "T5", "T4", "fold")
    assert game.legal_actions(state, 1) == [] and game.to_act(state) == [2]
    state = act(state, "P7", "fold")
    bugs = state["history"][0]["bugs"]
    assert bugs[1] == 3 < bugs[2] == 6 and state["history"][0]["winners"] == [2]


# --- the pot ------------------------------------------------------------------


def test_it_gives_the_pot_to_the_fewest_bugs_of_at_least_one() -> None:
    state = act(start(FEWEST), *ALL_PASS, *FEWEST_PLAY)
    record = state["history"][0]
    assert record["bugs"] == [34, 1, 0]
    assert record["winners"] == [1] and record["share"] == 39 and state["pot"] == 0


def test_it_splits_a_tied_pot_and_leaves_the_odd_dollar() -> None:
    state = act(start(TIE, deck_values=UNIFORM), *ALL_PASS, *TIE_PLAY)
    record = state["history"][0]
    assert record["bugs"] == [12, 3, 3] and record["winners"] == [1, 2]
    assert record["pot"] == 23 and record["share"] == 11
    assert state["money"] == [83, 108, 108] and state["pot"] == 1


def test_it_compares_bugs_after_doubling() -> None:
    hands = [TIE[0], TIE[1], ["T7", "T8", "T9", "T10", "S12", "P4"]]
    play = [step if step != "S5" else "S12" for step in TIE_PLAY]
    state = act(start(hands, deck_values=UNIFORM), *ALL_PASS, *play)
    record = state["history"][0]
    assert record["bugs"] == [12, 3, 6]  # seat 2's three bugs doubled by the 12
    assert record["winners"] == [1] and record["share"] == 23 and state["pot"] == 0


def test_it_leaves_the_pot_when_nobody_took_a_bug() -> None:
    state = act(start(TIE, deck_values={"bugs": [0] * 17, "dollars": [1] * 17}, hands=2), *ALL_PASS, *TIE_PLAY)
    assert state["history"][0]["winners"] == [] and state["pot"] == 23
    assert state["hand_no"] == 1 and not game.is_over(state)


def test_it_gives_the_outcome_only_when_over_and_as_a_copy() -> None:
    state = start(FEWEST)
    with pytest.raises(ValueError, match="not over"):
        game.outcome(state)
    state = act(state, *ALL_PASS, *FEWEST_PLAY)
    before = copy.deepcopy(state)
    seen = game.view(state, 0)
    seen["outcome"]["hands"][0]["bugs"][0] = 999  # a caller editing its view
    game.outcome(state)["hands"][0]["winners"].append(2)
    assert state == before
