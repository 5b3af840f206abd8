"""Rentz bot knowledge: a sensible policy from the view, and determinization.

``basic`` picks the mini-game that suits the dealt hand, ducks tricks, sheds
penalty cards when void, and in the layout game plays the cards that open the
way for its own cards. ``determinize`` deals the unseen cards to the other
seats, respecting every void and every pass the table has seen.
"""

from __future__ import annotations

import random
from typing import Any

from engine.cards import RANKS
from engine.rentz import DECK, JACK, ORDER, RANK_INDEX, SEATS, State, is_penalty, layout_cards, state_from_view

# How often a card of each rank takes a trick, roughly: used to judge a hand.
WIN_CHANCE = {"A": 0.9, "K": 0.75, "Q": 0.55, "J": 0.4, "T": 0.25, "9": 0.12, "8": 0.05}
# What an average hand takes in each penalty game, in penalty units.
AVERAGE_UNITS = {"acool": 13 / 4, "diamonds": 13 / 4, "queens": 1.0, "king_of_hearts": 0.25}
MEAN_JACK_DISTANCE = sum(abs(r - JACK) for r in range(len(RANKS))) / len(RANKS)


def _rank(card: str) -> int:
    return RANK_INDEX[card[0]]


# --- choosing the mini-game -----------------------------------------------------------


def _units(game: str, hand: list[str]) -> float:
    """How many penalty units this hand is likely to take in ``game``."""
    strength = sum(WIN_CHANCE.get(c[0], 0.0) for c in hand)
    suit_len = {s: sum(1 for c in hand if c[1] == s) for s in "CDHS"}
    if game == "acool":
        return strength
    if game == "diamonds":
        return strength + 0.5 * sum(WIN_CHANCE.get(c[0], 0.0) for c in hand if c[1] == "D")
    if game == "queens":
        bare = sum(1.0 if suit_len[c[1]] <= 3 else 0.4 for c in hand if c[0] == "Q")
        return bare + 0.1 * sum(1 for c in hand if c[0] in "AK")
    # King of Hearts: the king itself is the risk, cushioned by low hearts.
    if "KH" in hand:
        return 1.0 if suit_len["H"] <= 3 else 0.6
    return 0.35 if "AH" in hand else max(0.05, 0.2 - 0.03 * suit_len["H"])


def _rentz_edge(hand: list[str], bonuses: list[int]) -> float:
    """Points above an average Rentz hand: cards near the Jacks go out early."""
    spread = (bonuses[0] - bonuses[-1]) / 150
    distance = sum(abs(_rank(c) - JACK) for c in hand) / len(hand)
    jacks = sum(1 for c in hand if c[0] == "J")
    return spread * (40 * (MEAN_JACK_DISTANCE - distance) + 20 * (jacks - 1))


def suitability(game: str, hand: list[str], points: dict[str, Any]) -> float:
    """Points this hand should gain over an average hand in ``game``."""
    if game == "rentz":
        return _rentz_edge(hand, points["rentz"])
    return points[game] * (_units(game, hand) - AVERAGE_UNITS[game])


def _choose(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    points = view["options"]["points"]
    return max(legal, key=lambda a: suitability(a["game"], view["hand"], points))


# --- trick play ------------------------------------------------------------------------


def _danger(game: str, card: str) -> tuple[int, int]:
    """Higher is worse to keep: penalty cards first, then high cards."""
    return (1 if is_penalty(game, card) else 0, _rank(card))


def _lead(game: str, cards: list[str]) -> str:
    def risk(card: str) -> tuple[int, int]:
        rank, suit = _rank(card), card[1]
        bad = is_penalty(game, card)
        if game == "king_of_hearts" and suit == "H":
            bad = bad or "KH" in cards or rank >= RANK_INDEX["K"]
        if game == "diamonds" and suit == "D":
            bad = bad or rank > RANK_INDEX["5"]
        if game == "queens" and rank > RANK_INDEX["Q"]:
            bad = True
        return (1 if bad else 0, rank)

    return min(cards, key=risk)


def _follow(game: str, cards: list[str], trick: list[str], last: bool) -> str:
    led = trick[0][1]
    winning = max(_rank(c) for c in trick if c[1] == led)
    under = [c for c in cards if _rank(c) < winning]
    if under:
        return max(under, key=_rank)  # duck with the highest card that still loses
    safe = [c for c in cards if not is_penalty(game, c)] or cards
    if last:
        return max(safe, key=_rank)  # the trick is ours anyway: spend a high card
    return min(safe, key=_rank)  # someone after may still go over


def _play_trick(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    game = view["game"]
    cards = [a["card"] for a in legal]
    trick = [t["card"] for t in view["trick"]]
    if not trick:
        card = _lead(game, cards)
    elif cards[0][1] == trick[0][1]:
        card = _follow(game, cards, trick, len(trick) == SEATS - 1)
    else:
        card = max(cards, key=lambda c: _danger(game, c))  # void: shed the worst card
    return {"type": "play", "card": card}


# --- the layout game ---------------------------------------------------------------------


def _unlocks(card: str, hand: list[str]) -> float:
    """How much playing ``card`` frees my own cards further along its row."""
    rank, suit = _rank(card), card[1]
    mine = {_rank(c) for c in hand if c[1] == suit}
    directions = (-1, 1) if rank == JACK else (-1,) if rank < JACK else (1,)
    score = 0.0
    for step in directions:
        beyond = [r for r in mine if (r - rank) * step > 0]
        score += len(beyond) + (1.5 if rank + step in mine else 0.0)
    return score


def _play_layout(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    hand = view["hand"]
    return max(legal, key=lambda a: (_unlocks(a["card"], hand), -abs(_rank(a["card"]) - JACK)))


def basic(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    if len(legal) == 1:
        return legal[0]
    if legal[0]["type"] == "choose":
        return _choose(view, legal)
    if view["phase"] == "layout":
        return _play_layout(view, legal)
    return _play_trick(view, legal)


# --- determinization ------------------------------------------------------------------------


def _may_hold(lacks: dict[str, str], card: str) -> bool:
    return card[0] not in lacks.get(card[1], "")


def _deal_unseen(
    cards: list[str], capacity: dict[int, int], lacks: list[dict[str, str]], rng: random.Random
) -> dict[int, list[str]]:
    """A random assignment of cards to seats within capacity, each card to a seat that may hold it.

    Augmenting paths (Kuhn's matching with capacities) always find an assignment
    when one exists, which greedy dealing does not once voids pile up.
    """
    held: dict[int, list[str]] = {s: [] for s in capacity}
    order = list(cards)
    rng.shuffle(order)

    def place(card: str, visited: set[int]) -> bool:
        seats = [s for s in capacity if s not in visited and _may_hold(lacks[s], card)]
        rng.shuffle(seats)
        for s in seats:
            visited.add(s)
            if len(held[s]) < capacity[s]:
                held[s].append(card)
                return True
            for other in list(held[s]):
                held[s].remove(other)
                if place(other, visited):
                    held[s].append(card)
                    return True
                held[s].append(other)
        return False

    for card in order:
        if not place(card, set()):
            raise ValueError("The view admits no deal of the unseen cards.")
    return held


def determinize(view: dict[str, Any], rng: random.Random) -> State:
    """A full state that agrees with ``view``: only the private parts are sampled.

    The unseen cards are dealt where they may lie; everything public comes
    from the view through ``state_from_view``.
    """
    seat, hand = view["seat"], view["hand"]
    seen = set(hand) | set(layout_cards(view["rows"])) | set(view["trick_cards"])
    seen |= {c for t in view["tricks"] for c in t["cards"]}
    unseen = [c for c in DECK if c not in seen]
    capacity = {s: view["hand_sizes"][s] for s in range(SEATS) if s != seat}
    held = _deal_unseen(unseen, capacity, view["lacks"], rng)
    hands = [list(hand) if s == seat else sorted(held[s], key=ORDER.__getitem__) for s in range(SEATS)]
    # The real seed is secret; any seed deals future hands.
    return state_from_view(view, {"seed": rng.randrange(2**31), "hands": hands})


def utility(state: State, seat: int) -> float:
    """Own total minus the mean of the others' totals."""
    scores = state["scores"]
    return scores[seat] - (sum(scores) - scores[seat]) / (SEATS - 1)
