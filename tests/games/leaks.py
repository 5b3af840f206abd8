"""The leak scan: the card codes in a JSON value (a state, a view, legal actions) and which of them a page,
a fragment or a mail shows. Cards are rendered with their codes (``data-card``, button values), so a code
found outside its reader's view is a leak; the reader's own hand must be found by the same scan."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from games.presenters import presenter_for


def _strings(data: Any) -> Iterator[str]:
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield key
            yield from _strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from _strings(value)


def card_codes(game: str, data: Any) -> set[str]:
    # Card codes start with a rank or suit (``TH``, ``T12``, ``B7``, ``R-red-1``); words such as
    # "hidden" are not codes, and single letters are suits, even where card_label accepts them.
    return {
        s
        for s in _strings(data)
        if len(s) >= 2 and (s[0].isupper() or s[0].isdigit()) and presenter_for(game).card_text(s)
    }


def codes_found(codes: set[str], html: str) -> set[str]:
    """The codes that ``html`` shows as whole codes (``KS`` is not found in ``KS2``)."""
    return {c for c in codes if re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])", html)}
