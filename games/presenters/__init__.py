"""Presenters: each game's view as plain data for its templates, found by the game's name.

``presenter_for("rentz")`` is the instance of the class that ``games/presenters/rentz.py``
names ``PRESENTER``; a game without such a module gets the generic ``Presenter``. So a new
game needs its presenter module and its templates (``templates/games/tables/<game>.html``)
and nothing in the shared code.
"""

from __future__ import annotations

import importlib
import importlib.util
from functools import cache

from games.presenters.base import Presenter, log_kind, log_line, money_text, ordinal, seat_name

__all__ = ["Presenter", "log_kind", "log_line", "money_text", "ordinal", "presenter_for", "seat_name"]


@cache
def presenter_for(game_name: str) -> Presenter:
    """The game's own presenter if it has one, else the generic one (one instance per game)."""
    module_name = f"{__name__}.{game_name}"
    if game_name.isidentifier() and game_name != "base" and importlib.util.find_spec(module_name) is not None:
        return importlib.import_module(module_name).PRESENTER(game_name)
    return Presenter(game_name)
