"""Shared helpers of the season-flow tests (tests/leagues/test_flow_*.py and friends): not a test module."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.test import Client
from django.urls import reverse

from accounts.models import User
from leagues.models import Round, Season
from tests.leagues.factories import make_league, make_season

# Far ahead: no round of these seasons is due, so the sweep opens or settles only what a test makes due.
FUTURE = date(2099, 1, 5)


def login(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def season_url(season: Season, name: str = "leagues-season", *args: object) -> str:
    return reverse(name, args=[season.league.club.slug, season.league.slug, season.number, *args])


def page(response: Any) -> str:
    return str(response.content.decode())


def sequential(*, rounds: int = 3, settle: str = "as_stands", **league: Any) -> Season:
    """Four players of Rentz at one table a round, one round after another, none of it due yet."""
    league.setdefault("game", "rentz")
    league.setdefault("options", {})
    return make_season(
        league=make_league(**league),
        players=4,
        rounds=rounds,
        round_mode="sequential",
        fill="byes",
        settle=settle,
        starts_on=FUTURE,
    )


def round_of(season: Season, number: int, division: int = 1) -> Round:
    return Round.objects.get(season=season, number=number, division=division)


def is_open(season: Season, number: int) -> bool:
    return round_of(season, number).opened_at is not None
