"""Every result of a season as a CSV: a line per seat of each counted table, how each was decided, and the
cells a spreadsheet reads as data. Places and points are checked against the outcomes the test wrote."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Match
from leagues.models import Entrant, Fixture, Season
from leagues.results import fixture_count, result_adjust, result_forfeit, round_settle
from tests.leagues.factories import UserFactory, finish, fixtures_of, make_league, make_season, organizer_of

pytestmark = pytest.mark.django_db

POINTS = [5.0, 3.0, 1.0, 0.0]  # for 1st to 4th, as the league below is set up
COLUMNS = ["round", "division", "table", "seat", "player", "place", "points", "game_score", "decided"]


def url(season: Season) -> str:
    return reverse("leagues-results-csv", args=[season.league.club.slug, season.league.slug, season.number])


def exported(season: Season, client: Client | None = None) -> list[dict[str, str]]:
    response = (client or Client()).get(url(season))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    text = response.content.decode()
    assert text.splitlines()[0] == ",".join(f'"{c}"' for c in COLUMNS)
    return list(csv.DictReader(io.StringIO(text)))


def a_season(players: int | list[Any] = 8, **kwargs: Any) -> Season:
    league = make_league(place_points=POINTS, tiebreaks=["points", "game_score"])
    return make_season(league=league, players=players, rounds=2, **kwargs)


def names(season: Season) -> dict[int, str]:
    return {e.pk: e.user.name for e in Entrant.objects.filter(season=season).select_related("user")}


def test_it_has_a_line_per_seat_of_each_played_table_with_its_place_points_and_score() -> None:
    season = a_season()
    outcomes = {}
    for fixture, places in zip(fixtures_of(season), ([1, 2, 3, 4], [3, 1, 4, 2]), strict=True):
        scores = [12.0, -3.0, 7.5, 0.0]
        fixture_count(match_id=finish(fixture, places, scores).pk)
        outcomes[fixture.table_number] = (fixture, places, scores)
    lines = exported(season)
    who = names(season)
    assert len(lines) == 8  # two tables of four; round 2 is not played yet, so it is not there
    for line in lines:
        fixture, places, scores = outcomes[int(line["table"])]
        seat = int(line["seat"]) - 1
        assert (line["round"], line["division"], line["decided"]) == ("1", "1", "played")
        assert line["player"] == who[fixture.seats[seat]]
        assert int(line["place"]) == places[seat]
        assert float(line["points"]) == POINTS[places[seat] - 1]
        assert float(line["game_score"]) == scores[seat]


def test_it_says_how_each_table_was_decided_and_a_void_table_has_no_place_or_points() -> None:
    season = a_season(players=16)
    boss = organizer_of(season.league.club)
    played, adjusted, forfeited, void = fixtures_of(season)
    for fixture in (played, adjusted, forfeited):
        fixture_count(match_id=finish(fixture, [1, 2, 3, 4]).pk)
    result_adjust(fixture=adjusted, actor=boss, places=[4, 3, 2, 1], reason="Scores were swapped.")
    result_forfeit(fixture=forfeited, actor=boss, entrants=[forfeited.seats[0]], reason="Left the club.")
    assert void.match_id is not None
    Match.objects.filter(pk=void.match_id).update(status=Match.Status.ABANDONED)
    fixture_count(match_id=void.match_id)
    by_table: dict[int, list[dict[str, str]]] = {}
    for line in exported(season):
        by_table.setdefault(int(line["table"]), []).append(line)
    decided = {table: {line["decided"] for line in lines} for table, lines in by_table.items()}
    assert decided == {
        played.table_number: {"played"},
        adjusted.table_number: {"adjusted"},
        forfeited.table_number: {"forfeit"},
        void.table_number: {"void"},
    }
    # The adjustment, recomputed from the places the organizer gave.
    assert [(int(x["place"]), float(x["points"])) for x in by_table[adjusted.table_number]] == [
        (4, 0.0),
        (3, 1.0),
        (2, 3.0),
        (1, 5.0),
    ]
    # The forfeit: the forfeiter behind everyone at the table, as the table's record has it.
    forfeit_lines = by_table[forfeited.table_number]
    assert int(forfeit_lines[0]["place"]) > max(int(x["place"]) for x in forfeit_lines[1:])
    stored = Fixture.objects.get(pk=forfeited.pk).result
    assert stored is not None
    assert [float(x["points"]) for x in forfeit_lines] == stored["points"]
    assert {(x["place"], x["points"], x["game_score"]) for x in by_table[void.table_number]} == {("", "", "")}
    assert [x["player"] for x in by_table[void.table_number]] == [names(season)[e] for e in void.seats]


def test_it_lists_a_table_scored_as_it_stood() -> None:
    season = a_season(settle=Season.Settle.AS_STANDS)
    round_two = fixtures_of(season, round_number=2)[0].round
    round_settle(round=round_two)
    lines = [line for line in exported(season) if line["round"] == "2"]
    assert len(lines) == 8 and {line["decided"] for line in lines} == {"as it stands"}
    assert all(line["place"] for line in lines)


def test_it_names_a_bots_seat_bot() -> None:
    season = a_season(players=6)
    for fixture in fixtures_of(season):
        fixture_count(match_id=finish(fixture, list(range(1, len(fixture.seats) + 1))).pk)
    lines = exported(season)
    seats = [e for f in fixtures_of(season) for e in f.seats]
    assert None in seats
    assert [line["player"] == "Bot" for line in lines] == [e is None for e in seats]


def test_it_keeps_a_name_that_starts_like_a_formula_as_text() -> None:
    players = [UserFactory(display_name=n) for n in ['=HYPERLINK("http://x")', "+1", "-1+1", "@SUM(A1)"]]
    season = a_season(players=[*players, *(UserFactory() for _ in range(4))])
    for fixture in fixtures_of(season):
        fixture_count(match_id=finish(fixture, [1, 2, 3, 4], [-3.0, 1.0, 2.0, 3.0]).pk)
    lines = exported(season)
    written = {line["player"] for line in lines}
    assert {'\'=HYPERLINK("http://x")', "'+1", "'-1+1", "'@SUM(A1)"} <= written
    assert "-3.0" in {line["game_score"] for line in lines}  # a number the app computed stays a number


def test_it_reads_the_same_few_queries_however_big_the_season(django_assert_num_queries: Any) -> None:
    small, large = a_season(players=4), a_season(players=24)
    for season in (small, large):
        for number in (1, 2):
            for fixture in fixtures_of(season, round_number=number):
                fixture_count(match_id=finish(fixture, [1, 2, 3, 4]).pk)
    for address in (url(small), url(large)):
        # The season with its league, club and the reader's role; the counted tables; the players' names.
        with django_assert_num_queries(3):
            assert Client().get(address).status_code == 200


def test_it_is_for_the_members_of_a_private_club_only() -> None:
    season = a_season()
    season.league.club.__class__.objects.filter(pk=season.league.club_id).update(public=False)
    assert Client().get(url(season)).status_code == 404
    outsider = Client()
    outsider.force_login(UserFactory.create())
    assert outsider.get(url(season)).status_code == 404
    member = Client()
    member.force_login(Entrant.objects.filter(season=season).first().user)  # type: ignore[union-attr]
    assert member.get(url(season)).status_code == 200
    assert member.post(url(season)).status_code == 405


def test_it_is_linked_from_the_standings() -> None:
    season = a_season()
    standings = reverse("leagues-standings", args=[season.league.club.slug, season.league.slug, season.number])
    assert f'href="{url(season)}"' in Client().get(standings).content.decode()
