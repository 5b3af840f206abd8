"""Filters for the table templates: plain data only (words, numbers, card faces as dicts), never markup.

A card is drawn by ``templates/games/_card.html`` from the face these filters give:
``{% for card in view.centre|faces:game_name %}{% include "games/_card.html" %}{% endfor %}``.
"""

from __future__ import annotations

from typing import Any

from django import template

from games.presenters import money_text, presenter_for
from games.presenters import seat_name as seat_name_text

register = template.Library()


@register.filter
def face(code: Any, game_name: str) -> dict[str, Any]:
    """One card's face: ``{"code", "text", "cls"}``, or a card back."""
    return presenter_for(game_name).card(code)


@register.filter
def faces(codes: Any, game_name: str) -> list[dict[str, Any]]:
    return presenter_for(game_name).cards(codes if isinstance(codes, (list, tuple)) else [])


@register.filter
def seat_name(number: Any, names: list[str]) -> str:
    return seat_name_text(number, names)


@register.filter
def seat_names(numbers: Any, names: list[str]) -> str:
    """``[0, 2]`` -> ``Ann & Cy``."""
    return " & ".join(seat_name_text(n, names) for n in (numbers or []))


@register.filter
def per_seat(values: Any, names: list[str]) -> list[tuple[int, str, Any]]:
    """A per-seat list as (seat, name, value) rows."""
    return [(n, seat_name_text(n, names), v) for n, v in enumerate(values or [])]


@register.filter
def at(sequence: Any, index: Any) -> Any:
    """``scores|at:seat``: an item of a list or dict, or empty."""
    try:
        return sequence[index]
    except (IndexError, KeyError, TypeError):
        return ""


@register.filter
def plus1(number: Any) -> Any:
    """A 0-based count as players say it: hand 0 is "Hand 1"."""
    return number + 1 if isinstance(number, int) else number


@register.filter
def money(amount: Any) -> str:
    """Dollars with the sign in front (``-$5``); the template marks a debt."""
    return money_text(amount) if isinstance(amount, int) and not isinstance(amount, bool) else str(amount)


@register.filter
def signed(number: Any) -> str:
    return f"+{number}" if isinstance(number, int) and number > 0 else str(number)


@register.filter
def words(name: str) -> str:
    """``king_of_hearts`` -> ``king of hearts``."""
    return str(name).replace("_", " ")
