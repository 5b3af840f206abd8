"""Karnoffel bot knowledge: a sensible policy and a sampler of hidden cards.

``basic`` plays from the view alone: win a trick as cheaply as possible, keep
the Jack of trump for a trick that decides the hand, let a partner's winning
card stand, and throw the cheapest card on a trick it cannot win.
"""

from __future__ import annotations

import random
from typing import Any

from engine import karnoffel as game

# How much a card is worth keeping, for "cheapest" choices. A 7 of trump is
# only strong as a lead, where just the Jack beats it, so it ranks high.
_TRUMP_KEEP = {rank: 20 + 10 * i for i, rank in enumerate(reversed(game.TRUMP_ORDER))}

# A Karnoffel hand is five tricks at most, so playouts are cheap: search wider.
STRONG_PLAYOUTS = 480


def card_value(code: str, trump: str) -> int:
    if code[1] == trump:
        return _TRUMP_KEEP[code[0]]
    return game.PLAIN_POWER[code[0]]


def _played(view: dict[str, Any]) -> set[str]:
    seen = {p["card"] for t in view["tricks"] for p in t["cards"]}
    seen.update(p["card"] for p in view["trick"])
    return seen


def opponents_may_hold(view: dict[str, Any]) -> set[str]:
    """Cards an opponent might still play this hand, as far as the seat knows."""
    seat = view["seat"]
    played = _played(view)
    unseen = set(game.DECK) - played - set(view["hand"]) - set(view["face_up"])
    for other in range(game.SEATS):
        if game.team_of(other) != game.team_of(seat) and view["face_up"][other] not in played:
            unseen.add(view["face_up"][other])
    return unseen


def _sure_lead(code: str, threats: set[str], trump: str) -> bool:
    return not any(game.beats(t, code, code, trump) for t in threats)


def _lead(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    trump, team = view["trump"], game.team_of(view["seat"])
    jack = "J" + trump
    threats = opponents_may_hold(view)
    hand = sorted(view["hand"], key=lambda c: card_value(c, trump))
    sure = [c for c in hand if c != jack and _sure_lead(c, threats, trump)]
    if sure:
        return _play(sure[0])
    if jack in hand and (view["taken"][team] == 2 or view["taken"][1 - team] == 2):
        return _play(jack)
    return _play(hand[0])


def _follow(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    trump, seat = view["trump"], view["seat"]
    played = [p["card"] for p in view["trick"]]
    best = game.winning_index(played, trump)
    hand = sorted(view["hand"], key=lambda c: card_value(c, trump))
    winners = [c for c in hand if game.beats(c, played[best], played[0], trump)]
    losers = [c for c in hand if c not in winners]
    if game.team_of(view["trick"][best]["seat"]) == game.team_of(seat):
        return _play((losers or hand)[0])
    jack = "J" + trump
    cheap = [c for c in winners if c != jack]
    if cheap:
        return _play(cheap[0])
    if jack in winners and (_decisive(view) or not losers):
        return _play(jack)
    return _play((losers or hand)[0])


def _decisive(view: dict[str, Any]) -> bool:
    """Whether this trick can settle the hand for either team."""
    return max(view["taken"]) == 2 or len(view["hand"]) <= 2


def _play(code: str) -> dict[str, Any]:
    return {"type": "play", "card": code}


def basic(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    choice = _follow(view, legal) if view["trick"] else _lead(view, legal)
    return choice if choice in legal else rng.choice(legal)


def determinize(view: dict[str, Any], rng: random.Random) -> game.State:
    """A full state matching the view: only the private parts are sampled.

    The unseen cards go at random to the other hands (each keeps its unplayed
    face-up card) and to the set-aside pile; everything public comes from the
    view through ``state_from_view``.
    """
    seat = view["seat"]
    played = _played(view)
    hands: list[list[str]] = [[] for _ in range(game.SEATS)]
    hands[seat] = list(view["hand"])
    for other in range(game.SEATS):
        if other != seat and view["face_up"][other] not in played:
            hands[other].append(view["face_up"][other])
    known = played | {c for h in hands for c in h}
    pool = [c for c in game.DECK if c not in known]
    rng.shuffle(pool)
    for other in range(game.SEATS):
        need = view["hand_sizes"][other] - len(hands[other])
        hands[other].extend(pool[:need])
        pool = pool[need:]
    # Later hands are dealt from this made-up seed, never the real one.
    private = {"seed": rng.randrange(2**31), "hands": hands, "set_aside": pool}
    return game.state_from_view(view, private)


def utility(state: game.State, seat: int) -> float:
    """Hands won by the seat's team minus the other team's; a won match counts extra."""
    team = game.team_of(seat)
    won = state["hands_won"]
    bonus = 0.0
    if state["winner_team"] is not None:
        bonus = 10.0 if state["winner_team"] == team else -10.0
    return won[team] - won[1 - team] + bonus
