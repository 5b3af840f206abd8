"""Turning engine data into readable HTML: cards with suit symbols, actions as labelled choices.

Every card is rendered with its code in ``data-card`` so that a page can be
checked for cards its reader may not see; the text is the engine's
``card_label`` (readable, with the suit symbol), never an image only.
"""

from __future__ import annotations

import json
from functools import lru_cache
from types import ModuleType
from typing import Any

from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from engine import get_game

SUIT_CLASSES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SUIT_SYMBOLS = {"C": "♣ clubs", "D": "♦ diamonds", "H": "♥ hearts", "S": "♠ spades"}
# Above this many choices an action type becomes a select, not a row of buttons.
MAX_BUTTONS = 14


@lru_cache(maxsize=4096)
def card_text(game_name: str, code: str) -> str | None:
    """The card's label, or None when ``code`` is not a card of this game."""
    if not code or len(code) > 16:
        return None
    game = get_game(game_name)
    try:
        text = game.card_label(code)
    except Exception:  # noqa: BLE001 - the engine says "not a card" by failing
        return None
    # Some games hand back what is not a card code unchanged rather than failing.
    return text if isinstance(text, str) and text and text != code else None


def _suit_class(game: ModuleType, code: str) -> str:
    if len(code) == 2 and code[1] in SUIT_CLASSES:
        return "suit-" + SUIT_CLASSES[code[1]]
    return "suit-" + code[0].lower() if code[:1].isalpha() else ""


@lru_cache(maxsize=4096)
def card_html(game_name: str, code: str) -> SafeString:
    text = card_text(game_name, code) or code
    cls = _suit_class(get_game(game_name), code)
    return format_html('<span class="card {}" data-card="{}">{}</span>', cls, code, text)


def value_html(game_name: str, value: Any, names: list[str] | None = None) -> SafeString:
    """Any view value as readable HTML: cards become cards, lists and dicts nest."""
    if isinstance(value, str):
        return card_html(game_name, value) if card_text(game_name, value) else escape(value)
    if isinstance(value, bool) or value is None:
        return escape({True: "yes", False: "no", None: "—"}[value])
    if isinstance(value, (int, float)):
        return escape(value)
    if isinstance(value, list):
        if not value:
            return mark_safe('<span class="empty">none</span>')
        return format_html('<span class="list">{}</span>', format_html_join(" ", "{}", ((value_html(game_name, v, names),) for v in value)))
    if isinstance(value, dict):
        items = ((str(k).replace("_", " "), _value_or_name(game_name, k, v, names)) for k, v in value.items())
        return format_html('<dl class="inline">{}</dl>', format_html_join("", "<dt>{}</dt><dd>{}</dd>", items))
    return escape(str(value))


def _value_or_name(game_name: str, key: str, value: Any, names: list[str] | None) -> SafeString:
    """Seat numbers under seat-like keys read as the player's name."""
    if key in ("seat", "winner", "taker", "leader", "bidder") and isinstance(value, int) and not isinstance(value, bool):
        if names and 0 <= value < len(names):
            return escape(names[value])
    return value_html(game_name, value, names)


def action_label(game_name: str, action: dict[str, Any]) -> str:
    """A short label for a button or an option: 'Play 10♥', 'Bid 4', 'Order T, S, P'."""
    words = [str(action.get("type", "move")).replace("_", " ").capitalize()]
    for key, value in action.items():
        if key == "type":
            continue
        words.append(_param_text(game_name, value))
    return " ".join(words)


def _param_text(game_name: str, value: Any) -> str:
    suits = getattr(get_game(game_name), "SUIT_NAMES", {})
    if isinstance(value, str):
        return card_text(game_name, value) or suits.get(value) or value
    if isinstance(value, list) and value and all(v in suits for v in value):
        return " > ".join(suits[v] for v in value)  # a suit order, highest first
    if isinstance(value, list):
        return ", ".join(_param_text(game_name, v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {_param_text(game_name, v)}" for k, v in value.items())
    return str(value)


def action_groups(game_name: str, legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Legal actions grouped by type: card buttons, plain buttons, or one select for long lists."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for action in legal:
        groups.setdefault(str(action.get("type", "move")), []).append(action)
    result = []
    for kind, actions in groups.items():
        choices = [_choice(game_name, a) for a in actions]
        cards_only = all(set(a) == {"type", "card"} and c["card"] for a, c in zip(actions, choices))
        widget = "cards" if cards_only else ("select" if len(actions) > MAX_BUTTONS else "buttons")
        result.append({"type": kind, "label": kind.replace("_", " ").capitalize(), "widget": widget, "choices": choices})
    return result


def _choice(game_name: str, action: dict[str, Any]) -> dict[str, Any]:
    card = action.get("card")
    is_card = isinstance(card, str) and card_text(game_name, card) is not None
    return {
        "value": json.dumps(action, sort_keys=True, separators=(",", ":")),
        "label": action_label(game_name, action),
        "card": card_html(game_name, card) if is_card else None,
    }
