"""Rentz's layout game, one scenario per rule of the digest on stacked decks: Jacks open the rows, rows grow
one rank at a time, a pass only without a playable card, and the order players go out pays 200, 150, 100, 50."""

from __future__ import annotations

import copy

import pytest

from engine import IllegalAction, rentz
from tests.engine.helpers_rentz import (
    BY_SUIT,
    MAX_HAND_STEPS,
    at_hand,
    layout_table,
    play,
    play_layout_hand,
    start,
)

# --- the rentz layout game ------------------------------------------------------------------


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
    first, _, _ = play_layout_hand(start(table, "rentz"))
    # The same table turned one seat on, dealt by seat 1: the same game, every seat one on.
    state = at_hand(5, [table[(s - 1) % 4] for s in range(4)])
    state = rentz.apply(state, 1, {"type": "choose", "game": "rentz"})
    assert rentz.to_act(state) == [1], "the dealer plays first"
    assert rentz.legal_actions(state, 1) == [{"type": "play", "card": "JC"}]
    state = play(state, 1, "JC")
    assert rentz.to_act(state) == [2]
    state, _, _ = play_layout_hand(state)
    record, original = state["history"][-1], first["history"][-1]
    assert record["order"] == [(s + 1) % 4 for s in original["order"]]
    assert record["points"] == [original["points"][(s - 1) % 4] for s in range(4)]


def test_it_refuses_a_pass_in_a_trick_game() -> None:
    state = start(BY_SUIT, "acool")
    with pytest.raises(IllegalAction, match="cannot pass"):
        rentz.apply(state, 0, {"type": "pass"})


def test_it_skips_a_player_who_is_out_and_pays_200_150_100_50() -> None:
    state, order, actors = play_layout_hand(start(layout_table(), "rentz"))
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
