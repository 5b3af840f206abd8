"""Karnoffel for the tests: the two oracles of the invariants (where every card lies, what a seat may not
see), and stacked deals played card by card for the rule scenarios and the bots."""

from __future__ import annotations

from typing import Any

from engine import karnoffel as K


def locations(state: dict) -> list[str]:
    where = [c for hand in state["hands"] for c in hand]
    where += [p["card"] for p in state["trick"]]
    where += [p["card"] for t in state["tricks"] for p in t["cards"]]
    return where + list(state["set_aside"])


def hidden(state: dict, seat: int | None) -> set[str]:
    """Other seats' hands except their face-up cards, and the set-aside pile."""
    secret = set(state["set_aside"])
    for other, hand in enumerate(state["hands"]):
        if other != seat:
            secret.update(hand)
    return secret - set(state["face_up"])


DEAL_ORDER = [1, 2, 3, 0]  # seat 0 deals the first hand


def stacked(hands: list[list[str]]) -> list[str]:
    """A deck giving ``hands[seat]`` to each seat, ``hands[seat][0]`` face up."""
    deck = [hands[s][0] for s in DEAL_ORDER]
    deck += [hands[s][r] for r in range(1, 5) for s in DEAL_ORDER]
    return deck + [c for c in K.DECK if c not in deck]


def start(hands: list[list[str]], **options: Any) -> dict[str, Any]:
    return K.new_match(4, {"deck": stacked(hands), **options}, seed=1)


def play(state: dict[str, Any], *codes: str) -> dict[str, Any]:
    """Each code is played by whoever is to act."""
    for code in codes:
        state = K.apply(state, state["turn"], {"type": "play", "card": code})
    return state
