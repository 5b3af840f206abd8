"""Template helpers for the table: ``{{ code|card:game }}``, ``{% move_groups table game_name as groups %}``."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from games import display

register = template.Library()


@register.filter
def card(code: str, game_name: str) -> SafeString:
    return display.card_html(game_name, code)


@register.filter
def cards(codes: list[str], game_name: str) -> SafeString:
    return display.cards_html(game_name, list(codes or []))


@register.filter
def card_words(code: str, game_name: str) -> str:
    """A card named in words, without its code: for cards the reader only hears about."""
    return display.card_text(game_name, code) or str(code)


@register.simple_tag
def view_value(value: Any, game_name: str, names: list[str] | None = None) -> SafeString:
    return display.value_html(game_name, value, names)


@register.simple_tag
def move_groups(table: Any, game_name: str) -> list[dict[str, Any]]:
    """The reader's legal moves, labelled with what they do, from the table the view built."""
    return display.action_groups(game_name, table.legal, table.view)


@register.simple_tag
def result_line(view: dict[str, Any], seat: Any, names: list[str]) -> str:
    return display.result_line(view, getattr(seat, "number", None), names)


@register.filter
def hand_buttons(group: dict[str, Any], hand: list[str]) -> list[tuple[str, dict[str, Any] | None, bool]]:
    return display.hand_buttons(group, list(hand or []))


@register.filter
def seat_name(number: Any, names: list[str]) -> str:
    if isinstance(number, int) and 0 <= number < len(names):
        return names[number]
    return "" if number is None else str(number)


@register.filter
def seat_names(numbers: Any, names: list[str]) -> str:
    """``[0, 2]`` -> ``Ann & Cy``."""
    return " & ".join(seat_name(n, names) for n in (numbers or []))


@register.filter
def per_seat(values: Any, names: list[str]) -> list[tuple[int, str, Any]]:
    """A per-seat list as (seat, name, value) rows."""
    return [(n, seat_name(n, names), v) for n, v in enumerate(values or [])]


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
def ordinal(place: Any) -> str:
    return display.ordinal(place) if isinstance(place, int) else ""


@register.filter
def money(amount: Any) -> SafeString:
    """Dollars; a debt in red with a minus."""
    if not isinstance(amount, int):
        return format_html("{}", amount)
    cls = "money debt" if amount < 0 else "money"
    return format_html('<span class="{}">{}</span>', cls, display.money_text(amount))


@register.filter
def signed(number: Any) -> str:
    return f"+{number}" if isinstance(number, int) and number > 0 else str(number)


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
    return display.suit_name(game_name, suit)


@register.filter
def suit_order(suits: list[str], game_name: str) -> str:
    return display.suit_order_text(game_name, list(suits or []))


@register.filter
def mini_title(key: str, game_name: str) -> str:
    return display.mini_title(game_name, key)


@register.filter
def words(name: str) -> str:
    """``king_of_hearts`` -> ``king of hearts``."""
    return str(name).replace("_", " ")


@register.filter
def table_part(game_name: str, part: str) -> list[str]:
    """The game's own partial of its table (``board``, ``details``), else the generic one."""
    return [f"games/tables/{game_name}.html#{part}", f"games/tables/_generic.html#{part}"]


@register.simple_tag
def rules_line(game_name: str, view: dict[str, Any]) -> str:
    return display.rules_line(game_name, view)


@register.filter
def has_hand_group(groups: list[dict[str, Any]]) -> bool:
    return any(g.get("widget") == "hand" for g in groups or [])


@register.filter
def last_trick(view: dict[str, Any]) -> dict[str, Any] | None:
    return display.last_trick(view)


@register.filter
def trick_plays(trick: dict[str, Any], players: int) -> list[dict[str, Any]]:
    return display.trick_plays(trick, players)


@register.filter
def layout_row(row: dict[str, str] | None) -> list[str]:
    return display.layout_row(row)
