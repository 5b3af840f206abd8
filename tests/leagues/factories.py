"""Clubs, leagues and running seasons for tests, made through the services as an organizer would.

``finish`` ends a fixture's match with a given outcome in one UPDATE: the standings tests are
about what a result does to the table, not about playing cards (``tests/leagues/test_results.py``
also plays one match out through the moves to cover the way there).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.utils import timezone

from accounts.models import User
from games.models import Match, Seat
from leagues.clubs import club_create
from leagues.models import Club, Entrant, Fixture, League, Membership, Season
from leagues.seasons import (
    entrant_set_division,
    fixtures_generate,
    league_create,
    season_close_registration,
    season_create,
    season_open_registration,
    season_register,
    season_start,
)
from tests.accounts.factories import UserFactory
from tests.games.factories import quick_options

__all__ = ["UserFactory", "finish", "make_club", "make_league", "make_season", "member"]


def make_club(*, organizer: User | None = None, public: bool = True, name: str = "Tuesday Club") -> Club:
    return club_create(name=name, created_by=organizer or UserFactory(), public=public)


def organizer_of(club: Club) -> User:
    membership = club.memberships.filter(role=Membership.Role.ORGANIZER).select_related("user").first()
    assert membership is not None
    return membership.user


def member(club: Club, user: User | None = None, *, role: str = Membership.Role.PLAYER) -> User:
    user = user or UserFactory()
    Membership.objects.get_or_create(club=club, user=user, defaults={"role": role})
    return user


def make_league(*, club: Club | None = None, game: str = "renfield", table_size: int = 4, **kwargs: Any) -> League:
    club = club or make_club()
    kwargs.setdefault("options", quick_options(game))
    return league_create(
        club=club, actor=organizer_of(club), name=f"{game.title()} League", game=game, table_size=table_size, **kwargs
    )


def make_season(
    *,
    league: League | None = None,
    players: int | list[User] = 8,
    rounds: int = 3,
    start: bool = True,
    seed: int = 1,
    **kwargs: Any,
) -> Season:
    """A season with ``players`` registered; with ``start`` its fixtures made and its first rounds opened."""
    league = league or make_league()
    organizer = organizer_of(league.club)
    kwargs.setdefault("starts_on", date(2026, 1, 5))
    season = season_create(league=league, actor=organizer, rounds=rounds, **kwargs)
    season_open_registration(season=season, actor=organizer)
    users = players if isinstance(players, list) else [UserFactory() for _ in range(players)]
    for user in users:
        member(league.club, user)
        season_register(season=season, user=user)
    season_close_registration(season=season, actor=organizer)
    if start:
        fixtures_generate(season=season, actor=organizer, seed=seed)
        season_start(season=season, actor=organizer)
    season.refresh_from_db()
    return season


def abandon(fixture: Fixture) -> Match:
    """End the fixture's match as the games app abandons one: no outcome, nobody awaited, no signal."""
    fixture.refresh_from_db()
    assert fixture.match_id is not None, "open the round first"
    Match.objects.filter(pk=fixture.match_id).update(status=Match.Status.ABANDONED, finished_at=timezone.now())
    Seat.objects.filter(match_id=fixture.match_id).update(awaiting=False, deadline=None)
    return Match.objects.get(pk=fixture.match_id)


def finish(fixture: Fixture, places: list[int], scores: list[float] | None = None) -> Match:
    """End the fixture's match with these places (and scores), as the engine would have; not yet counted."""
    fixture.refresh_from_db()
    assert fixture.match_id is not None, "open the round first"
    scores = scores if scores is not None else [float(10 * (len(places) - p)) for p in places]
    Match.objects.filter(pk=fixture.match_id).update(
        status=Match.Status.FINISHED,
        finished_at=timezone.now(),
        outcome={"scores": scores, "places": places},
    )
    Seat.objects.filter(match_id=fixture.match_id).update(awaiting=False)
    return Match.objects.get(pk=fixture.match_id)


def fixtures_of(season: Season, *, round_number: int = 1, division: int = 1) -> list[Fixture]:
    return list(
        Fixture.objects.filter(round__season=season, round__number=round_number, round__division=division)
        .select_related("round")
        .order_by("table_number")
    )


def two_divisions_started(users: list[User]) -> Season:
    """Eight players in two divisions of four (the first four in division 1), one round drawn and started;
    one up and one down set at creation."""
    season = make_season(players=users, rounds=1, divisions=2, promote=1, relegate=1, fill="byes", start=False)
    boss = organizer_of(season.league.club)
    for i, user in enumerate(users):
        entrant = Entrant.objects.get(season=season, user=user)
        entrant_set_division(entrant=entrant, actor=boss, division=1 + i // 4)
    fixtures_generate(season=season, actor=boss, seed=1)
    season_start(season=season, actor=boss)
    return season
