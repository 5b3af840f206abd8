"""Rapscallion for the tests: every card a match is played with and the two oracles of the invariants
(where every card lies, what a seat may not see), and stacked deals with the steps of a round for the
rule scenarios."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine import IllegalAction
from engine import rapscallion as R

State = dict[str, Any]


def full_deck(players: int, seed: int, options: dict[str, Any]) -> list[str]:
    state = R.new_match(players, options, seed=seed)
    values = state["options"]["bidding_values"]
    colours = [card for colour in state["colours"] for card in R.colour_set(values, colour)]
    return R.PLAYING_DECK + R.general_deck(values) + colours


def locations(state: dict[str, Any]) -> list[str]:
    where = [c for group in ("hands", "bidding", "aside", "spent") for cards in state[group] for c in cards]
    where += [c for c in state["side_bet"] + state["sealed"] if c is not None]
    where += [c for c in state["centre"] if c != R.HIDDEN] + ([state["down"]] if state["down"] is not None else [])
    for pile in ("stock", "bidding_stock", "out", "discard", "buried_cards", "buried_bidding_cards"):
        where += state[pile]
    return where


def hidden(state: dict[str, Any], seat: int | None) -> set[str]:
    """The decks, face-down cards, and every other seat's cards, sealed bid and side
    bet, less the cards that seat was seen to take (a sealed one among them is
    still shown as held, so it says nothing about the bid: see the swap test)."""
    secret = set(state["stock"]) | set(state["bidding_stock"]) | set(state["buried_cards"])
    secret |= set(state["buried_bidding_cards"])
    if state["down"] is not None:
        secret.add(state["down"])
    over = state["phase"] == "over"
    for other in range(state["players"]):
        if other == seat:
            continue
        theirs = set(state["hands"][other]) | set(state["bidding"][other])
        if state["sealed"][other] is not None:
            theirs.add(state["sealed"][other])
        if state["side_bet"][other] is not None and not over:
            theirs.add(state["side_bet"][other])
        secret |= theirs - set(state["known"][other])
    return secret


# --- stacked deals and the steps of a round ---------------------------------------------------------


def stacked(top: list[str]) -> list[str]:
    """A full playing deck with ``top`` first, the rest in the fixed order."""
    return list(top) + [c for c in R.PLAYING_DECK if c not in top]


def general_stacked(top: list[int]) -> list[str]:
    codes = [f"B{v}" for v in top]
    return codes + [c for c in R.general_deck(R.DEFAULT_VALUES) if c not in codes]


def deal(players: int, top: list[str] = (), gtop: list[int] = (), seed: int = 1, **options: Any) -> State:
    if top:
        options["deck"] = stacked(list(top))
    if gtop:
        options["bidding_deck"] = general_stacked(list(gtop))
    return R.new_match(players, options, seed=seed)


def act(state: State, seat: int, kind: str, card: str) -> State:
    return R.apply(state, seat, {"type": kind, "card": card})


def numbers(state: State, seat: int) -> list[str]:
    """The seat's number bidding cards, lowest first."""
    return sorted((c for c in state["bidding"][seat] if c.startswith("B")), key=R.bid_value)


def raps(state: State, seat: int) -> list[str]:
    return [c for c in state["bidding"][seat] if R.is_rapscallion(c)]


def bet_low(state: State) -> State:
    for seat in range(state["players"]):
        state = act(state, seat, "side_bet", numbers(state, seat)[0])
    return state


def bid(state: State, cards: dict[int, str]) -> State:
    for seat in sorted(cards):
        state = act(state, seat, "bid", cards[seat])
    return state


def bid_low(state: State) -> State:
    """Every asked seat bids its lowest number card (a playing-card round)."""
    return bid(state, {s: numbers(state, s)[0] for s in R.to_act(state)})


def take_first(state: State) -> State:
    """Takers take the first face-up card until the round ends."""
    round_no = state["round"]
    while state["phase"] == "take" and state["round"] == round_no:
        seat = R.to_act(state)[0]
        state = R.apply(state, seat, R.legal_actions(state, seat)[0])
    return state


def first_legal_until(state: State, done: Any) -> State:
    while not done(state):
        seat = R.to_act(state)[0]
        state = R.apply(state, seat, R.legal_actions(state, seat)[0])
    return state


def refused(state: State, seat: int, action: Any, fragment: str) -> None:
    frozen = copy.deepcopy(state)
    with pytest.raises(IllegalAction, match=fragment):
        R.apply(state, seat, action)
    assert state == frozen
