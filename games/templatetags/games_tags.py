"""Template helpers for the table: ``{{ code|card:game }}``, ``{% view_value value game names %}``."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from games import display

register = template.Library()


@register.filter
def card(code: str, game_name: str) -> SafeString:
    return display.card_html(game_name, code)


@register.filter
def cards(codes: list[str], game_name: str) -> SafeString:
    return display.value_html(game_name, list(codes or []))


@register.simple_tag
def view_value(value: Any, game_name: str, names: list[str] | None = None) -> SafeString:
    return display.value_html(game_name, value, names)


@register.filter
def seat_name(number: Any, names: list[str]) -> str:
    if isinstance(number, int) and 0 <= number < len(names):
        return names[number]
    return "" if number is None else str(number)


@register.filter
def at(sequence: Any, index: Any) -> Any:
    """``scores|at:seat``: an item of a list or dict, or empty."""
    try:
        return sequence[index]
    except (IndexError, KeyError, TypeError):
        return ""


@register.filter
def without(view: dict[str, Any], keys: str) -> list[tuple[str, Any]]:
    """The view's other keys, for the generic table: ``view|without:"hand,scores"``."""
    skip = set(keys.split(","))
    return [(k.replace("_", " "), v) for k, v in view.items() if k not in skip]


@register.filter
def suit_symbol(suit: str) -> str:
    return display.SUIT_SYMBOLS.get(suit, suit)


@register.filter
def suit_label(suit: str, game_name: str) -> str:
    """A suit letter as the game names it (Renfield's ``T`` is Tools), else the French symbol."""
    names = getattr(display.get_game(game_name), "SUIT_NAMES", None) or {}
    return names.get(suit) or display.SUIT_SYMBOLS.get(suit, suit)


@register.filter
def words(name: str) -> str:
    """``king_of_hearts`` -> ``king of hearts``."""
    return str(name).replace("_", " ")
