"""Rapscallion, one scenario per rule of the digest on stacked decks: the components and options, the side
bet, the rounds, sealed bids and the order of choice, bidding-card rounds, the face-down centre card, two and
six players; then refused actions and views."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from engine import get_game
from engine import rapscallion as R
from engine.cards import shuffled
from tests.engine.helpers_rapscallion import (
    State,
    act,
    bet_low,
    bid,
    bid_low,
    deal,
    first_legal_until,
    numbers,
    raps,
    refused,
    take_first,
)
from tests.engine.invariants import strings_in

# --- components and options --------------------------------------------------------------


def test_it_is_registered_for_two_to_six_players() -> None:
    assert get_game("rapscallion") is R
    for players in (1, 7):
        with pytest.raises(ValueError, match="2 to 6 players"):
            R.new_match(players, None, seed=1)


def test_it_uses_the_digest_bidding_values_by_default() -> None:
    table = R.DEFAULT_VALUES
    assert table["colours"]["red"] == [1, 7, 13]
    assert table["colours"]["orange"] == [6, 12, 18]
    assert table["general"] == list(range(19, 31))
    assert R.colour_set(table, "green") == ["B3", "B9", "B15", "R-green-1", "R-green-2"]


def test_it_gives_each_seat_a_coloured_set_and_one_face_down_card() -> None:
    state = deal(3, ["2C", "3D", "4H"])
    assert state["hands"] == [["2C"], ["3D"], ["4H"]]
    assert len(set(state["colours"])) == 3
    for seat, colour in enumerate(state["colours"]):
        assert state["bidding"][seat] == R.colour_set(R.DEFAULT_VALUES, colour)
    assert "3D" not in set(strings_in(R.view(state, 0)))
    assert "3D" not in set(strings_in(R.view(state, None)))
    assert R.view(state, 1)["hand"] == ["3D"]


def test_it_loads_printed_values_from_the_bidding_values_option() -> None:
    table = {
        "colours": {c: [100 + 3 * k, 101 + 3 * k, 102 + 3 * k] for k, c in enumerate(R.COLOURS)},
        "general": list(range(200, 212)),
    }
    state = R.new_match(2, {"bidding_values": table}, seed=4)
    colour = state["colours"][0]
    k = R.COLOURS.index(colour)
    assert numbers(state, 0) == [f"B{100 + 3 * k}", f"B{101 + 3 * k}", f"B{102 + 3 * k}"]
    assert sorted(state["bidding_stock"]) == sorted(f"B{v}" for v in range(200, 212))


def _table(**changes: Any) -> dict[str, Any]:
    table = copy.deepcopy(R.DEFAULT_VALUES)
    table.update(changes)
    return table


@pytest.mark.parametrize(
    ("values", "fragment"),
    [
        ("high", "must be a table"),
        ({"colours": {}}, "must be a table"),
        (_table(colours={"red": [1, 2, 3]}), "exactly the colours"),
        (_table(general=list(range(19, 30))), "general bidding deck must be a list of 12"),
        (_table(general=list(range(19, 30)) + ["30"]), "whole numbers"),
        (_table(general=list(range(19, 30)) + [0]), "from 1 to 999"),
        (_table(general=list(range(19, 30)) + [True]), "whole numbers"),
        (_table(general=list(range(18, 30))), "18 appears more than once"),
    ],
)
def test_it_refuses_bad_bidding_values_with_a_sentence(values: Any, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        R.new_match(3, {"bidding_values": values}, seed=1)


def test_it_refuses_bad_stacked_decks_and_targets() -> None:
    with pytest.raises(ValueError, match="not a complete 52-card deck"):
        R.new_match(2, {"deck": R.PLAYING_DECK[:-1]}, seed=1)
    with pytest.raises(ValueError, match="general bidding deck"):
        R.new_match(2, {"bidding_deck": ["B1"] * 12}, seed=1)
    with pytest.raises(ValueError, match="between 10 and 1000"):
        R.new_match(2, {"target": 5}, seed=1)
    with pytest.raises(ValueError, match="Unknown option"):
        R.new_match(2, {"colour": "red"}, seed=1)


def test_it_fills_defaults_in_the_normalized_options() -> None:
    assert R.validate_options(4, None) == {"target": 100, "bidding_values": R.DEFAULT_VALUES}


# --- the side bet ----------------------------------------------------------------------------


def test_it_takes_the_side_bets_simultaneously_and_keeps_them_sealed() -> None:
    state = deal(3, ["2C", "3D", "4H"])
    assert R.to_act(state) == [0, 1, 2]
    card = numbers(state, 1)[1]
    state = act(state, 1, "side_bet", card)
    assert R.to_act(state) == [0, 2]
    assert card not in state["bidding"][1]
    assert R.view(state, 1)["side_bets"] == [None, card, None]
    for seat in (0, 2, None):
        shown = R.view(state, seat)
        assert shown["side_bets"][1] == "placed"
        assert card not in set(strings_in(shown))
    assert R.describe(state, 0, {"type": "side_bet", "card": numbers(state, 0)[0]}) == "placed a side bet"
    refused(state, 1, {"type": "side_bet", "card": numbers(state, 1)[0]}, "not your turn")


def test_it_keeps_the_side_bet_out_of_hand_for_the_whole_hand() -> None:
    state = deal(2, seed=6)
    bets = {0: raps(state, 0)[0], 1: numbers(state, 1)[2]}
    for seat, card in bets.items():
        state = act(state, seat, "side_bet", card)
    while state["hand_no"] == 0:
        for seat, card in bets.items():
            assert card not in state["bidding"][seat]
            assert {"type": "bid", "card": card} not in R.legal_actions(state, seat)
        seat = R.to_act(state)[0]
        state = R.apply(state, seat, R.legal_actions(state, seat)[0])


# --- the round structure ----------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_it_plays_two_bidding_rounds_among_nine_playing_rounds(players: int) -> None:
    state = bet_low(deal(players, seed=players))
    seen: list[tuple[str, int, int]] = []
    while state["hand_no"] == 0 and not R.is_over(state):
        if state["phase"] == "bid" and (not seen or len(seen) - 1 != state["round"]):
            row = len(state["centre"])  # the face-down card is listed as "hidden"
            seen.append((R.PLAN[state["round"]], row, len(state["hands"][0])))
        seat = R.to_act(state)[0]
        state = R.apply(state, seat, R.legal_actions(state, seat)[0])
    size = players + 1 if players == 2 else players
    assert [kind for kind, _, _ in seen] == list("PPBPPPBPPPP")
    assert all(row == size for _, row, _ in seen)
    assert [cards for _, _, cards in seen] == [1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7]


def test_it_lays_the_centre_row_from_the_stacked_deck_with_the_last_card_face_down() -> None:
    state = bet_low(deal(3, ["2C", "3D", "4H", "AS", "KS", "QS", "JS", "TS", "9S"]))
    assert state["centre"] == ["AS", "KS", "hidden"] and state["down"] == "QS"
    for seat in (0, 1, 2, None):
        shown = R.view(state, seat)
        assert shown["centre"] == ["AS", "KS", "hidden"]
        assert "QS" not in set(strings_in(shown))
    state = take_first(bid_low(state))
    assert state["round"] == 1 and state["centre"] == ["JS", "TS", "hidden"] and state["down"] == "9S"


def test_it_ends_each_hand_with_eight_playing_cards_per_seat() -> None:
    state = bet_low(deal(4, seed=3, target=10))
    state = first_legal_until(state, R.is_over)
    assert [len(hand) for hand in state["hands"]] == [8, 8, 8, 8]


# --- sealed bids and the order of choice -----------------------------------------------------


def test_it_waits_for_every_sealed_bid_and_hides_each_until_all_are_in() -> None:
    state = bet_low(deal(3, seed=2))
    card = numbers(state, 2)[-1]
    state = act(state, 2, "bid", card)
    assert R.to_act(state) == [0, 1]
    assert R.view(state, 2)["bids"] == [None, None, card]
    for seat in (0, 1, None):
        shown = R.view(state, seat)
        assert shown["bids"] == [None, None, "sealed"]
        assert card not in set(strings_in(shown))
    assert R.describe(state, 0, {"type": "bid", "card": numbers(state, 0)[0]}) == "placed a sealed bid"
    state = bid(state, {0: numbers(state, 0)[0], 1: numbers(state, 1)[0]})
    assert state["phase"] == "take"
    assert R.view(state, 0)["reveals"][0][2] == card


def test_it_lets_the_highest_bid_choose_first_then_the_next() -> None:
    state = bet_low(deal(3, ["2C", "3D", "4H", "AS", "KS", "QS"], seed=5))
    cards = {0: numbers(state, 0)[0], 1: numbers(state, 1)[1], 2: numbers(state, 2)[-1]}
    state = bid(state, cards)
    expected = sorted(range(3), key=lambda s: R.bid_value(cards[s]), reverse=True)
    assert state["order"] == expected
    assert R.to_act(state) == [expected[0]]
    state = act(state, expected[0], "take", "KS")
    assert R.to_act(state) == [expected[1]]
    refused(state, expected[2], {"type": "take", "card": "AS"}, "not your turn")
    state = act(state, expected[1], "take", "hidden")
    # The last taker gets the last card without acting.
    assert state["round"] == 1 and state["phase"] == "bid"
    assert state["hands"][expected[0]][-1] == "KS"
    assert state["hands"][expected[1]][-1] == "QS"
    assert state["hands"][expected[2]][-1] == "AS"


def test_it_lets_a_lone_rapscallion_beat_every_number() -> None:
    state = bet_low(deal(3, seed=7))
    rap = raps(state, 0)[0]
    state = bid(state, {0: rap, 1: numbers(state, 1)[-1], 2: numbers(state, 2)[-1]})
    assert state["phase"] == "take" and state["order"][0] == 0
    assert state["spent"][0] == [rap]


def test_it_cancels_two_rapscallions_and_asks_only_those_seats_to_bid_again() -> None:
    state = bet_low(deal(3, seed=8))
    first = {0: raps(state, 0)[0], 1: raps(state, 1)[0], 2: numbers(state, 2)[0]}
    state = bid(state, first)
    assert state["phase"] == "bid" and R.to_act(state) == [0, 1]
    assert state["spent"][0] == [first[0]] and state["spent"][1] == [first[1]]
    assert R.view(state, 2)["reveals"] == [[first[0], first[1], first[2]]]
    # The other Rapscallion is allowed in the re-bid.
    assert {"type": "bid", "card": raps(state, 0)[0]} in R.legal_actions(state, 0)
    refused(state, 2, {"type": "bid", "card": numbers(state, 2)[0]}, "not your turn")
    state = act(state, 1, "bid", numbers(state, 1)[0])
    assert R.to_act(state) == [0]
    assert R.view(state, 0)["bids"][1] == "sealed"
    state = act(state, 0, "bid", raps(state, 0)[0])
    assert state["order"][0] == 0
    rest = sorted((1, 2), key=lambda s: R.bid_value(state["final"][s]), reverse=True)
    assert state["order"][1:] == rest
    assert not raps(state, 0)


def test_it_cancels_again_when_the_re_bids_are_rapscallions_too() -> None:
    state = bet_low(deal(3, seed=9))
    state = bid(state, {s: raps(state, s)[0] for s in range(3)})
    assert R.to_act(state) == [0, 1, 2]
    low = numbers(state, 2)[0]
    state = bid(state, {0: raps(state, 0)[0], 1: raps(state, 1)[0], 2: low})
    assert R.to_act(state) == [0, 1]
    assert state["final"] == [None, None, low]
    state = bid(state, {0: numbers(state, 0)[-1], 1: numbers(state, 1)[0]})
    assert state["phase"] == "take"
    assert [len(spent) for spent in state["spent"]] == [2, 2, 1]
    assert len(state["reveals"]) == 3


def test_it_ranks_a_seat_that_cannot_re_bid_last() -> None:
    """Unreachable with the printed sets (see the rules page), decided anyway."""
    state = bet_low(deal(3, seed=10))
    state = dict(state, bidding=[raps(state, 0)[:1], raps(state, 1)[:1], state["bidding"][2]])
    state = bid(state, {0: state["bidding"][0][0], 1: state["bidding"][1][0], 2: numbers(state, 2)[0]})
    assert state["phase"] == "take"
    assert state["order"] == [2, 0, 1]
    assert state["final"][:2] == [None, None]


def test_it_uses_up_rapscallions_for_the_hand_even_when_cancelled() -> None:
    state = bet_low(deal(2, seed=11))
    rap0, rap1 = raps(state, 0)[0], raps(state, 1)[0]
    state = bid(state, {0: rap0, 1: rap1})
    state = bid(state, {0: numbers(state, 0)[0], 1: numbers(state, 1)[0]})
    state = first_legal_until(state, lambda s: s["round"] == 3)
    assert rap0 not in state["bidding"][0] and rap1 not in state["bidding"][1]
    assert state["spent"] == [[rap0], [rap1]]


def test_it_sets_number_cards_aside_until_the_next_bidding_card_round() -> None:
    state = bet_low(deal(2, seed=12))
    used = numbers(state, 0)[0]
    state = take_first(bid(state, {0: used, 1: numbers(state, 1)[0]}))
    assert state["aside"][0] == [used]
    assert {"type": "bid", "card": used} not in R.legal_actions(state, 0)
    state = take_first(bid_low(state))
    assert state["round"] == 2
    state = take_first(bid(state, {0: state["hands"][0][0], 1: state["hands"][1][0]}))
    assert state["round"] == 3
    assert used in state["bidding"][0] and state["aside"] == [[], []]


# --- bidding-card rounds -----------------------------------------------------------------------


def _to_bidding_round(top: list[str], gtop: list[int] = ()) -> State:
    state = bet_low(deal(2, top, gtop, seed=13))
    return take_first(bid_low(take_first(bid_low(state))))


def test_it_bids_playing_cards_for_bidding_cards_ace_high() -> None:
    state = _to_bidding_round(["AC", "KS", "2D", "3D", "4D", "5H", "6H", "7H"], [25, 30, 19])
    assert state["round"] == 2 and state["centre"] == ["B25", "B30", "hidden"] and state["down"] == "B19"
    state = bid(state, {0: "AC", 1: "KS"})
    assert state["order"] == [0, 1]
    assert "AC" in state["out"] and "KS" in state["out"]
    assert "AC" not in state["hands"][0]
    state = act(state, 0, "take", "B30")
    state = act(state, 1, "take", "hidden")
    assert "B30" in state["bidding"][0] and "B19" in state["bidding"][1]
    assert state["discard"][-1] == "B25"
    assert "B19" not in set(strings_in(R.view(state, 0)))
    assert "B19" in R.view(state, 1)["bidding_cards"]


def test_it_breaks_equal_playing_card_bids_by_suit_rank() -> None:
    for low, high in [("9H", "9S"), ("9D", "9H"), ("9C", "9D")]:
        state = _to_bidding_round([low, high, "2D", "3D", "4D", "5C", "6C", "7C"])
        state = bid(state, {0: low, 1: high})
        assert state["order"] == [1, 0]


def test_it_refuses_a_bidding_card_as_a_bid_in_a_bidding_card_round() -> None:
    state = _to_bidding_round(["AC", "KS", "2D", "3D", "4D", "5H", "6H", "7H"])
    refused(state, 0, {"type": "bid", "card": raps(state, 0)[0]}, "not a playing card in your hand")


# --- the face-down centre card -------------------------------------------------------------------


def test_it_shows_the_face_down_card_only_to_its_taker() -> None:
    state = bet_low(deal(3, ["2C", "3D", "4H", "AS", "KS", "QS"], seed=14))
    state = bid(state, {0: numbers(state, 0)[0], 1: numbers(state, 1)[-1], 2: numbers(state, 2)[0]})
    taker = state["order"][0]
    assert R.describe(state, taker, {"type": "take", "card": "hidden"}) == "took the face-down card"
    state = act(state, taker, "take", "hidden")
    assert "QS" in R.view(state, taker)["hand"]
    assert R.view(state, taker)["takes"][0]["card"] == "QS"
    for seat in [s for s in range(3) if s != taker] + [None]:
        shown = R.view(state, seat)
        assert shown["takes"][0] == {"seat": taker, "card": "hidden", "face_down": True}
        assert "QS" not in set(strings_in(shown))


def test_it_shows_face_up_takes_to_everyone_as_known_cards() -> None:
    state = bet_low(deal(3, ["2C", "3D", "4H", "AS", "KS", "QS"], seed=15))
    state = bid(state, {0: numbers(state, 0)[-1], 1: numbers(state, 1)[0], 2: numbers(state, 2)[0]})
    taker = state["order"][0]
    state = act(state, taker, "take", "AS")
    for seat in (0, 1, 2, None):
        assert R.view(state, seat)["known"][taker] == ["AS"]
        assert "2C" not in set(strings_in(R.view(state, 1)))


# --- two and six players ------------------------------------------------------------------------------


def test_it_lays_one_more_face_up_card_for_two_players_and_discards_the_leftover() -> None:
    state = bet_low(deal(2, ["2C", "3D", "AS", "KS", "QS"], seed=16))
    assert state["centre"] == ["AS", "KS", "hidden"] and state["down"] == "QS"
    state = bid(state, {0: numbers(state, 0)[-1], 1: numbers(state, 1)[0]})
    first, second = state["order"]
    state = act(state, first, "take", "KS")
    assert R.to_act(state) == [second] and len(R.legal_actions(state, second)) == 2
    state = act(state, second, "take", "AS")
    assert state["round"] == 1 and state["buried_cards"] == ["QS"]
    assert R.view(state, None)["buried"] == 1 and "QS" not in set(strings_in(R.view(state, first)))


def test_it_reshuffles_the_bid_away_cards_for_the_last_two_rounds_at_six() -> None:
    state = bet_low(deal(6, seed=17))
    before = first_legal_until(state, lambda s: s["round"] == 8 and s["phase"] == "take")
    assert len(before["stock"]) == 4 and len(before["out"]) == 12
    assert all(len(hand) == 5 for hand in before["hands"])
    after = take_first(before)
    pile = shuffled(before["stock"] + before["out"], 17, "hand", 0, "reshuffle")
    assert after["round"] == 9 and after["out"] == []
    assert after["centre"][:-1] + [after["down"]] == pile[:6] and after["stock"] == pile[6:]
    assert all(len(hand) == 6 for hand in after["hands"])
    last = take_first(bid_low(take_first(bid_low(after))))
    assert last["phase"] == "over" or last["hand_no"] == 1


def test_it_does_not_reshuffle_below_six_players() -> None:
    state = bet_low(deal(5, seed=18))
    before = first_legal_until(state, lambda s: s["round"] == 8 and s["phase"] == "take")
    after = take_first(before)
    assert after["centre"][:-1] + [after["down"]] == before["stock"][:5]
    assert after["out"] == before["out"] and len(after["out"]) == 10


# --- illegal actions -------------------------------------------------------------------------------


def test_it_refuses_bad_actions_with_sentences_and_changes_nothing() -> None:
    state = deal(3, seed=21)
    mine = numbers(state, 0)[0]
    refused(state, 0, {"type": "bid", "card": mine}, "side bet")
    refused(state, 0, {"type": "side_bet", "card": "B30"}, "not a bidding card in your hand")
    refused(state, 0, {"type": "side_bet", "card": mine, "extra": 1}, "side bet")
    refused(state, 0, None, "side bet")
    refused(state, 7, {"type": "side_bet", "card": mine}, "no seat 7")
    state = bet_low(state)
    refused(state, 1, {"type": "bid", "card": numbers(state, 0)[-1]}, "not a bidding card in your hand")
    refused(state, 1, {"type": "take", "card": state["centre"][0]}, "place a sealed bid")
    state = bid_low(state)
    taker = R.to_act(state)[0]
    refused(state, taker, {"type": "take", "card": "2H" if "2H" not in state["centre"] else "3H"}, "not in the centre")
    over = first_legal_until(bet_low(deal(2, seed=22, target=10)), R.is_over)
    refused(over, 0, {"type": "take", "card": "hidden"}, "match is over")


# --- views -------------------------------------------------------------------------------------------


def test_it_gives_seated_and_spectator_views_that_show_only_what_they_may() -> None:
    state = deal(3, ["2C", "3D", "4H", "AS", "KS", "QS"], seed=23)
    state = act(state, 0, "side_bet", numbers(state, 0)[0])
    spectator = R.view(state, None)
    assert "hand" not in spectator and "seat" not in spectator
    assert not {"2C", "3D", "4H", numbers(state, 0)[0]} & set(strings_in(spectator))
    assert spectator["holding"] == [[1, 4], [1, 5], [1, 5]]
    seated = R.view(state, 1)
    assert seated["hand"] == ["3D"] and seated["bidding_cards"] == state["bidding"][1]
    assert not set(state["bidding"][0] + state["bidding"][2]) & set(strings_in(seated))
    json.dumps(seated)


def test_it_hides_which_card_a_seat_sealed_even_when_its_cards_are_known() -> None:
    """Another seat's view is the same whichever of its cards the bidder sealed."""
    state = _to_bidding_round(["AC", "KS", "2D", "3D", "4D", "5H", "6H", "7H"])
    views = set()
    for card in state["hands"][1]:
        sealed = act(state, 1, "bid", card)
        views.add(json.dumps([R.view(sealed, 0), R.view(sealed, None)], sort_keys=True))
    assert len(views) == 1


def test_it_never_reveals_a_sealed_bid_side_bet_or_face_down_card_early_along_a_match() -> None:
    rng = random.Random(24)
    state = R.new_match(4, None, seed=24)
    while not R.is_over(state):
        for seat in [None, 0, 1, 2, 3]:
            words = set(strings_in(R.view(state, seat)))
            secrets = {c for s, c in enumerate(state["sealed"]) if c and s != seat}
            secrets |= {c for s, c in enumerate(state["side_bet"]) if c and s != seat}
            secrets -= {c for s in range(4) if s != seat for c in state["known"][s]}
            if state["down"]:
                secrets.add(state["down"])
            assert not secrets & words
        seat = rng.choice(R.to_act(state))
        state = R.apply(state, seat, rng.choice(R.legal_actions(state, seat)))


def test_it_labels_cards_for_people() -> None:
    assert R.card_label("TH") == "10♥"
    assert R.card_label("B7") == "7 (bidding card)"
    assert R.card_label("R-red-1") == "Rapscallion (red)"
    assert R.card_label("hidden") == "the face-down card"
