"""The standings page's cached tables are never stale: each change to what they show is on the page at once.

Every test reads the tables once (so they are in the page cache), changes one thing the way the site does,
and reads them again: the second read must be what the page shows rendered from scratch (the page cache
emptied), and differ from the first, so that a writer that forgot to change the key (the lines' revision,
``selectors.STANDINGS_DIGEST``) fails here with the old tables. The page cache is the tests' locmem cache, emptied for each test.
"""

from __future__ import annotations

from datetime import date
from typing import cast

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from accounts.models import User
from leagues.clubs import member_remove
from leagues.models import Entrant, League, Season, Standing
from leagues.results import fixture_count, result_adjust, standings_rebuild
from leagues.seasons import (
    divisions_seed,
    entrant_set_division,
    season_create,
    season_open_registration,
    season_register,
    season_withdraw,
)
from leagues.tasks import results_sweep
from tests.accounts.factories import UserFactory
from tests.leagues.factories import abandon, finish, fixtures_of, make_league, make_season, member, organizer_of

pytestmark = pytest.mark.django_db

FRAGMENT = {"HX-Request": "true"}  # the page answers an htmx read with its tables alone


def url(season: Season) -> str:
    return reverse("leagues-standings", args=[season.league.club.slug, season.league.slug, season.number])


def tables(season: Season) -> str:
    return Client().get(url(season), headers=FRAGMENT).content.decode()


def cached(season: Season) -> str:
    """The tables read once, and so kept in the page cache."""
    html = tables(season)
    assert len(caches["template_fragments"]._cache) == 1  # type: ignore[attr-defined]  # locmem in tests
    return html


def assert_fresh(season: Season, before: str) -> str:
    """The tables read again show the change: as rendered from scratch, and not as they were."""
    after = tables(season)
    caches["template_fragments"].clear()
    assert after == tables(season)
    assert after != before
    return after


def played(season: Season, *, round_number: int = 1) -> None:
    for fixture in fixtures_of(season, round_number=round_number):
        fixture_count(match_id=finish(fixture, list(range(1, len(fixture.seats) + 1))).pk)


def registering(players: int) -> Season:
    league = make_league()
    season = season_create(league=league, actor=organizer_of(league.club), rounds=2, starts_on=date(2026, 1, 5))
    season_open_registration(season=season, actor=organizer_of(league.club))
    for _ in range(players):
        season_register(season=season, user=member(league.club))
    return season


def test_a_tables_result_shows_at_once() -> None:
    # Unrated: the result is seen by the season's revision alone, not by the ratings it moves.
    season = make_season(league=make_league(rated=False), players=4, rounds=2, fill="byes")
    before = cached(season)
    played(season)
    assert_fresh(season, before)


def test_an_adjustment_shows_at_once() -> None:
    season = make_season(players=4, rounds=2, fill="byes")
    played(season)
    before = cached(season)
    fixture = fixtures_of(season)[0]
    result_adjust(fixture=fixture, actor=organizer_of(season.league.club), places=[4, 3, 2, 1], reason="misdeal")
    assert_fresh(season, before)


def test_a_rebuild_shows_at_once() -> None:
    season = make_season(players=4, rounds=2, fill="byes")
    played(season)
    Standing.objects.filter(season=season).update(points=99)  # lines gone wrong, as a rebuild repairs them
    caches["template_fragments"].clear()
    before = cached(season)
    standings_rebuild(season=season, actor=organizer_of(season.league.club))
    assert_fresh(season, before)


def test_a_void_shows_at_once_and_changes_no_line() -> None:
    # A void counts for nobody: the lines stay as they were (no key to change), and the page lists the void
    # table beside the tables, rendered for each reader.
    season = make_season(players=4, rounds=2, fill="byes")
    before = cached(season)
    page = Client().get(url(season)).content.decode()
    assert 'class="void-tables"' not in page
    abandon(fixtures_of(season)[0])
    assert results_sweep() == 1
    assert tables(season) == before
    assert 'class="void-tables"' in Client().get(url(season)).content.decode()


def test_a_tiebreak_change_shows_at_once() -> None:
    season = make_season(players=4, rounds=2, fill="byes")
    played(season)
    before = cached(season)
    League.objects.filter(pk=season.league_id).update(tiebreaks=["points", "game_score"])
    assert ">Wins<" in before
    assert ">Wins<" not in assert_fresh(season, before)


def test_a_rename_shows_at_once_and_a_save_that_keeps_the_name_changes_nothing() -> None:
    season = make_season(players=4, rounds=2, fill="byes")
    before = cached(season)
    user = User.objects.get(pk=season.entrants.first().user_id)  # type: ignore[union-attr]
    user.save(update_fields=["display_name", "time_zone"])  # the profile form saved with the same name
    user.save(update_fields=["last_login"])
    revisions = list(Standing.objects.filter(season=season).order_by("pk").values_list("revision", flat=True))
    assert tables(season) == before
    user.display_name = "Quentin Renamed"
    user.save(update_fields=["display_name", "time_zone"])
    assert list(Standing.objects.filter(season=season).order_by("pk").values_list("revision", flat=True)) != revisions
    assert "Quentin Renamed" in assert_fresh(season, before)


def test_an_address_change_shows_at_once_for_a_player_without_a_name() -> None:
    season = make_season(players=4, rounds=2, fill="byes")
    user = User.objects.get(pk=season.entrants.first().user_id)  # type: ignore[union-attr]
    User.objects.filter(pk=user.pk).update(display_name="")
    caches["template_fragments"].clear()
    before = cached(season)
    user = User.objects.get(pk=user.pk)
    user.email = "newaddress@example.org"
    user.save()
    assert "newaddress" in assert_fresh(season, before)


def test_a_rating_change_from_another_league_of_the_game_shows_at_once() -> None:
    users = cast(list[User], [UserFactory() for _ in range(4)])
    season = make_season(players=users, rounds=2, fill="byes")
    played(season)
    before = cached(season)
    other = make_season(league=make_league(club=season.league.club), players=users, rounds=2)
    assert other.league.game == season.league.game
    played(other)
    assert_fresh(season, before)


def test_a_division_change_shows_at_once() -> None:
    season = make_season(players=8, rounds=1, divisions=2, fill="byes", start=False)
    boss = organizer_of(season.league.club)
    before = cached(season)
    entrant = Entrant.objects.filter(season=season, division=2).first()
    assert entrant is not None
    entrant_set_division(entrant=entrant, actor=boss, division=1)
    before = assert_fresh(season, before)
    divisions_seed(season=season, actor=boss, by="rating")
    assert_fresh(season, before)


def test_an_entrant_added_shows_at_once() -> None:
    season = registering(3)
    before = cached(season)
    season_register(season=season, user=member(season.league.club))
    assert_fresh(season, before)


def test_an_entrant_withdrawn_shows_at_once() -> None:
    season = registering(3)
    before = cached(season)
    season_withdraw(season=season, user=season.entrants.first().user)  # type: ignore[union-attr]
    assert_fresh(season, before)


def test_a_member_removed_from_the_club_leaves_the_tables_at_once() -> None:
    season = registering(3)
    before = cached(season)
    user = season.entrants.first().user  # type: ignore[union-attr]
    member_remove(club=season.league.club, actor=organizer_of(season.league.club), user=user)
    assert_fresh(season, before)
