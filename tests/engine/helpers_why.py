"""Situations for the "why" tests of Renfield and Rapscallion: each builds, on a stacked deck, the one
situation a rule id names and returns the state and the reasons the engine gave (``reasons``) for every
action on the way. The engine tests check the structured reasons, the presenter tests their sentences."""

from __future__ import annotations

from typing import Any

from engine import rapscallion as R
from engine import renfield as game
from tests.engine.helpers_renfield import (
    ALL_PASS,
    FEWEST,
    FEWEST_PLAY,
    FOLDS,
    TIE,
    TIE_PLAY,
    UNIFORM,
    WILD,
    parse,
    start,
)

Reasons = list[dict[str, Any]]

# Renfield: seat 0 deals and leads after three passes; seat 1 holds no Parts, so its Tools 5 beats the
# Parts led in the order T > P > S, and the Parts 2 doubles the price.
HIGHER = [
    ["P2", "T3", "P3", "P4", "S3", "S4"],
    ["T16", "T5", "S5", "S6", "S8", "S9"],
    ["P17", "T4", "P7", "P8", "S7", "S10"],
]
DEATH = [
    ["T15", "T11", "P3", "P4", "S3", "S4"],
    ["T9", "S7", "P5", "P6", "S5", "S6"],
    ["T13", "T14", "P7", "P8", "S8", "S9"],
]
FLAT = [
    ["T9", "T5", "P3", "P4", "S3", "S4"],
    ["P9", "P5", "P6", "P7", "S5", "S6"],
    ["S9", "T4", "T3", "P8", "S8", "S7"],
]
ZERO = [
    ["T0", "T5", "P3", "P4", "S3", "S4"],
    ["P17", "P5", "P6", "P7", "S5", "S6"],
    ["T1", "T2", "T3", "P8", "S8", "S7"],
]
LONE = [
    ["T2", "T5", "T10", "T12", "P2", "P5"],  # not one bug: the Blaze hand fails
    ["T16", "T4", "P6", "P11", "S3", "S13"],
    ["T15", "T3", "P7", "P13", "S4", "S14"],
]


def settle(state: dict[str, Any], *steps: Any, engine: Any = game) -> tuple[dict[str, Any], Reasons]:
    """Play ``steps`` (Renfield's short forms, or actions) and gather the reasons of every one."""
    found: Reasons = []
    for step in steps:
        before = state
        action = parse(step) if engine is game else step
        seat = engine.to_act(state)[0] if engine is game else action.pop("seat")
        state = engine.apply(state, seat, action)
        found += engine.reasons(before, state)
    return state, found


def of(found: Reasons, kind: str) -> Reasons:
    return [r for r in found if r["kind"] == kind]


def renfield_case(rule: str) -> tuple[dict[str, Any], Reasons]:
    """The state and reasons of the situation that Renfield's rule ``rule`` decides."""
    cases: dict[str, tuple[Any, tuple[Any, ...]]] = {
        "highest_of_led_suit": (lambda: start(FEWEST), (*ALL_PASS, "order:TPS", "T17", "T1", "T5")),
        "higher_suit": (lambda: start(HIGHER), (*ALL_PASS, "order:TPS", "P2", "T5", "P17")),
        "equal_card_earlier": (
            lambda: start(WILD, wild_cards=True, wilds=["T1"]),
            (*ALL_PASS, "order:TPS", "P9", "T1=P9", "S3"),
        ),
        "wild": (lambda: start(WILD, wild_cards=True, wilds=["T1"]), (*ALL_PASS, "order:TPS", "P9", "T1=P17", "S3")),
        "highest_rank": (lambda: start(FLAT, flatline=True), (*ALL_PASS, "T5", "P9", "T4")),
        "equal_rank_later": (
            lambda: start([FLAT[0], FLAT[1], ["S9", "P10", "P11", "P8", "S8", "S7"]], flatline=True),
            (*ALL_PASS, "T9", "P9", "S9"),
        ),
        "zero_led": (lambda: start(ZERO, flatline=True, flatline_zeroes=True), (*ALL_PASS, "T0", "P17", "T1")),
        "death_card": (
            lambda: start(DEATH, death_card=True),
            (*ALL_PASS, "order:TPS", "T15", "T9", "T13", "T11", "S7", "T14"),
        ),
        "last_seat_in": (lambda: start(FEWEST, draw=True), ("bet", "fold", "fold")),
        "fewest_bugs": (lambda: start(FEWEST), (*ALL_PASS, *FEWEST_PLAY)),
        "split_pot": (lambda: start(TIE, deck_values=UNIFORM), (*ALL_PASS, *TIE_PLAY)),
        "no_bugs": (lambda: start(TIE, deck_values={"bugs": [0] * 17, "dollars": [1] * 17}), (*ALL_PASS, *TIE_PLAY)),
        "blaze_made": (
            lambda: start(TIE, blaze=True, deck_values=UNIFORM),
            ("pass", "pass", "bid:12", *TIE_PLAY),
        ),
        "blaze_failed": (lambda: start(LONE, blaze=True, draw=True, hands=2), ("fold", "fold")),
        "buying_the_trick": (lambda: start(FOLDS, buying_the_trick=True), (*ALL_PASS, "order:TPS", "T17", "buy")),
    }
    make, steps = cases[rule]
    return settle(make(), *steps)


# --- Rapscallion: crafted states at the moment a rule decides ------------------------------------------


def rapscallion_at(players: int, done: Any, seed: int = 1, **options: Any) -> dict[str, Any]:
    """A seeded match played by its first legal actions until ``done(state)``."""
    state = R.new_match(players, options or None, seed=seed)
    while not done(state):
        seat = R.to_act(state)[0]
        state = R.apply(state, seat, R.legal_actions(state, seat)[0])
    return state


def showdown(
    hands: list[list[str]], side_bets: list[str], bidding: list[list[str]], **options: Any
) -> tuple[dict[str, Any], Reasons]:
    """The last round's takes, crafted so that each seat ends the hand holding ``hands[seat]`` (eight cards
    each), with ``side_bets`` in the side bet and ``bidding`` left in hand: the state after the showdown and
    the reasons of those takes. Before it, the match was played by its first legal actions."""
    n = len(hands)
    state = rapscallion_at(n, lambda s: s["phase"] == "take" and s["round"] == R.LAST_ROUND, **options)
    order = state["order"]
    spare = next(c for c in R.PLAYING_DECK if all(c not in h for h in hands))
    if n == 2:
        centre, down = [hands[order[0]][-1], hands[order[1]][-1], R.HIDDEN], spare
    else:
        centre, down = [*(hands[s][-1] for s in order[:-1]), R.HIDDEN], hands[order[-1]][-1]
    state = {
        **state,
        "hands": [list(h[:-1]) for h in hands],
        "side_bet": list(side_bets),
        "bidding": [list(b) for b in bidding],
        "centre": centre,
        "down": down,
    }
    steps = [{"seat": s, "type": "take", "card": centre[k]} for k, s in enumerate(order[: 2 if n == 2 else n - 1])]
    return settle(state, *steps, engine=R)


def reveal(
    kind: str, bids: list[str], hands: list[list[str]] | None = None, bidding: list[list[str]] | None = None
) -> tuple[dict[str, Any], Reasons]:
    """The first round of ``kind`` ("P" or "B") with every seat bidding ``bids[seat]``; in a bidding-card
    round the seats first hold ``hands`` (their playing cards), in a playing-card round their own bidding
    cards and the bid (or exactly ``bidding``)."""
    n = len(bids)
    state = rapscallion_at(n, lambda s: s["phase"] == "bid" and R.PLAN[s["round"]] == kind and len(s["asked"]) == n)
    if kind == "B":
        state = {**state, "hands": [list(h) for h in hands or []]}
    else:
        held = bidding or [sorted({*b, bids[s]}) for s, b in enumerate(state["bidding"])]
        state = {**state, "bidding": [list(b) for b in held]}
    return settle(state, *({"seat": s, "type": "bid", "card": card} for s, card in enumerate(bids)), engine=R)
