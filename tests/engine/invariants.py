"""Invariants every game keeps, checked along seeded random playouts.

A game's playout test supplies two oracles written from the state's own
structure (not from ``view``, which is what is being checked):

- ``locations(state) -> list[str]``: every card of the game wherever it lies
  (hands, tricks, piles, deck, out of play); each must occur exactly once.
- ``hidden(state, seat) -> set[str]``: the card codes that ``seat`` (None for
  a spectator) may not see now.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any

from engine import IllegalAction
from engine.replay import replay

Locations = Callable[[dict], list[str]]
Hidden = Callable[[dict, int | None], set[str]]


def strings_in(data: Any) -> Iterable[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield str(key)
            yield from strings_in(value)
    elif isinstance(data, list | tuple):
        for item in data:
            yield from strings_in(item)


def assert_view_hides(game: ModuleType, state: dict, seat: int | None, hidden: Hidden) -> None:
    view = game.view(state, seat)
    json.dumps(view)  # JSON-serializable
    assert view["to_act"] == game.to_act(state)
    assert "scores" in view
    if seat is not None:
        assert view["seat"] == seat
        assert "hand" in view
    leaked = set(strings_in(view)) & hidden(state, seat)
    assert not leaked, f"view of seat {seat} shows hidden cards {sorted(leaked)}"


def assert_cards_conserved(state: dict, full_deck: list[str], locations: Locations) -> None:
    counts = Counter(locations(state))
    assert counts == Counter(full_deck), (
        f"cards not conserved: extra {sorted((counts - Counter(full_deck)).elements())}, "
        f"missing {sorted((Counter(full_deck) - counts).elements())}"
    )


def bogus_actions(legal: list[dict], sample_cards: list[str]) -> list[dict]:
    """Actions that are not in ``legal``: unknown types, wrong cards, junk."""
    candidates: list[Any] = [{"type": "nonsense"}, {}, {"type": "play"}, {"type": "play", "card": "ZZ"}, "play", None]
    candidates += [{"type": "play", "card": c} for c in sample_cards]
    candidates += [{"type": "bid", "amount": -1}, {"type": "pass", "extra": 1}]
    return [c for c in candidates if c not in legal]


def random_playout(
    game: ModuleType,
    players: int,
    seed: int,
    *,
    options: dict | None = None,
    full_deck: list[str] | None = None,
    locations: Locations | None = None,
    hidden: Hidden | None = None,
    check_every: int = 1,
    max_steps: int = 100_000,
) -> tuple[dict, list[dict]]:
    """Play a whole match with random legal actions, checking invariants."""
    rng = random.Random(seed)
    state = game.new_match(players, options, seed=seed)
    actions: list[dict] = []
    for step in range(max_steps):
        if game.is_over(state):
            break
        to_act = game.to_act(state)
        assert to_act, "a match that is not over must await someone"
        assert to_act == sorted(to_act)
        checking = step % check_every == 0
        if checking:
            _check_state(game, state, players, full_deck, locations, hidden, to_act)
        seat = rng.choice(to_act)
        legal = game.legal_actions(state, seat)
        assert legal, f"seat {seat} is to act but has no legal action"
        if checking:
            before = copy.deepcopy(state)
            cards = list(full_deck or [])[:: max(1, len(full_deck or []) // 8)]
            for bad in bogus_actions(legal, cards)[:6]:
                try:
                    game.apply(state, seat, bad)
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"illegal action {bad!r} accepted")
                assert state == before, "a refused action changed the state"
        action = rng.choice(legal)
        json.dumps(action)
        new_state = game.apply(state, seat, action)
        if checking:
            assert state == before, "apply mutated its argument"
        state = new_state
        actions.append({"seat": seat, "action": action})
    else:
        raise AssertionError(f"match did not end within {max_steps} steps")
    assert game.to_act(state) == []
    _check_state(game, state, players, full_deck, locations, hidden, [])
    result = game.outcome(state)
    assert len(result["scores"]) == players and len(result["places"]) == players
    assert min(result["places"]) == 1
    replayed = replay(
        {"game": game.NAME, "players": players, "seed": seed, "options": options or {}, "actions": actions}
    )
    assert replayed == state, "replay from seed and actions differs from the played state"
    return state, actions


def _check_state(game, state, players, full_deck, locations, hidden, to_act) -> None:
    json.dumps(state)
    if full_deck is not None and locations is not None:
        assert_cards_conserved(state, full_deck, locations)
    for seat in range(players):
        if seat not in to_act:
            assert game.legal_actions(state, seat) == [], f"seat {seat} has actions out of turn"
    if hidden is not None:
        for seat in [None, *range(players)]:
            assert_view_hides(game, state, seat, hidden)
