"""Team games score as teams (issue 23): partners share the places their team covers, a Karnoffel table hands
out what any four-seat table hands out, and a forfeiting team never gets more than a team that played and lost.

Expected points are worked out here from the league's points per place and the raw team outcome.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Match
from leagues.errors import LeagueRefused
from leagues.models import Season, Standing
from leagues.results import fixture_count, result_adjust, result_forfeit
from tests.games.factories import play_engine_moves
from tests.leagues.factories import finish, fixtures_of, make_league, make_season, organizer_of

pytestmark = pytest.mark.django_db


def karnoffel_season() -> Season:
    return make_season(league=make_league(game="karnoffel", options={"target": 1}), players=4, rounds=1)


def points(entrant: int | None) -> float:
    return Standing.objects.get(entrant_id=entrant).points


def test_it_shares_the_points_of_the_places_a_team_covers() -> None:
    season = karnoffel_season()
    fixture = fixtures_of(season)[0]
    scheme = list(season.league.place_points)
    finish(fixture, [2, 1, 2, 1], scores=[0, 1, 0, 1])  # the engine's team places: seats 1 and 3 won
    fixture_count(match_id=fixture.match_id)  # type: ignore[arg-type]
    winners, losers = (scheme[0] + scheme[1]) / 2, (scheme[2] + scheme[3]) / 2
    assert [points(e) for e in fixture.seats] == pytest.approx([losers, winners, losers, winners])
    # The table hands out what a four-seat table hands out.
    assert sum(points(e) for e in fixture.seats) == pytest.approx(sum(scheme[:4]))
    assert [Standing.objects.get(entrant_id=e).wins for e in fixture.seats] == [0, 1, 0, 1]


def test_a_partners_forfeit_is_their_teams_and_gives_the_partner_no_win() -> None:
    season = karnoffel_season()
    fixture = fixtures_of(season)[0]
    scheme = list(season.league.place_points)
    match = fixture.match
    assert match is not None
    result_forfeit(fixture=fixture, actor=organizer_of(season.league.club), entrants=[fixture.seats[0]], reason="Ill.")
    play_engine_moves(match, 0, until_over=True, seed=3)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    fixture_count(match_id=match.pk)
    # Whatever the teams' play, the team of seat 0 (seats 0 and 2) is last: it shares places 3 and 4.
    losers, winners = (scheme[2] + scheme[3]) / 2, (scheme[0] + scheme[1]) / 2
    assert [points(e) for e in fixture.seats] == pytest.approx([losers, winners, losers, winners])
    assert Standing.objects.get(entrant_id=fixture.seats[2]).wins == 0


def test_a_forfeiting_team_never_gets_more_than_a_team_that_lost() -> None:
    lost, forfeited = karnoffel_season(), karnoffel_season()
    played = fixtures_of(lost)[0]
    finish(played, [1, 2, 1, 2], scores=[1, 0, 1, 0])
    fixture_count(match_id=played.match_id)  # type: ignore[arg-type]
    quit_ = fixtures_of(forfeited)[0]
    finish(quit_, [1, 2, 1, 2], scores=[1, 0, 1, 0])
    fixture_count(match_id=quit_.match_id)  # type: ignore[arg-type]
    boss = organizer_of(forfeited.league.club)
    result_forfeit(fixture=quit_, actor=boss, entrants=[quit_.seats[0]], reason="Walked out.")  # the winning team
    lost_team = max(points(played.seats[1]), points(played.seats[3]))
    forfeit_team = max(points(quit_.seats[0]), points(quit_.seats[2]))
    assert forfeit_team <= lost_team
    assert points(quit_.seats[1]) > points(quit_.seats[2])  # the other team now wins


def test_an_adjustment_of_a_team_game_keeps_partners_together() -> None:
    season = karnoffel_season()
    fixture = fixtures_of(season)[0]
    boss, scheme = organizer_of(season.league.club), list(season.league.place_points)
    with pytest.raises(LeagueRefused, match="Partners share their place: give seat 1 and seat 3 the same place."):
        result_adjust(fixture=fixture, actor=boss, places=[1, 2, 3, 4], reason="Misread.")
    result_adjust(fixture=fixture, actor=boss, places=[1, 2, 1, 2], reason="Team places as the game gives them.")
    fixture.refresh_from_db()
    assert fixture.result["places"] == [1, 3, 1, 3]  # type: ignore[index]
    winners, losers = (scheme[0] + scheme[1]) / 2, (scheme[2] + scheme[3]) / 2
    assert [points(e) for e in fixture.seats] == pytest.approx([winners, losers, winners, losers])


def test_the_league_page_states_the_scoring_policy() -> None:
    league = make_league(game="karnoffel", options={"target": 1})
    html = Client().get(reverse("leagues-league", args=[league.club.slug, league.slug])).content.decode()
    assert "How results are scored" in html
    for words in ("Partners share their team&#x27;s place", "placed after everyone who played on", "nobody&#x27;s win"):
        assert words in html or words.replace("&#x27;", "'") in html
