"""The standings exports (CSV and JSON) carry each player's reliability, whatever the league's tie-breaks.

Timeouts, every move made at the player's seats, the moves a bot made there and the bot's share of them:
the expected figures are read from the match's raw log (``Move`` rows), not from the league's sums.
"""

from __future__ import annotations

import csv
import io
import json
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Match, Move, Seat
from games.services import match_timeouts
from leagues.models import Entrant, Season
from leagues.results import fixture_count
from tests.games.factories import play_engine_moves, play_until_turn
from tests.leagues.factories import fixtures_of, make_season

pytestmark = pytest.mark.django_db

RELIABILITY = ("timeouts", "moves", "bot_moves", "bot_share")
BY_BOT = (Move.Kind.BOT, Move.Kind.TIMEOUT)


def _played_with_a_timeout() -> tuple[Season, Match]:
    """A one-table season whose match had seat 1 time out once, then was played to its end and counted."""
    season = make_season(players=4, rounds=1, fill="byes")
    match = fixtures_of(season)[0].match
    assert match is not None
    play_until_turn(match, 1, seed=1)
    Seat.objects.filter(match=match, number=1).update(deadline=timezone.now() - timedelta(minutes=1))
    assert match_timeouts(match_id=match.pk) == 1
    play_engine_moves(match, 0, until_over=True, seed=5)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert fixture_count(match_id=match.pk)
    return season, match


def _expected(season: Season, match: Match) -> dict[str, dict[str, Any]]:
    """Each player's figures counted from the match's log, by name."""
    fixture = fixtures_of(season)[0]
    expected = {}
    for seat, entrant_id in enumerate(fixture.seats):
        log = Move.objects.filter(match=match, seat=seat)
        moves, by_bot = log.count(), log.filter(kind__in=BY_BOT).count()
        name = Entrant.objects.select_related("user").get(pk=entrant_id).user.name
        expected[name] = {
            "timeouts": log.filter(kind=Move.Kind.TIMEOUT).count(),
            "moves": moves,
            "bot_moves": by_bot,
            "bot_share": round(by_bot / moves, 4) if moves else None,
        }
    return expected


def _url(season: Season, name: str) -> str:
    return reverse(name, args=[season.league.club.slug, season.league.slug, season.number])


def test_it_exports_timeouts_moves_and_the_bot_share_in_the_json() -> None:
    season, match = _played_with_a_timeout()
    data = json.loads(Client().get(_url(season, "leagues-standings-json")).content)
    got = {line["player"]: {key: line[key] for key in RELIABILITY} for line in data["standings"]}
    expected = _expected(season, match)
    assert got == expected
    assert sum(figures["timeouts"] for figures in got.values()) == 1


def test_it_exports_the_same_figures_in_the_csv() -> None:
    season, match = _played_with_a_timeout()
    text = Client().get(_url(season, "leagues-standings-csv")).content.decode()
    lines = list(csv.DictReader(io.StringIO(text)))
    assert set(RELIABILITY) <= set(lines[0])
    expected = _expected(season, match)
    for line in lines:
        want = expected[line["player"]]
        assert int(line["timeouts"]) == want["timeouts"] and int(line["moves"]) == want["moves"]
        assert int(line["bot_moves"]) == want["bot_moves"]
        assert float(line["bot_share"]) == pytest.approx(want["bot_share"], abs=1e-4)


def test_it_leaves_the_bot_share_empty_before_any_move() -> None:
    season = make_season(players=4, rounds=1, fill="byes")
    data = json.loads(Client().get(_url(season, "leagues-standings-json")).content)
    assert {(line["moves"], line["bot_share"]) for line in data["standings"]} == {(0, None)}
    lines = list(csv.DictReader(io.StringIO(Client().get(_url(season, "leagues-standings-csv")).content.decode())))
    assert {line["bot_share"] for line in lines} == {""}
