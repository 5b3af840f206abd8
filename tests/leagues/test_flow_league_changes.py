"""Changing a league's tie-breaks (at any time) or scoring (between seasons) is written in the record of every
season not yet finished, with what it was before and after, and shown on the season's page."""

from __future__ import annotations

import html
from typing import Any

import pytest

from leagues import tiebreaks
from leagues.models import AuditEntry, League, Season
from leagues.seasons import league_update
from tests.leagues.factories import make_season, organizer_of
from tests.leagues.flow_world import login, page, season_url

pytestmark = pytest.mark.django_db


def _settings(league: League, **changed: Any) -> dict[str, Any]:
    kept = {"name": league.name, "game": league.game, "table_size": league.table_size, "options": league.options}
    return {**kept, "time_control": league.time_control, "tiebreaks": list(league.tiebreaks), **changed}


def test_a_tiebreak_change_mid_season_is_recorded_before_and_after_and_shown() -> None:
    season = make_season(players=4, rounds=1)
    league = season.league
    before = list(league.tiebreaks)
    organizer = organizer_of(league.club)
    league_update(league=league, actor=organizer, **_settings(league, tiebreaks=["points", "game_score"]))
    entry = AuditEntry.objects.get(season=season, text__contains="tie-breaks changed")
    assert entry.actor == organizer
    assert entry.data == {"before": {"tiebreaks": before}, "after": {"tiebreaks": ["points", "game_score"]}}
    labels = ", ".join(tiebreaks.TIEBREAKS[k] for k in before)
    assert entry.text == f"{league.name}: the tie-breaks changed from ({labels}) to (Points, Sum of game scores)."
    assert html.escape(entry.text) in page(login(organizer).get(season_url(season)))


def test_a_scoring_change_between_seasons_is_recorded_in_the_season_to_come_only() -> None:
    finished = make_season(players=4, rounds=1)
    Season.objects.filter(pk=finished.pk).update(status=Season.Status.FINISHED)
    coming = make_season(league=finished.league, players=4, rounds=1, start=False)
    league = finished.league
    league_update(league=league, actor=organizer_of(league.club), **_settings(league, place_points=[5, 3, 1, 0]))
    entry = AuditEntry.objects.get(season=coming, text__contains="points per place changed")
    assert entry.data["before"] == {"place_points": [4.0, 2.0, 1.0, 0.0]}
    assert entry.data["after"] == {"place_points": [5.0, 3.0, 1.0, 0.0]}
    assert "the points per place changed from (4, 2, 1, 0) to (5, 3, 1, 0)" in entry.text
    assert not AuditEntry.objects.filter(season=finished, text__contains="changed from").exists()


def test_saving_the_league_unchanged_records_nothing() -> None:
    season = make_season(players=4, rounds=1)
    league = season.league
    before = AuditEntry.objects.count()
    league_update(league=league, actor=organizer_of(league.club), **_settings(league))
    assert AuditEntry.objects.count() == before
