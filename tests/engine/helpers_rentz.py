"""Rentz for the tests: the two oracles of the invariants (where every card lies, what a seat may not
see), stacked deals, and hands played to their end for the rule scenarios."""

from __future__ import annotations

import random
from typing import Any

from engine import rentz
from engine.cards import french_deck

DECK = french_deck()
CLUBS, DIAMONDS, HEARTS, SPADES = ([r + s for r in "23456789TJQKA"] for s in "CDHS")


def locations(state: dict) -> list[str]:
    """Every card: in a hand, in the trick on the table, in a taken trick, or on the layout."""
    cards = [c for hand in state["hands"] for c in hand]
    cards += state["trick_cards"]
    cards += [c for trick in state["tricks"] for c in trick["cards"]]
    cards += rentz.layout_cards(state["rows"])
    return cards


def hidden(state: dict, seat: int | None) -> set[str]:
    """Other seats' hands; everything played is face up."""
    return {c for s, hand in enumerate(state["hands"]) if s != seat for c in hand}


def stacked(hands: list[list[str]], dealer: int = 0) -> list[str]:
    """The deck that deals ``hands[seat]`` to each seat: one card at a time from the dealer's left."""
    assert sorted(c for h in hands for c in h) == sorted(DECK)
    deck = []
    for k in range(13):
        for j in range(4):
            deck.append(hands[(dealer + 1 + j) % 4][k])
    return deck


def start(hands: list[list[str]], game: str, **options: Any) -> dict:
    state = rentz.new_match(4, {"deck": stacked(hands), **options}, seed=1)
    return rentz.apply(state, 0, {"type": "choose", "game": game})


def play(state: dict, seat: int, card: str) -> dict:
    return rentz.apply(state, seat, {"type": "play", "card": card})


def play_trick(state: dict, cards: list[str]) -> dict:
    """Play one trick: ``cards`` in play order from the seat to act."""
    for card in cards:
        state = play(state, rentz.to_act(state)[0], card)
    return state


MAX_HAND_STEPS = 1000  # far more than any hand needs: 52 plays and a few hundred passes at most

# The simplest table: each seat holds one whole suit, so nobody can ever follow.
BY_SUIT = [CLUBS, DIAMONDS, HEARTS, SPADES]


def finish_hand(state: dict, rng: random.Random) -> dict:
    hand = state["hand_no"]
    for _ in range(MAX_HAND_STEPS):
        if rentz.is_over(state) or state["hand_no"] != hand:
            return state
        seat = rentz.to_act(state)[0]
        state = rentz.apply(state, seat, rng.choice(rentz.legal_actions(state, seat)))
    raise AssertionError("the hand never ended")


def finish_match(state: dict, rng: random.Random) -> dict:
    for _ in range(20):
        state = finish_hand(state, rng)
    assert rentz.is_over(state)
    return state


def at_hand(hand_no: int, hands: list[list[str]], seed: int = 1) -> dict:
    """The state as hand ``hand_no`` is dealt (random play before it), with ``hands`` put in place of its deal.

    Only the first hand can be stacked, so a later dealer's table is set up by replacing the dealt cards.
    """
    assert sorted(c for h in hands for c in h) == sorted(DECK)
    state = rentz.new_match(4, None, seed=seed)
    rng = random.Random(seed)
    for _ in range(hand_no):
        state = finish_hand(state, rng)
    assert state["hand_no"] == hand_no and state["phase"] == "choose"
    return {**state, "hands": [sorted(h, key=DECK.index) for h in hands]}


def layout_table() -> list[list[str]]:
    return [
        ["JC", "TC", "9C", "QC", "2C", "3D", "4D", "5D", "6D", "7D", "2H", "3H", "4H"],
        ["JD", "TD", "QD", "KD", "AD", "8D", "9D", "2D", "5H", "6H", "7H", "8H", "9H"],
        ["JH", "JS", "TH", "QH", "KH", "AH", "2S", "3S", "4S", "5S", "6S", "7S", "8S"],
        ["KC", "AC", "8C", "7C", "6C", "5C", "4C", "3C", "9S", "TS", "QS", "KS", "AS"],
    ]


def play_layout_hand(state: dict) -> tuple[dict, list[int], list[list[int]]]:
    """Play the first legal card each turn; returns the state, the order seats emptied and who acted."""
    order: list[int] = []
    actors: list[list[int]] = []
    hand = state["hand_no"]
    for _ in range(MAX_HAND_STEPS):
        if state["hand_no"] != hand:
            break
        seat = rentz.to_act(state)[0]
        actors.append([seat, *order])
        state = rentz.apply(state, seat, rentz.legal_actions(state, seat)[0])
        if state["hand_no"] == hand and not state["hands"][seat] and seat not in order:
            order.append(seat)
    else:
        raise AssertionError("the layout hand never ended")
    return state, order, actors
