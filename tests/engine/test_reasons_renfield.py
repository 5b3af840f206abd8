"""Renfield's reasons: one scenario per rule id that can decide a trick, a hand or the match, for the base game
and all nine variants; the facts in each are recomputed here from the digest's card table and the money the
seats hold, not by the engine's code. Reasons never name a card some seat may not see."""

from __future__ import annotations

import random

import pytest

from engine import renfield as game
from tests.engine.helpers_renfield import COMBOS, PACK, VARIANTS, H, allowed, first_legal_until, start
from tests.engine.helpers_why import of, renfield_case
from tests.engine.invariants import strings_in

# The digest's default deck, ranks 1 to 17 (the same in every suit).
BUGS = dict(zip(range(1, 18), [1, 0, 1, 2, 0, 3, 1, 2, 4, 0, 5, 0, 3, 6, 2, 4, 5], strict=True))
DOLLARS = dict(zip(range(1, 18), [1, 0, 0, 1, 2, 1, 2, 3, 2, 4, 3, 0, 4, 2, 5, 4, 5], strict=True))


def price(cards: list[str]) -> int:
    """What the digest says a trick costs: the dollars, doubled per 2 in it."""
    total = sum(DOLLARS.get(int(c[1:]), 0) for c in cards)
    return total * 2 ** sum(1 for c in cards if c[1:] == "2")


def only_trick(rule: str) -> dict:
    state, found = renfield_case(rule)
    tricks = of(found, "trick")
    assert len(tricks) == 1 and tricks[0]["rule"] == rule
    return tricks[0]


@pytest.mark.parametrize(
    ("rule", "seat", "card", "cards"),
    [
        ("highest_of_led_suit", 0, "T17", ["T17", "T1", "T5"]),
        ("higher_suit", 1, "T5", ["P2", "T5", "P17"]),
        ("equal_card_earlier", 0, "P9", ["P9", "T1", "S3"]),
        ("highest_rank", 1, "P9", ["T5", "P9", "T4"]),
        ("equal_rank_later", 2, "S9", ["T9", "P9", "S9"]),
        ("zero_led", 2, "T1", ["T0", "P17", "T1"]),
    ],
)
def test_it_names_the_card_that_took_the_trick_and_the_rule(rule: str, seat: int, card: str, cards: list[str]) -> None:
    reason = only_trick(rule)
    assert (reason["seat"], reason["card"], reason["cards"], reason["taker"]) == (seat, card, cards, seat)
    assert reason["led"] == cards[0] and reason["price"] == price(cards)
    assert reason["bugs"] == sum(BUGS.get(int(c[1:]), 0) for c in cards)


def test_it_says_the_two_doubled_the_price_of_a_trick_taken_by_a_higher_suit() -> None:
    reason = only_trick("higher_suit")
    assert reason["doublers"] == 1 and reason["price"] == (0 + 2 + 5) * 2 and reason["order"] == ["T", "P", "S"]
    assert reason["led_suit"] == "P"


def test_it_records_the_trick_reason_in_the_trick_every_view_shows() -> None:
    state, found = renfield_case("higher_suit")
    for seat in (None, 0, 1, 2):
        assert game.view(state, seat)["tricks"][-1]["reason"] == found[-1]


def test_it_says_what_a_wild_card_was_played_as() -> None:
    state, found = renfield_case("wild")
    (reason,) = of(found, "trick")
    assert (reason["seat"], reason["card"], reason["as_suit"], reason["as_rank"]) == (1, "T1", "P", 17)
    assert reason["rule"] == "highest_of_led_suit" and reason["price"] == price(["P9", "T1", "S3"])


def test_it_gives_a_death_trick_to_nobody_and_names_the_death_card() -> None:
    state, found = renfield_case("death_card")
    reason = of(found, "trick")[-1]
    assert reason["rule"] == "death_card" and reason["death"] == ["S7"]
    assert reason["taker"] is None and reason["seat"] == 2 and reason["price"] == 0 and reason["bugs"] == 0
    assert state["turn"] == 2


def test_it_plays_out_the_last_seat_in_with_a_reason_per_trick() -> None:
    state, found = renfield_case("last_seat_in")
    tricks = of(found, "trick")
    assert [t["rule"] for t in tricks] == ["last_seat_in"] * 6 and {t["seat"] for t in tricks} == {1}
    assert [t["trick_no"] for t in tricks] == [1, 2, 3, 4, 5, 6]
    assert [r["seat"] for r in of(found, "folded")] == [0, 2]


def hand_of(found: list[dict], hand_no: int = 0) -> dict:
    (reason,) = [r for r in of(found, "hand") if r["hand_no"] == hand_no]
    return reason


def test_it_says_the_fewest_bugs_won_the_pot_and_what_each_seat_won_or_paid() -> None:
    state, found = renfield_case("fewest_bugs")
    reason = hand_of(found)
    assert reason["rule"] == "fewest_bugs" and reason["winners"] == [1]
    bugs = [sum(BUGS[int(c[1:])] for c in taken) for taken in state["taken"]]
    assert reason["bugs"] == bugs and min(b for b in bugs if b) == bugs[1]
    assert reason["scores"] == [m - 100 for m in state["money"]] == game.outcome(state)["scores"]
    assert reason["pot"] == 5 + sum(t["price"] for t in of(found, "trick"))


def test_it_says_a_tie_split_the_pot_and_the_odd_dollar_stayed() -> None:
    state, found = renfield_case("split_pot")
    reason = hand_of(found)
    assert reason["rule"] == "split_pot" and reason["winners"] == [1, 2]
    assert (reason["pot"], reason["share"], reason["left_in_pot"]) == (23, 11, 1) == (23, 11, state["pot"])
    assert reason["scores"] == [-17, 8, 8]


def test_it_says_the_pot_stayed_when_nobody_still_in_took_a_bug() -> None:
    state, found = renfield_case("no_bugs")
    reason = hand_of(found)
    assert reason["rule"] == "no_bugs" and reason["winners"] == [] and reason["left_in_pot"] == 23


def test_it_says_a_blaze_bidder_made_the_bid() -> None:
    state, found = renfield_case("blaze_made")
    reason = hand_of(found)
    assert reason["rule"] == "blaze_made" and (reason["bidder"], reason["bid"]) == (0, 12)
    assert reason["bugs"][0] >= 12 and reason["winners"] == [0] and reason["pot"] == 21
    assert reason["scores"] == [m - 100 for m in state["money"]]


def test_it_gives_folded_and_sitting_out_seats_reasons_of_their_own_in_blaze() -> None:
    """One fold ends a failed Blaze hand and plays out the next, where only seat 0 is dealt in: every
    trick, both hands, the seats that folded and then sat out, and the match get their reasons."""
    state, found = renfield_case("blaze_failed")
    failed, lone = hand_of(found, 0), hand_of(found, 1)
    assert failed["rule"] == "blaze_failed" and failed["folded"] == [1, 2] and failed["bidder"] == 0
    assert [(r["seat"], r["sits_out_next"]) for r in of(found, "folded")] == [(1, True), (2, True)]
    assert lone["rule"] == "blaze_made" and lone["sat_out"] == [1, 2] and lone["bid"] == 1
    assert [(r["seat"], r["hand_no"]) for r in of(found, "sat_out")] == [(1, 1), (2, 1)]
    assert len(of(found, "trick")) == 12 and of(found, "match")[0]["rule"] == "hands_played"
    totals = [a + b for a, b in zip(failed["scores"], lone["scores"], strict=True)]
    assert totals == game.outcome(state)["scores"] and lone["scores"][1:] == [0, 0]


def test_it_says_who_bought_out_of_the_trick_and_for_how_much() -> None:
    state, found = renfield_case("buying_the_trick")
    assert found == [{"kind": "bought_out", "rule": "buying_the_trick", "seat": 1, "cards": ["T17"], "price": 5}]
    assert state["money"][1] == 95


def test_it_says_the_auction_money_in_each_seats_hand_result() -> None:
    state = first_legal_until(start(H, extra=PACK, auction=True), game.is_over)
    hand = state["history"][0]["reason"]
    assert hand["scores"] == game.outcome(state)["scores"] and sum(hand["scores"]) == -state["pot"]


def test_it_ends_the_match_with_the_places_by_money() -> None:
    state, found = renfield_case("fewest_bugs")
    (reason,) = of(found, "match")
    outcome = game.outcome(state)
    assert reason["scores"] == outcome["scores"] and reason["places"] == outcome["places"]


def test_it_settles_nothing_with_a_bid_and_reads_old_states_without_reasons() -> None:
    state = start(H)
    after = game.apply(state, 1, {"type": "bid", "amount": 3})
    assert game.reasons(state, after) == []
    old = {k: v for k, v in after.items() if k != "settled"}
    assert game.reasons(state, old) == []  # stored before reasons existed
    old_history = {**old, "history": [{k: v for k, v in h.items() if k != "money"} for h in old["history"]]}
    assert game.apply(old_history, 2, {"type": "pass"})["settled"] == []


CASES = [(next(p for p in (3, 4, 5) if allowed(p, o)), o) for o in VARIANTS + COMBOS]


@pytest.mark.parametrize(("players", "options"), CASES, ids=["+".join(o) or "base" for _, o in CASES])
def test_it_never_names_a_card_some_seat_may_not_see(players: int, options: dict) -> None:
    """A card a reason names was played face up: in every view now, or seen on the table before this
    action, or the acting seat's card, or led by the last seat in as the rules play it out (in a hand of
    its own, when Blaze deals in one seat alone)."""
    rng = random.Random(5)
    state = game.new_match(players, {**options, "hands": 2}, seed=5)
    seen: set[str] = set()
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        action = rng.choice(game.legal_actions(state, seat))
        before, state = state, game.apply(state, seat, action)
        seen |= set(strings_in(game.view(before, None)))
        for reason in game.reasons(before, state):
            named = {reason[k] for k in ("card", "led") if k in reason} | {*reason.get("cards", [])}
            named |= {*reason.get("death", [])}
            if reason["kind"] not in ("trick", "bought_out"):
                assert not named
            public = seen | {action.get("card")}
            if reason.get("rule") == "last_seat_in":
                public |= set(before["hands"][reason["seat"]])
            if reason.get("hand_no", before["hand_no"]) != before["hand_no"]:
                # a hand dealt and played out within this action: only a lone seat's cards, led face up
                assert reason["kind"] != "trick" or reason["rule"] == "last_seat_in", reason
            else:
                assert named <= public, reason
            if before["hand_no"] == state["hand_no"]:
                for viewer in [None, *range(players)]:
                    assert named <= set(strings_in(game.view(state, viewer)))
        if before["hand_no"] != state["hand_no"]:
            seen = set()
