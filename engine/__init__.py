"""Parlour's rules engine: pure Python, no Django, no I/O, no clock.

The interface is fixed by ``shared/spec/engine-contract.md``::

    from engine import get_game, GAMES, IllegalAction

Every game module exposes the same functions (``new_match``, ``to_act``,
``legal_actions``, ``apply``, ``view``, ``is_over``, ``outcome``) plus a few
helpers the app and the bots use (``OPTIONS``, ``MIN_PLAYERS``,
``MAX_PLAYERS``, ``describe``, ``hand_index``).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from engine.errors import IllegalAction

__all__ = ["GAMES", "IllegalAction", "get_game"]

GAME_NAMES = ("renfield", "rentz", "karnoffel", "rapscallion")


def _load() -> dict[str, ModuleType]:
    games = {}
    for name in GAME_NAMES:
        try:
            games[name] = importlib.import_module(f"engine.{name}")
        except ModuleNotFoundError as exc:  # a game still being built
            if exc.name != f"engine.{name}":
                raise
    return games


GAMES: dict[str, ModuleType] = _load()


def get_game(name: str) -> ModuleType:
    """The game module called ``name``; KeyError naming the known games."""
    try:
        return GAMES[name]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise KeyError(f"Unknown game {name!r}; the known games are: {known}.") from None
