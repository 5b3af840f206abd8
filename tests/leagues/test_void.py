"""A league table whose match ends without a result is void: recorded, shown, counted for nobody, never lost.

The games app may abandon a match on its own (it tells nobody: no ``match_finished``), and an admin may
delete one; the results sweep and the season's end find such tables, and a season never finishes with a
table silently missing.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Match
from leagues.models import AuditEntry, Fixture, Round, Season, Standing
from leagues.results import fixture_count, result_forfeit
from leagues.rollover import season_finish
from leagues.tasks import results_sweep
from tests.leagues.factories import abandon, finish, fixtures_of, make_season, organizer_of

pytestmark = pytest.mark.django_db


def url(season: Season, name: str) -> str:
    return reverse(name, args=[season.league.club.slug, season.league.slug, season.number])


def lines(season: Season) -> list[tuple[Any, ...]]:
    return sorted(Standing.objects.filter(season=season).values_list("entrant_id", "played", "points", "form"))


def test_the_results_sweep_makes_an_abandoned_match_void_and_counts_it_for_nobody() -> None:
    season = make_season(players=4, rounds=2, fill="byes")
    fixture = fixtures_of(season)[0]
    before = lines(season)
    abandon(fixture)

    assert results_sweep() == 1
    assert results_sweep() == 0  # recorded once

    fixture.refresh_from_db()
    assert fixture.counted_at is not None and fixture.how == Fixture.How.VOID and fixture.result is None
    assert lines(season) == before  # no points, no game played, no form
    entry = AuditEntry.objects.get(season=season, fixture=fixture)
    assert entry.text == "Table 1 of round 1 is void: its match was abandoned before it finished. It counts for nobody."


def test_the_standings_page_lists_the_void_table_with_its_players() -> None:
    season = make_season(players=4, rounds=2, fill="byes")
    fixture = fixtures_of(season)[0]
    abandon(fixture)
    results_sweep()

    html = Client().get(url(season, "leagues-standings")).content.decode()

    void = html.split('class="void-tables"', 1)[1].split("</section>", 1)[0]
    names = [Standing.objects.get(entrant_id=e).entrant.user.name for e in fixture.seats]
    assert "Round 1, table 1: " + ", ".join(names) in void
    player = Standing.objects.get(entrant_id=fixture.seats[0]).entrant.user
    league = season.league
    mine = Client().get(reverse("leagues-player", args=[league.club.slug, league.slug, season.number, player.pk]))
    assert mine.status_code == 200 and '<td class="num">void</td>' in mine.content.decode()


def fixture_reads(address: str) -> tuple[str, list[str]]:
    """The page, and the queries that read the fixtures table (the season's own query asks about it in a subquery)."""
    with CaptureQueriesContext(connection) as queries:
        html = Client().get(address).content.decode()
    return html, [q["sql"] for q in queries if q["sql"].lstrip().startswith('SELECT "leagues_fixture"')]


def test_the_void_list_costs_one_query_and_only_when_a_table_is_void() -> None:
    season = make_season(players=8, rounds=2, fill="byes")
    address = url(season, "leagues-standings")
    html, reads = fixture_reads(address)
    assert "void-tables" not in html and reads == []

    abandon(fixtures_of(season)[0])
    results_sweep()
    abandon(fixtures_of(season)[1])
    results_sweep()

    html, reads = fixture_reads(address)
    assert html.count('<span class="tag">void</span>') == 2 and len(reads) == 1


def test_a_void_table_in_a_sequential_season_lets_the_next_round_open() -> None:
    season = make_season(players=4, rounds=2, fill="byes", round_mode="sequential")
    second = Round.objects.get(season=season, number=2)
    assert second.opened_at is None
    abandon(fixtures_of(season)[0])

    results_sweep()

    second.refresh_from_db()
    assert second.opened_at is not None
    assert fixtures_of(season, round_number=2)[0].match_id is not None


def test_a_table_whose_match_was_deleted_is_made_void_by_the_sweep() -> None:
    season = make_season(players=4, rounds=2, fill="byes")
    fixture = fixtures_of(season)[0]
    Match.objects.filter(pk=fixture.match_id).delete()

    assert results_sweep() == 1

    fixture.refresh_from_db()
    assert fixture.how == Fixture.How.VOID and fixture.counted_at is not None
    assert AuditEntry.objects.filter(fixture=fixture, text__contains="its match no longer exists").exists()


def test_finishing_a_season_counts_what_the_sweep_has_not_reached_and_voids_the_abandoned() -> None:
    season = make_season(players=8, rounds=1, fill="byes")
    counted, lost = fixtures_of(season)
    # Two tables: one finished and counted; for the other, the games app finished it and the message was lost.
    fixture_count(match_id=finish(counted, [1, 2, 3, 4]).pk)
    finish(lost, [4, 3, 2, 1])
    boss = organizer_of(season.league.club)

    season_finish(season=season, actor=boss)

    lost.refresh_from_db()
    assert lost.how == Fixture.How.PLAYED and lost.result is not None
    assert Standing.objects.get(entrant_id=lost.seats[3]).points == 4  # in the final standings, not "after the freeze"
    assert not AuditEntry.objects.filter(season=season, text__contains="after the season was frozen").exists()


def test_finishing_a_season_records_an_abandoned_table_as_void() -> None:
    season = make_season(players=8, rounds=1, fill="byes")
    played, gone = fixtures_of(season)
    fixture_count(match_id=finish(played, [1, 2, 3, 4]).pk)
    abandon(gone)  # and no sweep has run since

    season_finish(season=season, actor=organizer_of(season.league.club))

    gone.refresh_from_db()
    assert gone.how == Fixture.How.VOID and gone.counted_at is not None
    assert not Fixture.objects.filter(round__season=season, counted_at=None).exists()
    assert AuditEntry.objects.filter(season=season, fixture=gone, text__contains="is void").exists()
    assert all(Standing.objects.get(entrant_id=e).played == 0 for e in gone.seats)


def test_finishing_a_sequential_season_records_the_rounds_that_never_opened_as_void() -> None:
    """The hang the void closes: an abandoned table kept round 1 from ending, so round 2 never opened."""
    season = make_season(players=4, rounds=2, fill="byes", round_mode="sequential")
    first = fixtures_of(season)[0]
    abandon(first)  # and no sweep has run since

    season_finish(season=season, actor=organizer_of(season.league.club))

    first.refresh_from_db()
    second = fixtures_of(season, round_number=2)[0]
    assert first.how == Fixture.How.VOID and second.how == Fixture.How.VOID
    assert second.counted_at is not None and second.match_id is None  # no match was made for it at the end
    assert AuditEntry.objects.filter(season=season, text="Round 2 never opened: its 1 table is void.").exists()


def test_an_organizer_may_replace_a_void_table_by_a_forfeit() -> None:
    season = make_season(players=4, rounds=2, fill="byes")
    fixture = fixtures_of(season)[0]
    abandon(fixture)
    results_sweep()
    fixture.refresh_from_db()
    assert fixture.how == Fixture.How.VOID
    boss = organizer_of(season.league.club)

    result_forfeit(fixture=fixture, actor=boss, entrants=[fixture.seats[0]], reason="Walked out.")

    fixture.refresh_from_db()
    assert fixture.how == Fixture.How.FORFEIT
    assert [Standing.objects.get(entrant_id=e).played for e in fixture.seats] == [1, 1, 1, 1]
    assert Standing.objects.get(entrant_id=fixture.seats[0]).points == 0


def test_the_league_page_says_what_an_abandoned_match_counts_for() -> None:
    season = make_season(players=4, rounds=1, start=False)
    league = season.league
    html = Client().get(reverse("leagues-league", args=[league.club.slug, league.slug])).content.decode()
    assert "<dt>Abandoned matches</dt><dd>Void: a match that ends without a result counts for nobody" in html
