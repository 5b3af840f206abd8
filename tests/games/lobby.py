"""What a browser posts for the untouched new-match form of a game: the lobby's and the invitations' tests
start from it and change the fields they are about."""

from __future__ import annotations

from typing import Any

from engine import get_game
from games.forms import MatchCreateForm


def untouched_form(game: str, players: int | None = None) -> dict[str, Any]:
    """What a browser posts for the untouched form of ``game``, for ``players`` seats (the fewest by default)."""
    module = get_game(game)
    form = MatchCreateForm(game=module)
    data: dict[str, Any] = {}
    for name in form.fields:
        initial = form[name].initial
        if initial is None or initial is False:
            continue
        data[name] = "on" if initial is True else initial
    data["players"] = players or module.MIN_PLAYERS
    return data
