"""Turning engine data into readable HTML: cards with suit symbols, actions as labelled choices.

Every card is rendered with its code in ``data-card`` so that a page can be
checked for cards its reader may not see; the text is the engine's
``card_label`` (readable, with the suit symbol), never an image only. Only
codes taken from the reader's view are ever rendered that way: move buttons
name other cards in words.
"""

from __future__ import annotations

import html
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
# Moves that put a card of the reader's own hand somewhere: shown as the hand itself.
HAND_MOVES = ("play", "discard", "offer")
SUFFIXES = {1: "st", 2: "nd", 3: "rd"}
# One encoder for every action's hidden value: ``json.dumps`` with options builds a new one per call.
_ACTION_JSON = json.JSONEncoder(sort_keys=True, separators=(",", ":"))


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


def short_text(game_name: str, code: str) -> str:
    """The label as a card face shows it: a bidding card is just its number."""
    text = card_text(game_name, code) or code
    return text.removesuffix(" (bidding card)")


def _suit_class(game: ModuleType, code: str) -> str:
    if len(code) == 2 and code[1] in SUIT_CLASSES:
        return "suit-" + SUIT_CLASSES[code[1]]
    if code.startswith("R-"):  # a Rapscallion wears its set's colour
        return "colour-" + code.split("-")[1]
    return "suit-" + code[0].lower() if code[:1].isalpha() else ""


@lru_cache(maxsize=4096)
def card_html(game_name: str, code: str) -> SafeString:
    if code == "hidden":  # the face-down card is a card back, never a code
        return mark_safe('<span class="card back" title="the face-down card">?</span>')
    text = short_text(game_name, code)
    cls = _suit_class(get_game(game_name), code)
    return format_html('<span class="card {}" data-card="{}">{}</span>', cls, code, text)


def cards_html(game_name: str, codes: list[str] | None, empty: str = "none") -> SafeString:
    if not codes:
        return format_html('<span class="empty">{}</span>', empty)
    # Every piece is already safe HTML from card_html: joined as is, without format_html's escaping pass.
    return mark_safe('<span class="cards">' + "".join([card_html(game_name, c) for c in codes]) + "</span>")


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


# --- words ------------------------------------------------------------------


def ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else SUFFIXES.get(place % 10, "th")
    return f"{place}{suffix}"


def money_text(amount: int) -> str:
    """Dollars with the sign in front: a debt reads ``-$5``."""
    return f"-${-amount}" if amount < 0 else f"${amount}"


def suit_name(game_name: str, suit: str) -> str:
    if game_name == "renfield":
        return get_game(game_name).SUIT_NAMES.get(suit, suit)
    return SUIT_SYMBOLS.get(suit, suit)


def suit_order_text(game_name: str, suits: list[str]) -> str:
    """``["T", "S", "P"]`` -> ``Tools > Stones > Parts`` (highest first)."""
    return " > ".join(suit_name(game_name, s) for s in suits)


def mini_title(game_name: str, key: str | None) -> str:
    titles = getattr(get_game(game_name), "MINI_TITLES", {})
    return titles.get(key, str(key).replace("_", " ").capitalize()) if key else ""


def result_line(view: dict[str, Any], seat: int | None, names: list[str]) -> str:
    """One sentence for the end of the match, from the reader's side of the table."""
    outcome = view.get("outcome") or {}
    places = outcome.get("places") or []
    if not places:
        return ""
    if seat is None or seat >= len(places):
        winners = [names[n] if n < len(names) else str(n) for n, p in enumerate(places) if p == 1]
        return ("Won by " if len(winners) == 1 else "Shared win: ") + " & ".join(winners) + "."
    place = places[seat]
    if "teams" in view:
        return "Your team won." if place == 1 else "Your team lost."
    shared = places.count(place) > 1
    if place == 1:
        return f"You won{' (shared)' if shared else ''} (1st of {len(places)})."
    return f"You came {ordinal(place)}{' (shared)' if shared else ''} of {len(places)}."


# --- moves ------------------------------------------------------------------


def action_label(game_name: str, action: dict[str, Any], view: dict[str, Any] | None = None) -> str:
    """A short label for a button or an option: 'Play 10♥', 'Bid $4', 'Side bet: 13'."""
    kind = str(action.get("type", "move"))
    special = _special_label(game_name, kind, action, view or {})
    if special:
        return special
    words = [kind.replace("_", " ").capitalize()]
    words += [_param_text(game_name, v) for k, v in action.items() if k != "type"]
    return " ".join(words)


def _special_label(game_name: str, kind: str, action: dict[str, Any], view: dict[str, Any]) -> str:
    card = action.get("card")
    text = short_text(game_name, card) if isinstance(card, str) else ""
    if kind == "side_bet":
        return f"Side bet: {text}"
    if kind == "bid" and card:
        return f"Bid {text}"
    if kind == "take":
        return "Take the face-down card" if card == "hidden" else f"Take {text}"
    if kind == "choose":
        return mini_title(game_name, action.get("game"))
    if kind == "bid" and "amount" in action:
        return _bid_label(action["amount"], view)
    if kind == "order":
        return suit_order_text(game_name, action["suits"])
    if kind == "play" and "suit" in action:
        return f"as {suit_name(game_name, action['suit'])} {action['rank']}"
    return _renfield_label(kind, view) if game_name == "renfield" else ""


def _bid_label(amount: int, view: dict[str, Any]) -> str:
    if view.get("phase") == "bidding" and (view.get("options") or {}).get("blaze"):
        return f"{amount} bugs"
    return f"${amount}"


def _renfield_label(kind: str, view: dict[str, Any]) -> str:
    """Draw's betting moves say how much they cost; the rest are plain words."""
    betting, step = view.get("betting") or {}, (view.get("options") or {}).get("draw_bet", 0)
    bet, put, seat = betting.get("bet", 0), betting.get("put") or [], view.get("seat") or 0
    owed = bet - put[seat] if seat < len(put) else bet
    labels = {
        "bet": f"Bet ${step}", "raise": f"Raise to ${bet + step}", "call": f"Call ${max(owed, 0)}",
        "check": "Check", "fold": "Fold", "pass": "Pass", "draw": "Done: draw new cards",
        "buy": "Buy out of the trick",
    }
    return labels.get(kind, "")


def _param_text(game_name: str, value: Any) -> str:
    if isinstance(value, str):
        return card_text(game_name, value) or value
    if isinstance(value, list):
        return ", ".join(_param_text(game_name, v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {_param_text(game_name, v)}" for k, v in value.items())
    return str(value)


GROUP_LABELS = {
    "play": "Play", "discard": "Discard", "offer": "Offer", "side_bet": "Side bet", "bid": "Bid",
    "take": "Take", "choose": "Choose the game", "order": "Suit order, highest first",
}


def action_groups(game_name: str, legal: list[dict[str, Any]], view: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Legal actions grouped by type: the hand, card buttons, plain buttons, or one select for long lists.

    Choices that read the same (Rapscallion's two red Rapscallions) are shown once: either may be sent.
    """
    view = view or {}
    groups: dict[str, list[dict[str, Any]]] = {}
    for action in legal:
        kind = str(action.get("type", "move"))
        if kind == "play" and "suit" in action:
            kind = "wild:" + action["card"]  # a wild card: one select of what it is played as
        groups.setdefault(kind, []).append(action)
    hand = set(view.get("hand") or [])
    result = [_group(game_name, kind, actions, view, hand) for kind, actions in groups.items()]
    wilds = {g["card"] for g in result if g["type"] == "wild"}
    for group in result:
        group["wilds"] = wilds  # played through their own select, so not greyed in the hand
    return result


def _group(game_name: str, kind: str, actions: list[dict[str, Any]], view: dict[str, Any], hand: set[str]) -> dict[str, Any]:
    choices = _unique(_choice(game_name, a, view) for a in actions)
    cards = [a.get("card") for a in actions]
    if kind.startswith("wild:"):
        label = f"Play {card_text(game_name, kind[5:])}"
        return {"type": "wild", "label": label, "widget": "select", "choices": choices, "card": kind[5:]}
    if kind in HAND_MOVES and hand and all(set(a) == {"type", "card"} and c in hand for a, c in zip(actions, cards)):
        widget = "hand"
    elif all(set(a) == {"type", "card"} for a in actions) and all(c["card"] for c in choices):
        widget = "cards"
    else:
        widget = "select" if len(choices) > MAX_BUTTONS or kind == "order" else "buttons"
    label = GROUP_LABELS.get(kind, kind.replace("_", " ").capitalize())
    return {"type": kind, "label": label, "widget": widget, "choices": choices,
            "cards": {c: ch for c, ch in zip(cards, choices) if isinstance(c, str)}}


def _unique(choices: Any) -> list[dict[str, Any]]:
    seen: set[str] = set()
    result = []
    for choice in choices:
        if choice["label"] not in seen:
            seen.add(choice["label"])
            result.append(choice)
    return result


def _choice(game_name: str, action: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    card = action.get("card")
    visible = isinstance(card, str) and card_text(game_name, card) is not None and _in_view(card, view)
    label = action_label(game_name, action, view)
    return {
        "value": _ACTION_JSON.encode(action),
        "label": label,
        "card": card_html(game_name, card) if visible else None,
        # The words around the card on its button: "Take" K♠, "Side bet:" 13.
        "verb": label.removesuffix(short_text(game_name, card)).strip() if visible else label,
    }


def _in_view(card: str, view: dict[str, Any]) -> bool:
    """A card may be drawn as a card only where the reader's view holds it; else it is named in words."""
    if not view:
        return True
    for key in ("hand", "bidding_cards", "centre"):
        if card in (view.get(key) or []):
            return True
    return False


def hand_buttons(group: dict[str, Any], hand: list[str]) -> list[tuple[str, dict[str, Any] | None, bool]]:
    """The hand in its own order: each card with its move (a button) or None (greyed), and whether it is a wild card."""
    cards, wilds = group.get("cards") or {}, group.get("wilds") or set()
    return [(code, cards.get(code), code in wilds) for code in hand]


# --- the rules line ---------------------------------------------------------

RENFIELD_VARIANTS = ("auction", "blaze", "death_card", "draw", "flatline", "stud", "wild_cards",
                     "breathing_room", "buying_the_trick")


def rules_line(game_name: str, view: dict[str, Any]) -> str:
    """The few options a player needs while playing, in one line; the option keys themselves stay out."""
    options = view.get("options") or {}
    if game_name == "renfield":
        return _renfield_rules(options)
    if game_name == "rentz" and options.get("points"):
        points = options["points"]
        parts = [f"{mini_title(game_name, k)} {v}" for k, v in points.items() if k != "rentz"]
        parts.append("Rentz " + "/".join(str(p) for p in points.get("rentz", [])))
        return "Points: " + " · ".join(parts)
    return ""


def _renfield_rules(options: dict[str, Any]) -> str:
    labels = {o["name"]: o["label"] for o in get_game("renfield").OPTIONS}
    parts = [f"stake ${options.get('stake', 0)}"]
    for name in RENFIELD_VARIANTS:
        if not options.get(name):
            continue
        text = labels.get(name, name)
        if name == "death_card":
            text += f" ({', '.join(options.get('death_cards') or [])}{', any time' if options.get('death_all_suits') else ''})"
        elif name == "wild_cards":
            text += f" ({', '.join(options.get('wilds') or [])})"
        elif name == "draw":
            text += f" (bets ${options.get('draw_bet')})"
        elif name == "flatline" and options.get("flatline_zeroes"):
            text += " (zeroes shuffled in)"
        parts.append(text)
    return " · ".join(parts)


# --- tricks -----------------------------------------------------------------


def trick_plays(trick: dict[str, Any], players: int) -> list[dict[str, Any]]:
    """A finished trick's plays as ``{"seat", "card", ...}``, whichever shape the game stores it in."""
    plays = trick.get("plays") or trick.get("cards") or []
    if plays and isinstance(plays[0], str):  # bare codes, in order from the leader
        leader = trick.get("leader") or 0
        return [{"seat": (leader + i) % max(players, 1), "card": c} for i, c in enumerate(plays)]
    return list(plays)


def last_trick(view: dict[str, Any]) -> dict[str, Any] | None:
    tricks = view.get("tricks") or []
    if not tricks:
        return None
    trick = tricks[-1]
    taker = trick.get("taker", trick.get("winner"))
    return {"taker": taker, "plays": trick_plays(trick, view.get("players") or 0)}


FRENCH_RANKS = "23456789TJQKA"


def layout_row(row: dict[str, str] | None) -> list[str]:
    """A Rentz layout row ``{"low": "9H", "high": "QH"}`` as every card laid in it, low to high."""
    if not row:
        return []
    low, high, suit = FRENCH_RANKS.index(row["low"][0]), FRENCH_RANKS.index(row["high"][0]), row["low"][1]
    return [FRENCH_RANKS[r] + suit for r in range(low, high + 1)]


# --- the move forms, built once in Python --------------------------------------
# The table page used to build these with nested template loops and a few filters per card, the
# costliest part of its render. The HTML is the same, attribute for attribute.


WILD_TITLE = "A wild card: choose below what it is played as"


def _esc(value: Any) -> str:
    """Django's ``escape`` without its lazy-string check: these values are never lazy."""
    return html.escape(str(value))


def _form_head(cls: str, url: str, csrf_input: str, version: int, extra: str = "") -> str:
    return (f'<form class="{cls}" method="post" action="{url}"\n      hx-post="{url}" hx-target="#live" '
            f'hx-swap="outerHTML"{extra}>\n  {csrf_input}<input type="hidden" name="version" value="{version}">\n')


def _hand_form(game_name: str, group: dict[str, Any], hand: list[str], head: tuple[str, str, int]) -> str:
    label = _esc(group["label"])
    unplayable = _esc(str(group["label"]).lower())
    parts = [_form_head("actions actions-hand", *head, extra=f' aria-label="{label} a card"'),
             f'    <span class="group-label">{label} a card from your hand:</span>\n    <div class="cards hand">\n']
    for code, choice, wild in hand_buttons(group, hand):
        card = card_html(game_name, code)
        if wild:
            parts.append(f'      <span class="wild" title="{WILD_TITLE}">{card}<small>wild</small></span>\n')
        elif choice:
            parts.append(f'      <button type="submit" name="action" value="{_esc(choice["value"])}" '
                         f'class="action card-button" title="{_esc(choice["label"])}">{card}</button>\n')
        else:
            parts.append(f'      <span class="unplayable" title="You cannot {unplayable} this card now">{card}</span>\n')
    parts.append("    </div>\n  </form>\n")
    return "".join(parts)


def _cards_div(game_name: str, codes: list[str] | None, empty: str) -> str:
    return "".join(card_html(game_name, c) for c in codes) if codes else f'<span class="empty">{empty}</span>'


def _my_cards(game_name: str, view: dict[str, Any], groups: list[dict[str, Any]], head: tuple[str, str, int]) -> str:
    hand = list(view.get("hand") or [])
    parts = ['<div class="my-cards">\n']
    parts += [_hand_form(game_name, g, hand, head) for g in groups if g.get("widget") == "hand"]
    if not any(g.get("widget") == "hand" for g in groups):
        parts.append('  <section class="hand" aria-label="Your hand">\n    <h2>Your hand</h2>\n'
                     f'    <div class="cards hand">{_cards_div(game_name, hand, "no cards")}</div>\n  </section>\n')
    if "bidding_cards" in view:
        parts.append('  <section class="bidding-hand" aria-label="Your bidding cards">\n    <h3>Your bidding cards</h3>\n'
                     f'    <div class="cards">{_cards_div(game_name, view["bidding_cards"], "none")}</div>\n  </section>\n')
    parts.append("</div>\n")
    return "".join(parts)


def _select_body(group: dict[str, Any]) -> str:
    label = _esc(group["label"])
    options = "".join(f'<option value="{_esc(c["value"])}">{_esc(c["label"])}</option>' for c in group["choices"])
    button = {"wild": "Play it", "order": "Set the order"}.get(group["type"], label)
    return (f'    <label>{label + " (wild)" if group["type"] == "wild" else label}\n'
            f'      <select name="action">{options}</select>\n    </label>\n'
            f'    <button type="submit">{button}</button>\n')


def _buttons_body(group: dict[str, Any]) -> str:
    choices = group["choices"]
    parts = []
    if group["type"] == "choose" or (group["type"] == "bid" and not (choices and choices[0]["card"])):
        parts.append(f'<span class="group-label">{_esc(group["label"])}:</span>')
    for c in choices:
        inner = f'{_esc(c["verb"])} {c["card"]}' if c["card"] else _esc(c["label"])
        parts.append(f'\n    <button type="submit" name="action" value="{_esc(c["value"])}" '
                     f'class="action{" with-card" if c["card"] else ""}">{inner}</button>')
    return "    " + "".join(parts) + "\n"


def moves_html(game_name: str, view: dict[str, Any], groups: list[dict[str, Any]], *,
               url: str, version: int, csrf_input: str) -> SafeString:
    """The reader's hand and every move form of the turn panel, as one piece of HTML."""
    head = (url, csrf_input, version)
    parts = [_my_cards(game_name, view, groups, head)] if "hand" in view else []
    for group in groups:
        if group.get("widget") == "hand":
            continue
        body = _select_body(group) if group["widget"] == "select" else _buttons_body(group)
        parts.append(_form_head(f"actions actions-{_esc(group['widget'])}", *head) + body + "</form>\n")
    return mark_safe("".join(parts))  # safe: every value above is escaped or already safe HTML


def plays_html(game_name: str, plays: list[dict[str, Any]] | None, names: list[str]) -> SafeString:
    """A trick's plays as ``<li>`` items: who played which card (and what a wild card stood for)."""
    parts = []
    for p in plays or []:
        p = p if isinstance(p, dict) else {}  # as the template read a malformed play: nothing to show
        seat = p.get("seat", "")
        who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ("" if seat is None else seat)
        card = card_html(game_name, p.get("card", ""))
        suit = p.get("suit")
        wild = f' <small>as {_esc(suit_name(game_name, suit))} {_esc(p.get("rank", ""))}</small>' if suit else ""
        parts.append(f'<li class="play"><span class="who">{_esc(who)}</span> {card}{wild}</li>\n')
    return mark_safe("".join(parts))  # safe: escaped above
