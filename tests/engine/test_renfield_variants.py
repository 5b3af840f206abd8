"""Renfield's variants, one scenario per rule on stacked decks: Auction, Blaze, The Death Card, Draw,
Flatline, Stud, Wild Cards, Breathing Room and Buying the Trick."""

from __future__ import annotations

from engine import renfield as game
from tests.engine.helpers_renfield import (
    ALL_PASS,
    FOLDS,
    PACK,
    TIE,
    TIE_PLAY,
    UNIFORM,
    WILD,
    H,
    act,
    all_views_hide,
    cards_of,
    first_legal_until,
    locations,
    refused,
    start,
)
from tests.engine.invariants import assert_cards_conserved, strings_in

# --- Auction --------------------------------------------------------------------


def test_it_auctions_the_pack_with_resales_split_with_the_pot() -> None:
    state = start(H, extra=PACK, auction=True)
    v = game.view(state, 0)
    assert state["phase"] == "auction" and v["auction"]["offer"] == "S10" and v["pack_count"] == 6
    state = act(state, "bid:3", "bid:4", "pass", "pass")
    assert state["money"][2] == 96 and state["pot"] == 4 and "S10" in state["hands"][2]
    assert game.view(state, 0)["shown"][2] == ["S10"]  # a bought card was seen by all
    assert {"type": "offer", "card": "S10"} not in game.legal_actions(state, 2)
    refused(state, "offer:S10", "another card")
    state = act(state, "offer:T5")
    assert game.to_act(state) == [0]  # resale bidding starts after the seller
    state = act(state, "bid:5", "pass")
    assert state["money"] == [95, 100, 98] and state["pot"] == 4 + 3  # seller 2, the odd dollar to the pot
    state = act(state, "offer:P5")
    assert game.to_act(state) == [1]  # seats that bought in this chain may not bid again
    all_views_hide(state)
    state = act(state, "pass")
    assert state["discards"] == ["P5"] and state["auction"]["offer"] == "T10"
    all_views_hide(state)
    assert [len(h) for h in state["hands"]] == [6, 6, 6]


def test_it_sells_outright_at_ten_dollars_and_discards_unsold_cards() -> None:
    state = start(H, extra=PACK, auction=True)
    assert max(a.get("amount", 0) for a in game.legal_actions(state, 1)) == 10
    state = act(state, "bid:10")
    assert state["auction"]["step"] == "offer" and game.to_act(state) == [1] and state["pot"] == 10
    state = act(state, "offer:T4", "pass", "pass")
    assert state["discards"] == ["T4"]
    for _ in range(6):
        state = act(state, "pass", "pass", "pass")
    assert state["phase"] == "bidding" and state["discards"] == ["T4", *PACK[1:]]
    assert state["auction"] is None and game.view(state, 0)["pack_count"] == 0


def test_it_limits_an_auction_bid_to_the_money_held() -> None:
    state = start(H, extra=PACK, auction=True, stake=4)
    assert [a["amount"] for a in game.legal_actions(state, 1) if a["type"] == "bid"] == [1, 2, 3, 4]
    refused(state, "bid:5", "from 1 to 4")


# --- Blaze ----------------------------------------------------------------------


def test_it_antes_and_bids_in_bugs_until_all_pass() -> None:
    state = start(H, blaze=True)
    assert state["pot"] == 3 and state["money"] == [99, 99, 99]
    state = act(state, "bid:5", "bid:6", "pass", "bid:7")
    assert game.to_act(state) == [2]  # seat 0 passed and stays out of the bidding
    assert game.describe(state, 2, {"type": "bid", "amount": 8}) == "bid 8 bugs"
    state = act(state, "pass")
    assert state["bidder"] == 1 and state["bid"] == 7 and state["money"][1] == 99
    assert state["phase"] == "order"


def test_it_gives_the_blaze_pot_to_a_bidder_who_makes_the_bid() -> None:
    state = act(start(TIE, blaze=True, deck_values=UNIFORM), "pass", "pass", "bid:12", *TIE_PLAY)
    record = state["history"][0]
    assert record["made"] and record["winners"] == [0] and record["pot"] == 3 + 18
    assert state["money"] == [99 - 12 + 21, 96, 96] and state["pot"] == 0


def test_it_makes_a_failed_bidder_match_the_pot_and_folders_sit_out() -> None:
    play = TIE_PLAY[:-3] + ["fold", "S5", "S1"]
    state = act(start(TIE, blaze=True, deck_values=UNIFORM, hands=2), "pass", "pass", "bid:13", *play)
    record = state["history"][0]
    assert not record["made"] and record["folded"] == [1]
    assert state["out"] == [False, True, False]
    assert record["pot"] == 3 + 12 + 3 + 2
    assert state["money"][0] == 99 - 12 - 20 - 1  # matched the pot, then the next ante
    assert game.view(state, 0)["hand_sizes"][1] == 0 and 1 not in state["bidding"]["seq"]
    assert sum(state["money"]) + state["pot"] == 300
    state = first_legal_until(act(state, "bid:1", "pass", "order:TPS"), game.is_over)
    record = state["history"][1]
    assert record["made"] and record["winners"] == [2] and record["pot"] == 56
    assert state["out"] == [False, False, False]  # the pot was won: everyone is back in


def test_it_makes_the_dealer_bid_one_bug_when_nobody_bids_in_blaze() -> None:
    state = act(start(H, blaze=True), *ALL_PASS)
    assert state["bidder"] == 0 and state["bid"] == 1 and state["pot"] == 3


def test_it_caps_a_blaze_bid_at_the_bugs_printed_on_the_deck_not_the_money() -> None:
    state = start(H, blaze=True)
    assert max(a.get("amount", 0) for a in game.legal_actions(state, 1)) == 117 == game.view(state, 1)["max_bid"]
    assert [a["type"] for a in game.legal_actions(act(state, "bid:117"), 2)] == ["pass"]
    state = start(H, blaze=True, stake=5, deck_values=UNIFORM)
    assert max(a.get("amount", 0) for a in game.legal_actions(state, 1)) == 51


def test_it_fails_a_blaze_bidder_who_folds_whatever_their_bugs() -> None:
    state = act(start(FOLDS, blaze=True), "pass", "pass", "bid:1", "order:TPS", "T17", "T16", "T15", "fold")
    assert state["bugs"][0] == 11  # more than the bid, but folded
    state = first_legal_until(state, game.is_over)
    record = state["history"][0]
    assert not record["made"] and record["winners"] == [] and record["folded"] == [0]
    assert state["money"][0] == 99 - 14 - record["pot"]  # matched the pot


def test_it_deals_a_lone_blaze_player_in_and_plays_the_hand_out() -> None:
    hands = [
        ["T2", "T5", "T10", "T12", "P2", "P5"],  # not one bug
        ["T16", "T4", "P6", "P11", "S3", "S13"],
        ["T15", "T3", "P7", "P13", "S4", "S14"],
    ]
    state = act(start(hands, blaze=True, draw=True, hands=2), "fold", "fold")
    first, second = state["history"]
    assert not first["made"] and first["folded"] == [1, 2] and first["bugs"][0] == 0
    assert second["dealer"] == 1 and second["folded"] == [] and second["bugs"][0] >= 1
    assert second["made"] and second["winners"] == [0]
    assert state["money"][1:] == [99, 99]  # out for the second hand: no ante


# --- The Death Card -------------------------------------------------------------

DEATH = [
    ["T15", "T11", "P3", "P4", "S3", "S4"],
    ["T9", "S7", "P5", "P6", "S5", "S6"],
    ["T13", "T14", "P7", "P8", "S8", "S9"],
]


def test_it_removes_a_trick_with_death_and_gives_the_lead_to_its_would_be_taker() -> None:
    state = act(start(DEATH, death_card=True), *ALL_PASS, "order:TPS", "T15")
    assert "S7" not in cards_of(game.legal_actions(state, 1))  # no suit: not while holding Tools
    refused(state, "S7", "follow suit")
    state = act(state, "T9", "T13", "T11")
    money, bugs = list(state["money"]), list(state["bugs"])
    state = act(state, "S7", "T14")
    assert state["removed"] == ["T11", "S7", "T14"] and state["tricks"][-1]["taker"] is None
    assert state["money"] == money and state["bugs"] == bugs
    assert game.to_act(state) == [2]


def test_it_never_leads_death_and_folds_a_leader_holding_only_death() -> None:
    state = act(start(DEATH, death_card=True, death_cards=list(DEATH[0])), *ALL_PASS, "order:TPS")
    assert game.legal_actions(state, 0) == [{"type": "fold"}]  # even with no bug taken
    state = act(state, "fold")
    assert game.to_act(state) == [1] and state["leader"] == 1
    state = act(start(DEATH, death_card=True, death_cards=["T15"]), *ALL_PASS, "order:TPS")
    refused(state, "T15", "never be led")


def test_it_lets_an_all_suits_death_card_be_played_anytime() -> None:
    state = act(start(DEATH, death_card=True, death_all_suits=True), *ALL_PASS, "order:TPS", "T15")
    assert cards_of(game.legal_actions(state, 1)) == {"T9", "S7"}


# --- Draw -----------------------------------------------------------------------


def test_it_runs_a_betting_round_before_the_draw() -> None:
    state = start(H, draw=True)
    assert state["phase"] == "betting"
    assert game.legal_actions(state, 1) == [{"type": "check"}, {"type": "bet"}, {"type": "fold"}]
    state = act(state, "check", "bet", "call")
    assert state["pot"] == 10 and game.to_act(state) == [1]
    seen = game.view(state, None)["betting"]
    assert seen["bet"] == 5 and seen["put"] == [5, 0, 5] and seen["to_go"] == [1]
    assert game.legal_actions(state, 1) == [{"type": "call"}, {"type": "raise"}, {"type": "fold"}]
    state = act(state, "raise", "call", "fold")
    assert state["pot"] == 25 and state["money"] == [95, 90, 90]
    assert state["phase"] == "discard" and state["in"] == [False, True, True]


def test_it_caps_the_raises_and_needs_the_money_to_bet() -> None:
    state = act(start(H, draw=True), "bet", "raise", "raise")
    assert {"type": "raise"} in game.legal_actions(state, 1)
    state = act(state, "raise")
    assert game.to_act(state) == [2] and state["betting"]["bet"] == 20
    assert game.legal_actions(state, 2) == [{"type": "call"}, {"type": "fold"}]  # three raises at most
    state = start(H, draw=True, stake=4)
    assert {"type": "bet"} not in game.legal_actions(state, 1)


def test_it_discards_up_to_four_and_refills_to_six() -> None:
    state = act(start(H, draw=True), "check", "check", "check")
    state = act(state, "discard:T16", "discard:T4", "discard:P6", "discard:P10")
    all_views_hide(state)
    assert game.view(state, 2)["draw_pile_count"] == 4
    assert [a["type"] for a in game.legal_actions(state, 1)] == ["draw"]
    refused(state, "discard:S3", "at most 4")
    state = act(state, "draw", "draw", "discard:T17", "draw")
    assert state["phase"] == "bidding" and [len(h) for h in state["hands"]] == [6, 6, 6]
    assert {"S3", "S13"} <= set(state["hands"][1])  # the kept cards stay
    assert state["draw_pile"] == []
    assert_cards_conserved(state, game.FULL_DECK, locations)


def test_it_plays_out_for_the_last_bettor_left() -> None:
    state = act(start(H, draw=True), "bet", "fold", "fold")
    assert game.is_over(state) and state["history"][0]["winners"] == [1]
    assert len(state["taken"][1]) == 6
    assert state["money"] == [100, 100, 100] and state["pot"] == 0  # the bet and the tricks paid came back


# --- Flatline -------------------------------------------------------------------

FLAT = [
    ["T9", "T5", "P3", "P4", "S3", "S4"],
    ["P9", "P5", "P6", "P7", "S5", "S6"],
    ["S9", "T4", "T3", "P8", "S8", "S7"],
]


def test_it_has_no_suit_order_and_a_two_dollar_lead_in_flatline() -> None:
    state = act(start(FLAT, flatline=True), *ALL_PASS)
    assert state["phase"] == "play" and state["pot"] == 2 and state["order"] is None


def test_it_compares_rank_only_with_ties_to_the_later_card() -> None:
    state = act(start(FLAT, flatline=True), *ALL_PASS, "T5", "P9")
    assert cards_of(game.legal_actions(state, 2)) == {"T4", "T3"}  # suit is still followed
    state = act(state, "T4")
    assert state["tricks"][0]["taker"] == 1  # Parts 9 over Tools 5 by rank alone
    tie = [FLAT[0], FLAT[1], ["S9", "P10", "P11", "P8", "S8", "S7"]]
    state = act(start(tie, flatline=True), *ALL_PASS, "T9", "P9", "S9")
    assert state["tricks"][0]["taker"] == 2


def test_it_makes_a_led_zero_high_with_zeroes_shuffled_in() -> None:
    hands = [
        ["T0", "T5", "P3", "P4", "S3", "S4"],
        ["P17", "P5", "P6", "P7", "S5", "S6"],
        ["T1", "T2", "T3", "P8", "S8", "S7"],
    ]
    state = start(hands, flatline=True, flatline_zeroes=True)
    assert state["keys"] == [] and len(state["deck"]) == 54 - 18
    state = act(state, *ALL_PASS, "T0", "P17", "T1")
    assert state["tricks"][0]["taker"] == 2  # Tools 1 in the led zero's suit beats Parts 17


# --- Stud -----------------------------------------------------------------------

STUD = [
    ["T1", "T2", "T3", "T4", "T5", "T6", "T7"],
    ["P1", "P2", "P3", "P4", "P5", "P6", "P7"],
    ["S1", "S2", "S3", "S4", "S5", "S6", "S7"],
]


def test_it_deals_stud_three_down_and_four_up_for_all_to_see() -> None:
    state = start(STUD, stud=True)
    assert state["shown"] == [["T4", "T5", "T6", "T7"], ["P4", "P5", "P6", "P7"], ["S4", "S5", "S6", "S7"]]
    assert game.view(state, None)["shown"][1] == ["P4", "P5", "P6", "P7"]
    text = set(strings_in(game.view(state, 0)))
    assert {"P4", "S7"} <= text and not {"P1", "P3", "S2"} & text
    all_views_hide(state)


def test_it_plays_six_of_seven_stud_cards() -> None:
    state = act(start(STUD, stud=True), *ALL_PASS, "order:TPS", "T6")
    assert cards_of(game.legal_actions(state, 1)) == set(STUD[1])  # up or down, as one wishes
    state = first_legal_until(state, game.is_over)
    assert [len(h) for h in state["hands"]] == [1, 1, 1] and len(state["tricks"]) == 6


# --- Wild Cards -----------------------------------------------------------------


def test_it_plays_a_wild_card_as_declared_and_pays_face_value() -> None:
    state = act(start(WILD, wild_cards=True, wilds=["T1"]), *ALL_PASS, "order:SPT", "P9")
    wild = [a for a in game.legal_actions(state, 1) if a["card"] == "T1"]
    assert {a["suit"] for a in wild} == {"P"} and len(wild) == 17  # holding Parts: a Parts wild or Parts 5
    refused(state, "T1", "which suit and rank")
    refused(state, "T1=S17", "which suit")
    state = act(state, "T1=P17", "S3")
    assert state["tricks"][0]["taker"] == 2  # Stones is high in this order
    state = act(start(WILD, wild_cards=True, wilds=["T1"]), *ALL_PASS, "order:TPS", "P9", "T1=P17", "S3")
    assert state["tricks"][0]["taker"] == 1
    assert state["money"][1] == 100 - (2 + 1 + 0)  # Tools 1 costs its face $1
    assert state["bugs"][1] == 4 + 1 + 1


def test_it_makes_others_follow_a_led_wild_cards_declared_suit() -> None:
    hands = [WILD[1], WILD[2], WILD[0]]
    state = act(start(hands, wild_cards=True, wilds=["T1"]), "pass", "pass", "bid:1", "order:TPS", "T1=S4")
    assert cards_of(game.legal_actions(state, 1)) == {"S2", "S3"}


def test_it_breaks_a_tie_with_a_wild_for_the_earlier_card_except_in_flatline() -> None:
    state = act(start(WILD, wild_cards=True, wilds=["T1"]), *ALL_PASS, "order:TPS", "P9", "T1=P9", "S3")
    assert state["tricks"][0]["taker"] == 0
    state = act(start(WILD, wild_cards=True, wilds=["T1"], flatline=True), *ALL_PASS, "P9", "T1=P9", "S3")
    assert state["tricks"][0]["taker"] == 1


# --- Breathing Room and Buying the Trick -----------------------------------------


def test_it_deals_eight_and_plays_six_with_breathing_room() -> None:
    hands = [STUD[0] + ["T8"], STUD[1] + ["P8"], STUD[2] + ["S8"]]
    state = start(hands, breathing_room=True)
    assert [len(h) for h in state["hands"]] == [8, 8, 8] and state["shown"] == [[], [], []]
    state = first_legal_until(act(state, *ALL_PASS), game.is_over)
    assert [len(h) for h in state["hands"]] == [2, 2, 2] and len(state["tricks"]) == 6


def test_it_refills_to_eight_when_draw_meets_breathing_room() -> None:
    hands = [STUD[0] + ["T8"], STUD[1] + ["P8"], STUD[2] + ["S8"]]
    state = act(start(hands, breathing_room=True, draw=True), "check", "check", "check")
    state = act(state, "discard:P1", "discard:P2", "draw", "draw", "draw")
    assert state["phase"] == "bidding" and [len(h) for h in state["hands"]] == [8, 8, 8]


def test_it_lets_a_seat_without_bugs_buy_out_of_the_trick() -> None:
    state = act(start(FOLDS, buying_the_trick=True), *ALL_PASS, "order:TPS")
    assert {"type": "buy"} not in game.legal_actions(state, 0)  # nothing to buy yet
    state = act(state, "T17")
    assert {"type": "buy"} in game.legal_actions(state, 1)
    assert game.describe(state, 1, {"type": "buy"}) == "bought out of the trick for $5 and folded"
    state = act(state, "buy")
    assert state["money"][1] == 95 and state["in"] == [True, False, True]
    assert state["trick"][0]["card"] == "T17" and game.to_act(state) == [2]
    state = act(state, "T15")
    assert state["taken"][0] == ["T17", "T15"]
    assert {"type": "buy"} not in game.legal_actions(state, 0) and {"type": "fold"} in game.legal_actions(state, 0)


def test_it_doubles_a_buyers_price_for_each_two_in_the_trick() -> None:
    hands = [
        ["T9", "T3", "P3", "P4", "S3", "S4"],
        ["T2", "T5", "P5", "P6", "S5", "S6"],
        ["T15", "T4", "P7", "P8", "S7", "S8"],
    ]
    state = act(start(hands, buying_the_trick=True), *ALL_PASS, "order:TPS", "T9", "T2")
    assert game.describe(state, 2, {"type": "buy"}) == "bought out of the trick for $4 and folded"
    state = act(state, "buy")
    assert state["money"][2] == 100 - (2 + 0) * 2
    assert state["tricks"][0]["taker"] == 0 and state["money"][0] == 100 - 5 - 4


def test_it_describes_the_draw_in_plain_english() -> None:
    state = {"discarded": [0, 1, 3]}
    assert game.describe(state, 0, {"type": "draw"}) == "kept the hand as dealt"
    assert game.describe(state, 1, {"type": "draw"}) == "drew 1 card"
    assert game.describe(state, 2, {"type": "draw"}) == "drew 3 cards"
