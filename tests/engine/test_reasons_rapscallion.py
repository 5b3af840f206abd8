"""Rapscallion's reasons: one scenario per rule id that can decide a round's taking order, a showdown (each
category, the best and the worst hand, the side bet), a hand and the match; the points are recomputed here
from the digest's table. Reasons never name a card some seat may not see at that moment."""

from __future__ import annotations

import random

import pytest

from engine import rapscallion as R
from tests.engine.helpers_why import of, reveal, showdown
from tests.engine.invariants import strings_in

# The digest: straight flush 20, four of a kind 20, full house 15, flush 10, straight 5, others 0.
DIGEST = {
    "straight flush": 20,
    "four of a kind": 20,
    "full house": 15,
    "flush": 10,
    "straight": 5,
    "three of a kind": 0,
    "two pair": 0,
    "one pair": 0,
    "high card": 0,
}
CATEGORY_HANDS = {
    "straight flush": ["9H", "TH", "JH", "QH", "KH", "2C", "3D", "4S"],
    "four of a kind": ["8S", "8H", "8D", "8C", "KS", "2C", "3D", "4H"],
    "full house": ["6S", "6H", "6D", "9C", "9S", "2C", "3D", "KH"],
    "flush": ["2D", "5D", "8D", "JD", "KD", "3C", "4S", "9H"],
    "straight": ["5C", "6D", "7H", "8S", "9C", "2D", "KH", "QS"],
    "three of a kind": ["QC", "QD", "QH", "2S", "5H", "7D", "9C", "KS"],
    "two pair": ["KS", "KH", "9D", "9C", "AS", "4D", "3C", "6H"],
    "one pair": ["JS", "JH", "3D", "5C", "8H", "KC", "2S", "4H"],
    "high card": ["AS", "KD", "9C", "7H", "4S", "2D", "3H", "JC"],
}
# Seat 0 and seat 1 hold high cards of equal ranks: the suit of the highest card decides (spades first).
SAME_RANKS = [["AS", "KS", "QH", "JD", "9C", "2C", "3D", "5H"], ["AH", "KH", "QD", "JC", "9S", "2D", "3H", "5C"]]
TWO_PAIRS = [CATEGORY_HANDS["two pair"], ["7H", "7D", "2S", "2D", "8D", "JC", "5C", "4S"]]


def opponent(hand: list[str]) -> list[str]:
    """Eight other cards for seat 1: a run of twos to fives of clubs and diamonds, never a straight."""
    pool = [c for c in ("2H", "3S", "4C", "6C", "7S", "TD", "JD", "QS", "KC", "9S", "5S", "8C") if c not in hand]
    return pool[:8]


def seat_reason(found: list[dict], seat: int) -> dict:
    (reason,) = [r for r in of(found, "showdown") if r["seat"] == seat]
    return reason


@pytest.mark.parametrize("category", list(CATEGORY_HANDS))
def test_it_names_each_showdown_hands_category_and_its_points(category: str) -> None:
    hand = CATEGORY_HANDS[category]
    state, found = showdown([hand, opponent(hand)], ["B1", "B7"], [[], []])
    reason = seat_reason(found, 0)
    assert reason["rule"] == category.replace(" ", "_") and reason["category"] == category
    assert reason["points"]["hand"] == DIGEST[category] and set(reason["five"]) <= set(hand)
    assert reason["total"] == sum(reason["points"].values()) == state["history"][-1][0]


def test_it_says_why_two_hands_of_one_category_score_five_and_thirty() -> None:
    """The complaint: two pair scoring 5 and two pair scoring 30. The best hand's +20 and two Rapscallions
    never played (+5 each) against the worst hand's -10 and the side bet's +15."""
    state, found = showdown(TWO_PAIRS, ["B1", "B20"], [["R-red-1", "R-red-2"], []])
    first, second = seat_reason(found, 0), seat_reason(found, 1)
    assert first["rule"] == second["rule"] == "two_pair"
    assert first["points"] == {"hand": 0, "best": 20, "worst": 0, "side_bet": 0, "rapscallions": 10}
    assert second["points"] == {"hand": 0, "best": 0, "worst": -10, "side_bet": 15, "rapscallions": 0}
    assert (first["total"], second["total"]) == (0 + 20 + 2 * 5, 0 - 10 + 15) == (30, 5)
    assert first["unused_rapscallions"] == 2 and state["history"][-1] == [30, 5]


def test_it_names_the_best_and_worst_hand_by_poker_rank() -> None:
    state, found = showdown(TWO_PAIRS, ["B1", "B7"], [[], []])
    (best,), (worst,) = of(found, "best_hand"), of(found, "worst_hand")
    assert (best["rule"], best["seat"], best["other"], best["points"]) == ("poker_rank", 0, 1, 20)
    assert (worst["rule"], worst["seat"], worst["other"], worst["points"]) == ("poker_rank", 1, 0, -10)


def test_it_says_the_suit_broke_a_tie_between_hands_of_equal_rank() -> None:
    state, found = showdown(SAME_RANKS, ["B1", "B7"], [[], []])
    (best,), (worst,) = of(found, "best_hand"), of(found, "worst_hand")
    assert (best["rule"], best["seat"]) == ("suit_tiebreak", 0) and best["five"][0] == "AS"
    assert (worst["rule"], worst["seat"]) == ("suit_tiebreak", 1)


@pytest.mark.parametrize(
    ("bets", "rule", "winner"),
    [
        (["B1", "R-blue-1"], "lone_rapscallion", 1),
        (["B7", "B1"], "highest_number", 0),
        (["R-red-1", "R-blue-1", "B3"], "rapscallions_cancel", 2),
        (["R-red-1", "R-blue-1", "R-green-1"], "nothing_wins", None),
    ],
)
def test_it_says_who_won_the_side_bet_and_by_which_rule(bets: list[str], rule: str, winner: int | None) -> None:
    hands = [CATEGORY_HANDS["flush"], CATEGORY_HANDS["straight"], CATEGORY_HANDS["one pair"]][: len(bets)]
    state, found = showdown(hands, bets, [[] for _ in bets])
    (reason,) = of(found, "side_bet")
    assert (reason["rule"], reason["seat"], reason["bets"]) == (rule, winner, bets)
    assert reason["points"] == (15 if winner is not None else 0)
    assert [r["points"]["side_bet"] for r in of(found, "showdown")] == [15 if s == winner else 0 for s in range(3)][
        : len(bets)
    ]


def test_it_sums_the_hand_and_ends_the_match_at_the_target() -> None:
    state, found = showdown(TWO_PAIRS, ["B1", "B20"], [["R-red-1", "R-red-2"], []], target=10)
    (hand,), (match,) = of(found, "hand"), of(found, "match")
    assert hand["scores"] == [30, 5] == state["scores"] and hand["rule"] == "items_added"
    assert (match["rule"], match["places"], match["target"]) == ("highest_total", [1, 2], 10)
    assert R.outcome(state)["places"] == match["places"]


def test_it_says_a_tie_on_totals_goes_to_the_last_hands() -> None:
    hands = [CATEGORY_HANDS["two pair"], CATEGORY_HANDS["one pair"], ["2H", "3S", "4C", "6C", "7S", "TD", "8C", "QS"]]
    bidding = [[], ["R-red-1"], []]
    state, found = showdown(hands, ["B1", "B20", "B3"], bidding, target=10)
    (match,) = of(found, "match")
    assert state["scores"][:2] == [20, 20] and match["rule"] == "last_hands_break_tie"
    assert match["places"] == R.places(state) == [1, 1, 3]


@pytest.mark.parametrize(
    ("args", "rule", "seat", "card"),
    [
        (("P", ["R-red-1", "B3"]), "lone_rapscallion", 0, "R-red-1"),
        (("P", ["B20", "B3"]), "highest_number", 0, "B20"),
        (("B", ["AS", "KH"], [["AS", "2C"], ["KH", "3D"]]), "highest_playing_card", 0, "AS"),
        (("B", ["KH", "KS"], [["KH", "2C"], ["KS", "3D"]]), "suit_breaks_tie", 1, "KS"),
        (("P", ["R-red-1", "R-blue-1"], None, [["R-red-1"], ["R-blue-1"]]), "no_bids", 0, None),
    ],
)
def test_it_says_who_chooses_first_and_why(args: tuple, rule: str, seat: int, card: str | None) -> None:
    state, found = reveal(*args)
    reason = of(found, "bids")[-1]
    assert (reason["rule"], reason["seat"], reason["card"]) == (rule, seat, card)
    assert reason["order"] == state["order"] and reason["bids"] == state["final"]


def test_it_says_rapscallions_played_together_cancel_and_bid_again() -> None:
    state, found = reveal("P", ["R-red-1", "R-blue-1"])
    assert of(found, "bids") == [
        {
            "kind": "bids",
            "rule": "rapscallions_cancel",
            "hand_no": 0,
            "round": 0,
            "round_kind": "playing",
            "seats": [0, 1],
            "cards": ["R-red-1", "R-blue-1"],
            "rebid": [0, 1],
        }
    ]
    assert state["asked"] == [0, 1]


def test_it_settles_nothing_with_a_sealed_bid_and_reads_old_states() -> None:
    state = R.new_match(3, seed=2)
    after = R.apply(state, 0, R.legal_actions(state, 0)[0])
    assert R.reasons(state, after) == []
    assert R.reasons(state, {k: v for k, v in after.items() if k != "settled"}) == []


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_it_never_names_a_card_some_seat_may_not_see(players: int) -> None:
    """Revealed bids are in every view; a showdown's cards and side bets are shown in every view's last
    hand (as labels: after the next deal their codes could name a card some seat may not see)."""
    rng = random.Random(players)
    state = R.new_match(players, {"target": 30}, seed=players)
    while not R.is_over(state):
        seat = R.to_act(state)[0]
        before, state = state, R.apply(state, seat, rng.choice(R.legal_actions(state, seat)))
        for reason in R.reasons(before, state):
            for viewer in [None, *range(players)]:
                view = R.view(state, viewer)
                if reason["kind"] == "bids":
                    named = {reason.get("card"), *reason.get("bids", []), *reason.get("cards", [])} - {None}
                    assert named <= set(strings_in(view)), reason
                else:
                    named = {*reason.get("five", []), *reason.get("other_five", []), *reason.get("bets", [])}
                    named |= {reason["card"]} if reason.get("card") else set()
                    shown = set(strings_in(view["last_hand"]))
                    assert {R.card_label(c) for c in named} <= shown, reason
