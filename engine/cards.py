"""Card helpers shared by every game: codes, decks, shuffles, labels, options.

French-suited cards are rank then suit (``TH`` is the ten of hearts). Renfield
and Rapscallion's bidding cards have their own codes in their modules.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_NAMES = {"T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}


def french_deck(ranks: str = RANKS) -> list[str]:
    """Every card of the given ranks in all four suits, in a fixed order."""
    return [r + s for s in SUITS for r in ranks]


def rank_of(card: str) -> str:
    return card[0]


def suit_of(card: str) -> str:
    return card[1]


def rank_value(card: str) -> int:
    """2 is 0 ... A is 12 (ace high)."""
    return RANKS.index(card[0])


def label(card: str) -> str:
    """A French card as players write it: ``10♥``, ``K♠``."""
    return RANK_NAMES.get(card[0], card[0]) + SUIT_SYMBOLS[card[1]]


def rng_for(seed: int | str, *salt: object) -> random.Random:
    """A generator that depends only on the match seed and the salt.

    String seeds go through SHA-512 in ``random.Random``: stable across runs
    and Python versions, unlike ``hash()``.
    """
    return random.Random(":".join(str(part) for part in (seed, *salt)))


def shuffled(cards: Iterable[str], seed: int | str, *salt: object) -> list[str]:
    deck = list(cards)
    rng_for(seed, *salt).shuffle(deck)
    return deck


def check_stacked_deck(deck: Any, full_deck: Sequence[str], what: str = "deck") -> list[str]:
    """``options["deck"]`` must be a permutation of the game's deck."""
    if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
        raise ValueError(f"The {what} must be a list of card codes.")
    if sorted(deck) != sorted(full_deck):
        missing = sorted(set(full_deck) - set(deck))[:5]
        extra = sorted(set(deck) - set(full_deck))[:5]
        dupes = sorted({c for c in deck if deck.count(c) > 1})[:5]
        parts = []
        if missing:
            parts.append("missing " + ", ".join(missing))
        if extra:
            parts.append("unknown " + ", ".join(extra))
        if dupes:
            parts.append("repeated " + ", ".join(dupes))
        detail = "; ".join(parts) or f"it has {len(deck)} cards, not {len(full_deck)}"
        raise ValueError(f"The {what} is not a complete {len(full_deck)}-card deck: {detail}.")
    return list(deck)


# --- actions and views: shared by every game ---------------------------------


def is_whole(value: object) -> bool:
    """A whole number and nothing else. ``True == 1`` and ``1.0 == 1`` in
    Python, so ``isinstance``/``==`` would let a bool or a float through."""
    return type(value) is int


def _same_types(a: Any, b: Any) -> bool:
    """Whether two values already known to be ``==`` also agree in type, all the way down."""
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        return all(_same_types(value, b[key]) for key, value in a.items())
    if type(a) is list:
        return all(map(_same_types, a, b))
    return True


def action_in(action: object, legal: list[dict[str, Any]]) -> bool:
    """Whether ``action`` is one of ``legal``, compared type for type.

    ``apply`` accepts exactly the members of ``legal_actions`` and nothing
    else: ``{"amount": True}`` or ``{"amount": 1.0}`` equals ``{"amount": 1}``
    to Python's ``==``, so the member found by ``==`` is checked again with
    the types of every value.
    """
    if type(action) is not dict:
        return False
    try:
        # Members of legal_actions are distinct, so the first equal one decides.
        candidate = legal[legal.index(action)]
    except ValueError:
        return False
    for key, value in action.items():
        if type(value) is not type(candidate[key]) or (
            type(value) in _CONTAINERS and not _same_types(value, candidate[key])
        ):
            return False
    return True


_CONTAINERS = (dict, list)


def json_copy(value: Any) -> Any:
    """A deep copy of JSON data (dicts, lists, scalars); much faster than ``copy.deepcopy``."""
    if type(value) is list:
        return [json_copy(item) for item in value]
    if type(value) is dict:
        return {key: json_copy(item) for key, item in value.items()}
    return value


def view_scores(view: Mapping[str, Any]) -> list[float]:
    """A view's running ``scores`` as they are: ``running_scores`` of a game whose table keeps the score on its
    outcome's scale (every game but Renfield, whose table shows money held)."""
    return [float(s) for s in view["scores"]]


def public_part(state: Mapping[str, Any], fields: Iterable[str]) -> dict[str, Any]:
    """The state's public keys, copied, for a view: a caller editing a view cannot reach the state."""
    return {name: json_copy(state[name]) for name in fields}


def rebuild(
    view: Mapping[str, Any], private: Mapping[str, Any], public_fields: Sequence[str], private_fields: Sequence[str]
) -> dict[str, Any]:
    """A state from a view's public keys plus the private ones: each game's ``state_from_view``.

    ``private`` must hold exactly ``private_fields``: a KeyError otherwise, so
    a key added to a game's state cannot be silently left out by a bot.
    """
    if set(private) != set(private_fields):
        missing = sorted(set(private_fields) - set(private))
        extra = sorted(set(private) - set(private_fields))
        raise KeyError(
            f"The private parts must be exactly {', '.join(private_fields)}; missing {missing}, extra {extra}."
        )
    state = {name: view[name] for name in public_fields}
    state.update(private)
    return state


def places_from_scores(scores: Sequence[float], higher_is_better: bool = True) -> list[int]:
    """Competition ranking: ties share a place and the next place is skipped (1, 1, 3)."""
    sign = 1 if higher_is_better else -1
    return [1 + sum(1 for other in scores if sign * other > sign * mine) for mine in scores]


def validate_options(
    options: dict[str, Any] | None,
    schema: Sequence[dict[str, Any]],
    players: int,
    *,
    extra: Iterable[str] = ("deck",),
) -> dict[str, Any]:
    """Check ``options`` against a game's ``OPTIONS`` schema and fill defaults.

    Schema entries: ``{"name", "type", "default", "label", "help"}`` with
    type ``int`` (``min``/``max``), ``bool``, ``choice`` (``choices``),
    ``cards`` (a list of card codes, ``choices`` lists the codes allowed) or
    ``json`` (checked by the game). Names in ``extra`` pass through unchecked
    here (the game checks them, e.g. the stacked deck).
    """
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise ValueError("Options must be a dictionary of option names to values.")
    by_name = {entry["name"]: entry for entry in schema}
    unknown = sorted(set(options) - set(by_name) - set(extra))
    if unknown:
        known = ", ".join(sorted(set(by_name) | set(extra)))
        raise ValueError(f"Unknown option {unknown[0]!r}; the options are: {known}.")
    result: dict[str, Any] = {}
    for name, entry in by_name.items():
        value = options.get(name, entry.get("default"))
        result[name] = _check_option(entry, value) if name in options else value
    for name in extra:
        if name in options:
            result[name] = options[name]
    # A copy: the state keeps these values, and neither the caller's lists nor the schema's defaults may
    # be reachable from a state (a change to either would change the match, or every later match).
    return copy.deepcopy(result)


def _check_option(entry: dict[str, Any], value: Any) -> Any:
    name, kind = entry["name"], entry["type"]
    if kind == "bool":
        if not isinstance(value, bool):
            raise ValueError(f"Option {name!r} must be true or false.")
    elif kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"Option {name!r} must be a whole number.")
        lo, hi = entry.get("min"), entry.get("max")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise ValueError(f"Option {name!r} must be between {lo} and {hi}.")
    elif kind == "choice":
        if value not in entry["choices"]:
            raise ValueError(f"Option {name!r} must be one of: {', '.join(map(str, entry['choices']))}.")
    elif kind == "cards":
        allowed = entry.get("choices")
        if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
            raise ValueError(f"Option {name!r} must be a list of card codes.")
        if allowed is not None and any(c not in allowed for c in value):
            bad = next(c for c in value if c not in allowed)
            raise ValueError(f"Option {name!r}: {bad!r} is not a card of this game.")
        if len(set(value)) != len(value):
            raise ValueError(f"Option {name!r} names a card twice.")
    return value
