"""Kept only for ``games/forms.py``'s ``card_text`` import; the presenters (``games/presenters/``) replace it.

Delete this module once forms.py calls ``presenter_for(game_name).card_text(code)`` itself.
"""

from __future__ import annotations

from games.presenters import presenter_for


def card_text(game_name: str, code: str) -> str | None:
    """The card's label, or None when ``code`` is not a card of this game."""
    return presenter_for(game_name).card_text(code)
