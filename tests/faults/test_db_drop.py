"""The database connection dropped in the middle of a move: the move is fully in or fully out, and the
player is told so in a sentence, not shown a bare server error.

The drop is real: once the move's rows are written, still uncommitted, the request's own PostgreSQL
backend is ended with ``pg_terminate_backend``, as a database restart or a failover would end it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.db import OperationalError, connection, connections
from django.test import Client

from games import services
from games.models import Match, Move
from games.services import SeatSpec, match_create
from tests.faults.matches import a_player

pytestmark = [pytest.mark.postgres]


DROPPED: list[str] = []


def dropping(original: Callable[..., Any]) -> Callable[..., Any]:
    def save_then_drop(*args: Any, **kwargs: Any) -> None:
        original(*args, **kwargs)  # the move's INSERT and the snapshot's UPDATE, not yet committed
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")
        except OperationalError as exc:
            DROPPED.append(str(exc))
            raise

    return save_then_drop


def post_a_move_while_the_connection_drops(monkeypatch: pytest.MonkeyPatch, *, htmx: bool) -> tuple[Match, Any]:
    players = [a_player() for _ in range(3)]
    match = match_create(
        game="renfield", players=3, options={}, created_by=players[0], seats=[SeatSpec(user=u) for u in players]
    )
    match.refresh_from_db()
    seat = next(s for s in match.seats.all() if s.awaiting)
    action = match.engine.legal_actions(match.state, seat.number)[0]
    client = Client(raise_request_exception=False)
    client.force_login(players[seat.number])
    monkeypatch.setattr(services, "_save_moves", dropping(services._save_moves))
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.post(
        f"/m/{match.pk}/play/", {"action": json.dumps(action), "version": match.version}, headers=headers
    )
    monkeypatch.undo()
    connections.close_all()  # the dropped connection is not used again
    return match, response


@pytest.mark.django_db(transaction=True)
def test_it_keeps_the_move_fully_out_when_the_connection_drops(monkeypatch: pytest.MonkeyPatch) -> None:
    DROPPED.clear()
    match, _response = post_a_move_while_the_connection_drops(monkeypatch, htmx=False)
    assert DROPPED, "the connection was not dropped during the move"
    stored = Match.objects.get(pk=match.pk)
    assert Move.objects.filter(match=match).count() == stored.version == match.version
    assert stored.state == match.state


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
def test_it_tells_the_player_when_the_connection_drops(monkeypatch: pytest.MonkeyPatch, htmx: bool) -> None:
    _match, response = post_a_move_while_the_connection_drops(monkeypatch, htmx=htmx)
    # 503, not 500: the service was unavailable, the request was fine; the page says what happened.
    assert response.status_code == 503 and response["Retry-After"]
    assert b"try again" in response.content.lower() and b"was not made" in response.content.lower()
