"""Renfield for the tests: the variants a match can be played with, the two oracles of the invariants
(where every card lies, what a seat may not see), and stacked deals with scripted play for the rule
scenarios (``options["deck"]``)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine import IllegalAction
from engine import renfield as game
from tests.engine.invariants import assert_cards_conserved, assert_view_hides

VARIANTS: list[dict] = [
    {},
    {"auction": True},
    {"blaze": True},
    {"death_card": True},
    {"death_card": True, "death_all_suits": True, "death_cards": ["T13", "P2"]},
    {"draw": True},
    {"draw": True, "draw_bet": 3},
    {"flatline": True},
    {"flatline": True, "flatline_zeroes": True},
    {"stud": True},
    {"wild_cards": True},
    {"wild_cards": True, "wilds": ["S17"]},
    {"breathing_room": True},
    {"buying_the_trick": True},
    {"deck_values": {"bugs": [2] * 17, "dollars": list(range(17))}},
]
COMBOS: list[dict] = [
    {"auction": True, "draw": True, "wild_cards": True},
    {"blaze": True, "death_card": True, "buying_the_trick": True},
    {"flatline": True, "flatline_zeroes": True, "stud": True, "auction": True},
    {"breathing_room": True, "draw": True, "death_card": True, "death_all_suits": True},
    {"blaze": True, "flatline": True, "draw": True, "wild_cards": True},
    {"auction": True, "blaze": True, "breathing_room": True, "buying_the_trick": True},
    {"stud": True, "wild_cards": True, "death_card": True, "buying_the_trick": True, "blaze": True},
    {
        "auction": True,
        "draw": True,
        "wild_cards": True,
        "death_card": True,
        "buying_the_trick": True,
        "breathing_room": True,
        "flatline": True,
    },
]


def locations(state: dict) -> list[str]:
    """Every one of the 54 cards wherever it lies now."""
    cards = list(state["deck"]) + state["keys"] + state["pack"] + state["draw_pile"]
    cards += state["discards"] + state["removed"] + [p["card"] for p in state["trick"]]
    for seat in range(state["players"]):
        cards += state["hands"][seat] + state["taken"][seat] + state["laid_down"][seat]
    if state["auction"] and state["auction"]["offer"]:
        cards.append(state["auction"]["offer"])
    return cards


def hidden(state: dict, seat: int | None) -> set[str]:
    """The deck, the auction pack, the draw pile and laid-down hands are
    unseen by all; other seats' hands except their face-up cards."""
    unseen = set(state["deck"]) | set(state["pack"]) | set(state["draw_pile"])
    for other in range(state["players"]):
        unseen.update(state["laid_down"][other])
        if other != seat:
            unseen.update(set(state["hands"][other]) - set(state["shown"][other]))
    return unseen


def allowed(players: int, options: dict) -> bool:
    try:
        game.validate_options(players, options)
    except ValueError:
        return False
    return True


# --- stacked deals and scripted play ---------------------------------------------------------------

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


def first_legal_until(state: dict, done: Any) -> dict:
    """Play on, a card where one is legal and else the first legal action, until ``done(state)``."""
    while not done(state):
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        state = game.apply(state, seat, next((a for a in legal if a["type"] == "play"), legal[0]))
    return state


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

# The auction's pack, on top of the deck after the deal.
PACK = ("S10", "T10", "P12", "S11", "T11", "P13", "S9")
# Hands for the Wild Cards scenarios, where Tools 1 is the wild.
WILD = [
    ["P9", "T3", "T4", "T6", "T7", "T8"],
    ["T1", "P5", "T10", "T11", "T13", "T14"],
    ["S2", "T15", "T16", "T17", "T5", "S3"],
]
