"""Parlour's rules engine: pure Python, no Django, no I/O, no clock.

The interface is fixed by ``shared/spec/engine-contract.md``::

    from engine import get_game, GAMES, IllegalAction

Every game module exposes the same functions (``new_match``, ``to_act``,
``legal_actions``, ``apply``, ``view``, ``is_over``, ``outcome``) plus a few
helpers the app and the bots use (``OPTIONS``, ``MIN_PLAYERS``,
``MAX_PLAYERS``, ``describe``, ``hand_index``, ``state_from_view``...): the
``Game`` protocol in ``engine/protocol.py`` lists them, and mypy checks each
module against it.
"""

from __future__ import annotations

import importlib
from typing import cast

from engine.errors import IllegalAction
from engine.protocol import Game

__all__ = ["GAMES", "Game", "IllegalAction", "get_game"]

GAME_NAMES = ("renfield", "rentz", "karnoffel", "rapscallion")


def _load() -> dict[str, Game]:
    games = {}
    for name in GAME_NAMES:
        try:
            # mypy checks the modules against Game in engine/protocol.py.
            games[name] = cast(Game, importlib.import_module(f"engine.{name}"))
        except ModuleNotFoundError as exc:  # a game still being built
            if exc.name != f"engine.{name}":
                raise
    return games


GAMES: dict[str, Game] = _load()


def get_game(name: str) -> Game:
    """The game module called ``name``; KeyError naming the known games."""
    try:
        return GAMES[name]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise KeyError(f"Unknown game {name!r}; the known games are: {known}.") from None
