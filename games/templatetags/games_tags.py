"""Filters for the table templates: plain data only (words, numbers, card faces as dicts), never markup.

A card is drawn by ``templates/games/_card.html`` from the face these filters give:
``{% for card in view.centre|faces:game_name %}{% card card %}{% endfor %}``. ``{% card face %}`` renders
that template once per face and process and gives the same markup again for the same face: a table draws
dozens of cards from a deck of a few dozen faces, and each render of the template costs more than the
card's whole markup (issue 25); ``{% cards faces %}`` likewise draws a row of them
(``templates/games/_cards.html``). ``{% logline line %}`` does the same for a line of the table's log
(``templates/games/_log_line.html``): the table words its whole log tail again on every new version, and
all but the newest lines are the ones the last page drew (issue 24).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

from django import template

from games.presenters import money_text, presenter_for
from games.presenters import seat_name as seat_name_text

register = template.Library()

CARD_TEMPLATE = "games/_card.html"
CARDS_TEMPLATE = "games/_cards.html"
LOG_LINE_TEMPLATE = "games/_log_line.html"
_DRAWN_LIMIT = 4096
# A drawing's markup by autoescape and the values drawn, per compiled template: the cached loader hands
# out the same one until it is reset (``runserver`` resets it when a template changes), so an edited
# template is drawn anew, and loaders that do not cache give a new one, and so no reuse, each time.
_drawn: WeakKeyDictionary[template.base.Template, dict[tuple[Any, ...], str]] = WeakKeyDictionary()
# A flat dict (its values of these types only) is keyed by its items as they are, its fields compared as
# Python compares them (True == 1): a field must hold one type, as the presenters' faces, lines and rows do.
# Elsewhere booleans and floats are kept apart from the integers they equal, since a template prints them
# differently; a str subclass (a string marked safe, which the template would not escape) has no key at all,
# so what holds one is drawn each time.
_FLAT = frozenset({str, int, bool, type(None)})
_SCALARS = frozenset({str, int, type(None)})
_TRUE, _FALSE = object(), object()
# Set to False (tests/games/test_drawn_tags.py) to draw every block each time in the page's whole context:
# what a block shows must not change, or it reads something it was not given.
DRAW_ONCE = True


def drawing_key(value: Any) -> Any:
    """``value`` as the key its drawing is kept under: the same for values a template prints alike, never
    for two it prints apart. Plain data only (dicts, lists and tuples of str, int, float, bool and None);
    TypeError for anything else. A flat dict (a card face, most log lines: keys a page asks for some hundred
    times) is its items, with no call per field."""
    kind = type(value)
    if kind is dict:
        if _FLAT.issuperset(map(type, value.values())):
            return tuple(value.items())
        return (dict, *[(k, drawing_key(v)) for k, v in value.items()])
    if kind in _SCALARS:
        return value
    if kind is list or kind is tuple:
        return (list, *map(drawing_key, value))
    if kind is bool:
        return _TRUE if value else _FALSE
    if kind is float:
        return (float, value)
    raise TypeError(f"not plain data: {kind.__name__}")


def _drawing(kept: dict[tuple[Any, ...], str], autoescape: bool, values: Any, draw: Callable[[], str]) -> str:
    """The markup kept for ``values`` (``drawing_key``), else ``draw()``'s, kept for the next time; values that
    are not plain data are drawn each time. A full memory starts again (a log's lines are without end, unlike
    a deck's faces)."""
    try:
        key = (autoescape, *map(drawing_key, values))
    except TypeError:
        return draw()
    drawn = kept.get(key)
    if drawn is None:
        drawn = draw()
        if len(kept) >= _DRAWN_LIMIT:
            kept.clear()
        kept[key] = drawn
    return drawn


class DrawnNode(template.Node):
    """``template_name`` rendered with ``{name: value}`` alone, once per value (``drawing_key``) and process."""

    def __init__(self, value: template.base.FilterExpression, template_name: str, name: str) -> None:
        self.value, self.template_name, self.name = value, template_name, name

    def render(self, context: template.Context) -> str:
        value = self.value.resolve(context)
        # The template and its drawings, looked up once per page (as {% include %} keeps its template).
        page: dict[Any, Any] = context.render_context.dicts[0]
        found = page.get(self)
        if found is None:
            engine = context.template.engine if context.template is not None else template.Engine.get_default()
            drawing = engine.get_template(self.template_name)
            found = page[self] = (drawing, _drawn.setdefault(drawing, {}))
        drawing, kept = found
        alone = template.Context({self.name: value}, autoescape=context.autoescape)
        return _drawing(kept, context.autoescape, (value,), lambda: drawing.render(alone))


class DrawnBlockNode(template.Node):
    """``{% drawn name=value … %}…{% enddrawn %}``: the block rendered from those values alone (nothing else
    of the page's context is seen in it), once per values (``drawing_key``) and process. The node keeps its
    drawings: a template compiled anew (an edit under ``runserver``) has new nodes, and so draws anew."""

    def __init__(self, nodelist: template.NodeList, values: dict[str, template.base.FilterExpression]) -> None:
        self.nodelist, self.values = nodelist, values
        self.kept: dict[tuple[Any, ...], str] = {}

    def render(self, context: template.Context) -> str:
        values = {name: value.resolve(context) for name, value in self.values.items()}
        if not DRAW_ONCE:
            with context.push(values):
                return self.nodelist.render(context)
        return _drawing(
            self.kept, context.autoescape, values.values(), lambda: self.nodelist.render(context.new(values))
        )


@register.tag("drawn")
def drawn(parser: template.base.Parser, token: template.base.Token) -> DrawnBlockNode:
    """``{% drawn taker=t.taker cards=t.cards %}…{% enddrawn %}``: see ``DrawnBlockNode``."""
    bits = token.split_contents()[1:]
    values = template.base.token_kwargs(bits, parser, support_legacy=False)
    if not values or bits:
        raise template.TemplateSyntaxError("Use {% drawn name=value … %}…{% enddrawn %}.")
    nodelist = parser.parse(("enddrawn",))
    parser.delete_first_token()
    return DrawnBlockNode(nodelist, values)


def _drawn_tag(tag: str, template_name: str, name: str) -> None:
    def compile_tag(parser: template.base.Parser, token: template.base.Token) -> DrawnNode:
        bits = token.split_contents()
        if len(bits) != 2:
            raise template.TemplateSyntaxError(f"Use {{% {tag} {name} %}}.")
        return DrawnNode(parser.compile_filter(bits[1]), template_name, name)

    compile_tag.__doc__ = f"``{{% {tag} {name} %}}``: the markup of ``templates/{template_name}``."
    register.tag(tag, compile_tag)


_drawn_tag("card", CARD_TEMPLATE, "card")  # a card face (Presenter.card)
_drawn_tag("cards", CARDS_TEMPLATE, "cards")  # a row of faces, or "none" (Presenter.cards)
_drawn_tag("logline", LOG_LINE_TEMPLATE, "line")  # a line of the table's log (Presenter.log_entry)


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
