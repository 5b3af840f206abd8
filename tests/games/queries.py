"""The SQL of one move, counted: the budget a move must keep to and the writes among its statements."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Match
from games.services import move_submit

# The most statements one move may cost, through the service the play view calls.
MOVE_QUERY_BUDGET = 7


def move_queries(match: Match) -> list[str]:
    """The SQL of one move by the first seat to act, through the service the play view calls."""
    match.refresh_from_db()
    seat = match.seats.select_related("user").get(number=match.engine.to_act(match.state)[0])
    action = match.engine.legal_actions(match.state, seat.number)[0]
    with CaptureQueriesContext(connection) as ctx:
        move_submit(match=match, user=seat.user, seat=seat.number, action=action, version=match.version)
    return [q["sql"] for q in ctx.captured_queries]


def writes(queries: list[str], verb: str, table: str) -> int:
    """How many of ``queries`` are ``verb`` (INSERT, UPDATE) statements on ``table``."""
    return sum(q.startswith(verb) and f'"{table}"' in q.split("SET")[0].split("(")[0] for q in queries)
