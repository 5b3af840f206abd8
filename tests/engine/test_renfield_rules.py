"""One scenario per rule of the Renfield digest and of every variant, on
stacked decks (``options["deck"]``), plus option errors, refused actions and
what the views hide."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engine import IllegalAction
from engine import renfield as game
from tests.engine.invariants import assert_cards_conserved, assert_view_hides, strings_in
from tests.engine.test_renfield_playouts import hidden, locations

UNIFORM = {"bugs": [1] * 17, "dollars": [1] * 17}  # every card 1 bug, $1: easy sums
SIMPLE = {"pass", "fold", "buy", "check", "bet", "call", "raise", "draw"}


def stack(hands: list[list[str]], *, extra: tuple[str, ...] = (), options: dict | None = None) -> list[str]:
    """The deck that deals ``hands`` (seat 0 deals, one card at a time from
    seat 1), then ``extra`` on top of the rest."""
    players, size = len(hands), len(hands[0])
    order = [k % players for k in range(1, players + 1)]
    deck = [hands[seat][r] for r in range(size) for seat in order] + list(extra)
    return deck + [c for c in game.match_deck(options or {}) if c not in deck]


def start(dealt: list[list[str]], extra: tuple[str, ...] = (), **options: Any) -> dict:
    options.setdefault("hands", 1)
    return game.new_match(len(dealt), {**options, "deck": stack(dealt, extra=extra, options=options)}, seed=7)


def parse(step: Any) -> Any:
    if not isinstance(step, str) or step == "bid":  # junk passes through as is
        return step
    if step in SIMPLE:
        return {"type": step}
    if ":" in step:
        kind, arg = step.split(":")
        if kind == "bid":
            return {"type": "bid", "amount": int(arg)}
        if kind == "order":
            return {"type": "order", "suits": list(arg)}
        return {"type": kind, "card": arg}
    if "=" in step:
        card, as_ = step.split("=")
        return {"type": "play", "card": card, "suit": as_[0], "rank": int(as_[1:])}
    return {"type": "play", "card": step}


def act(state: dict, *steps: str | dict) -> dict:
    for step in steps:
        state = game.apply(state, game.to_act(state)[0], parse(step))
    return state


def refused(state: dict, step: str | dict, fragment: str = "", seat: int | None = None) -> None:
    before = copy.deepcopy(state)
    seat = game.to_act(state)[0] if seat is None else seat
    with pytest.raises(IllegalAction, match=fragment or None):
        game.apply(state, seat, parse(step))
    assert state == before


def cards_of(legal: list[dict]) -> set[str]:
    return {a["card"] for a in legal if a["type"] == "play"}


def all_views_hide(state: dict) -> None:
    assert_cards_conserved(state, game.FULL_DECK, locations)
    for seat in [None, *range(state["players"])]:
        assert_view_hides(game, state, seat, hidden)


# Default 3-seat hands; seat 0 deals, so bidding goes 1, 2, 0.
H = [
    ["T17", "T3", "P5", "P9", "S2", "S12"],
    ["T16", "T4", "P6", "P10", "S3", "S13"],
    ["T15", "T5", "P7", "P11", "S4", "S14"],
]
# Seat 0 takes five tricks, seat 1 the last with one bug, seat 2 none.
FEWEST = [
    ["T17", "T16", "T15", "T14", "T13", "P1"],
    ["T1", "T3", "T4", "P3", "P4", "P5"],
    ["T5", "T6", "T7", "S3", "S4", "S5"],
]
FEWEST_PLAY = [
    "order:TPS",
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
    "T13",
    "P4",
    "S4",
    "P1",
    "P5",
    "S5",
]
# With UNIFORM values: seat 0 takes four tricks, seats 1 and 2 one each.
TIE = [
    ["T17", "T16", "T15", "T14", "P1", "S1"],
    ["T3", "T4", "T5", "T6", "P5", "P6"],
    ["T7", "T8", "T9", "T10", "S5", "P4"],
]
TIE_PLAY = [
    "order:TSP",
    "T17",
    "T3",
    "T7",
    "T16",
    "T4",
    "T8",
    "T15",
    "T5",
    "T9",
    "T14",
    "T6",
    "T10",
    "P1",
    "P5",
    "P4",
    "P6",
    "S5",
    "S1",
]
# Seat 0 takes trick 1, seat 1 trick 2; then both fold.
FOLDS = [
    ["T17", "T3", "P3", "P4", "S3", "S4"],
    ["T16", "T5", "P5", "P6", "S5", "S6"],
    ["T15", "T4", "P7", "P8", "S7", "S8"],
]
ALL_PASS = ["pass", "pass", "pass"]


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
    state = _first_legal_until(state, lambda s: s["hand_no"] == 1)
    assert state["dealer"] == 1 and game.hand_index(state) == 1
    assert game.to_act(state) == [2]  # the bidding starts after the new dealer
    state = _first_legal_until(state, game.is_over)
    assert len(state["history"]) == 2


def _first_legal_until(state: dict, done: Any) -> dict:
    while not done(state):
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        state = game.apply(state, seat, next((a for a in legal if a["type"] == "play"), legal[0]))
    return state


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


# --- Auction --------------------------------------------------------------------

PACK = ("S10", "T10", "P12", "S11", "T11", "P13", "S9")


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
    state = _first_legal_until(act(state, "bid:1", "pass", "order:TPS"), game.is_over)
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
    state = _first_legal_until(state, game.is_over)
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
    state = _first_legal_until(state, game.is_over)
    assert [len(h) for h in state["hands"]] == [1, 1, 1] and len(state["tricks"]) == 6


# --- Wild Cards -----------------------------------------------------------------

WILD = [
    ["P9", "T3", "T4", "T6", "T7", "T8"],
    ["T1", "P5", "T10", "T11", "T13", "T14"],
    ["S2", "T15", "T16", "T17", "T5", "S3"],
]


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
    state = _first_legal_until(act(state, *ALL_PASS), game.is_over)
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
