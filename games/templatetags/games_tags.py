"""Filters for the table templates: plain data only (words, numbers, card faces as dicts), never markup.

A card is drawn by ``templates/games/_card.html`` from the face these filters give:
``{% for card in view.centre|faces:game_name %}{% card card %}{% endfor %}``. ``{% card face %}`` renders
that template once per face and process and gives the same markup again for the same face: a table draws
dozens of cards from a deck of a few dozen faces, and each render of the template costs more than the
card's whole markup (issue 25).
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from django import template

from games.presenters import money_text, presenter_for
from games.presenters import seat_name as seat_name_text

register = template.Library()

CARD_TEMPLATE = "games/_card.html"
_DRAWN_LIMIT = 4096
# A face's markup by autoescape and the face's values, per compiled card template: the cached loader hands
# out the same one until it is reset (``runserver`` resets it when a template changes), so an edited
# template is drawn anew, and loaders that do not cache give a new one, and so no reuse, each time.
_drawn: WeakKeyDictionary[template.base.Template, dict[tuple[Any, ...], str]] = WeakKeyDictionary()


class CardNode(template.Node):
    def __init__(self, face: template.base.FilterExpression) -> None:
        self.face = face

    def render(self, context: template.Context) -> str:
        face = self.face.resolve(context)
        engine = context.template.engine if context.template is not None else template.Engine.get_default()
        card_template = engine.get_template(CARD_TEMPLATE)
        kept = _drawn.setdefault(card_template, {})
        try:
            key = (context.autoescape, *face.values()) if isinstance(face, dict) else None
            drawn = kept.get(key) if key is not None else None
        except TypeError:  # a face with a value that is no plain str or bool: drawn each time
            key = drawn = None
        if drawn is None:
            drawn = card_template.render(template.Context({"card": face}, autoescape=context.autoescape))
            if key is not None and len(kept) < _DRAWN_LIMIT:
                kept[key] = drawn
        return drawn


@register.tag("card")
def card(parser: template.base.Parser, token: template.base.Token) -> CardNode:
    """``{% card face %}``: the card's markup from ``templates/games/_card.html``."""
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("Use {% card face %}.")
    return CardNode(parser.compile_filter(bits[1]))


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
