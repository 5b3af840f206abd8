"""Template helpers for the table: ``{{ code|card:game }}``, ``{% move_groups table game_name as groups %}``."""

from __future__ import annotations

import html
from typing import Any

from django import template
from django.conf import settings
from django.template import defaultfilters
from django.urls import reverse
from django.utils.formats import localize
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

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


@register.simple_tag(takes_context=True)
def moves_html(context: template.Context) -> SafeString:
    """The turn panel's hand and move forms, built in Python once (see ``display.moves_html``)."""
    match, view = context["match"], context["view"]
    groups = context.get("groups")
    if groups is None:
        groups = display.action_groups(context["game_name"], context["table"].legal, view)
    token = context.get("csrf_token")
    csrf_input = "" if not token or token == "NOTPROVIDED" else format_html(
        '<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token)
    return display.moves_html(context["game_name"], view, groups, url=reverse("games-play", args=[match.pk]),
                              version=match.version, csrf_input=csrf_input)


@register.simple_tag
def plays_html(plays: list[dict[str, Any]] | None, game_name: str, names: list[str]) -> SafeString:
    return display.plays_html(game_name, plays, names)


# --- long lists of the table, built in Python once ---------------------------------
# Each item of these used to cost several template variable lookups and filters; the log alone
# has up to 30 lines and the chat 50, so they were most of the page's render time.


def _text(value: Any) -> str:
    """A value as ``{{ value }}`` prints it: localized and escaped."""
    kind = type(value)
    # Fast paths for the usual plain strings and counts, with the same result as the slow path.
    if kind is str:
        return html.escape(value)
    if kind is int and not settings.USE_THOUSAND_SEPARATOR:
        return str(value)
    return conditional_escape(localize(value))


@register.simple_tag(takes_context=True)
def seats_html(context: template.Context) -> SafeString:
    view, seat = context["view"], context.get("seat")
    to_act, scores, renfield = view.get("to_act") or (), view.get("scores", ""), context["game_name"] == "renfield"
    parts = []
    for s in context["table"].seats:
        acting = _contains(to_act, s.number)
        me = " me" if seat and s.number == seat.number else ""
        score = at(scores, s.number)
        parts.append(
            f'\n          <li class="seat{" to-act" if acting else ""}{me}">\n'
            f'            <span class="name">{_text(s.name)}</span>\n'
            f'            <span class="score" title="score">{money(score) if renfield else _text(score)}</span>\n'
            f'            {"<span class=\"turn\">to play</span>" if acting else ""}\n          </li>\n          ')
    return mark_safe("".join(parts))  # safe: every value above is escaped


def _contains(container: Any, item: Any) -> bool:
    try:
        return item in container
    except TypeError:
        return False


@register.simple_tag(takes_context=True)
def log_html(context: template.Context) -> SafeString:
    names, parts = context["names"], []
    for move in context["table"].moves:
        kind = move.get("kind", "")
        note = f" <small>({_text(kind)})</small>" if kind != "player" else ""
        parts.append(f'<li value="{_text(defaultfilters.add(move.get("ply", ""), 1))}" class="kind-{_text(kind)}">'
                     f'<b>{_text(at(names, move.get("seat", "")))}</b> {_text(move.get("text", ""))}{note}</li>')
    return mark_safe("".join(parts) or '<li class="empty">No moves yet.</li>')  # safe: escaped above


@register.simple_tag(takes_context=True)
def chat_html(context: template.Context) -> SafeString:
    parts = [f'<li><b>{_text(m.get("name", ""))}</b> {_text(m.get("text", ""))}</li>' for m in context["table"].chat]
    return mark_safe("".join(parts) or '<li class="empty">Nobody has said anything yet.</li>')
