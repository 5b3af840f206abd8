"""Situations for the reason tests: a Karnoffel trick played by seats 1, 2, 3, 0 with a chosen trump, Rentz hands
played out by a simple rule, and the cards each reason names."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from engine import karnoffel as K
from engine import rentz as R

CARD_KEYS = ("card", "over", "led")
CARD_LIST_KEYS = ("cards", "off_suit")


def karnoffel_trick(trump: str, plays: list[str], **options: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The state before the trick's last card and after it: seats 1, 2, 3, 0 play ``plays``, ``trump`` is trump.

    A crafted state: the first hand's deal with each seat's hand replaced (its first card is the one it plays)
    and the trump set, which is what the face-up round would have fixed.
    """
    state = K.new_match(4, options, seed=1)
    rest = iter(c for c in K.DECK if c not in plays)
    hands: list[list[str]] = [[] for _ in range(4)]
    for seat, code in zip([1, 2, 3, 0], plays, strict=True):
        hands[seat] = [code] + [next(rest) for _ in range(4)]
    state = {**state, "hands": hands, "trump": trump}
    for code in plays[:-1]:
        state = K.apply(state, state["turn"], {"type": "play", "card": code})
    return state, K.apply(state, state["turn"], {"type": "play", "card": plays[-1]})


def named_cards(reason: dict[str, Any]) -> set[str]:
    """Every card code a reason names."""
    codes = {reason[k] for k in CARD_KEYS if isinstance(reason.get(k), str)}
    for key in CARD_LIST_KEYS:
        codes.update(reason.get(key) or [])
    return codes


Policy = Callable[[dict[str, Any], int, list[dict[str, Any]]], dict[str, Any]]


def first_legal(state: dict[str, Any], seat: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
    return legal[0]


def rentz_steps(
    game: str, *, options: dict[str, Any] | None = None, policy: Policy = first_legal
) -> Iterator[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """``(before, action, after)`` for each step of the first Rentz hand, ``game`` chosen, up to its end."""
    state = R.new_match(4, options, seed=3)
    state = R.apply(state, 0, {"type": "choose", "game": game})
    while state["hand_no"] == 0 and not R.is_over(state):
        seat = R.to_act(state)[0]
        action = policy(state, seat, R.legal_actions(state, seat))
        after = R.apply(state, seat, action)
        yield state, action, after
        state = after
