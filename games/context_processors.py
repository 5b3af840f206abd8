"""Template context: how many matches await the signed-in player (the header's "your turn" slot)."""

from __future__ import annotations

from django.http import HttpRequest


def your_turn(request: HttpRequest) -> dict[str, object]:
    # Filled in by the games app's selectors; 0 until matches exist.
    return {"your_turn_count": 0}
