"""The table page as its reader sees it, for the table tests: a match moved on until it reaches the state
a test needs, the seat to act with a signed-in client, the page through the real view and its text."""

from __future__ import annotations

import html as html_lib
import re
from collections.abc import Callable
from typing import Any

from games.models import Match
from tests.games.conftest import login
from tests.games.factories import play_engine_moves


def page_text(page: str) -> str:
    """The page as a reader sees it: tags stripped, entities decoded, spaces collapsed."""
    body = page[page.find("<article") : page.find("</article>")]
    return re.sub(r"\s+", " ", html_lib.unescape(re.sub(r"<[^>]+>", " ", body)))


def advance_until(match: Match, until: Callable[[Match], bool], *, limit: int = 400, seed: int = 0) -> Match:
    """Random legal moves, one at a time, until ``until(match)`` holds."""
    for step in range(limit):
        if until(match) or match.is_over:
            break
        play_engine_moves(match, 1, seed=seed * 1000 + step)
    assert until(match), "the match never reached the state this test needs"
    return match


def reader_of(match: Match) -> tuple[int, Any]:
    """The seat to act (the first if several) and a client logged in as its player."""
    number = match.engine.to_act(match.state)[0]
    seat = match.seats.select_related("user").get(number=number)
    return number, login(seat.user)


def seat_names(match: Match) -> list[str]:
    """The seats' names, in seat order."""
    return [s.name for s in match.seats.order_by("number")]


def table_page(client: Any, match: Match) -> str:
    """The table page as ``client`` gets it."""
    response = client.get(match.get_absolute_url())
    assert response.status_code == 200
    return response.content.decode()
