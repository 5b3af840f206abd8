"""Knockout and ladder leagues as an organizer runs them (issue 23): chosen on the form, explained on the league
page, refused with a sentence where they cannot work, and the next round drawn when a round is settled now."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues.errors import LeagueRefused
from leagues.models import League, Round
from leagues.results import fixture_count
from leagues.rollover import round_settle_now
from leagues.seasons import season_create
from tests.leagues.factories import finish, fixtures_of, make_club, make_league, make_season, organizer_of
from tests.leagues.flow_world import login, page, round_of, season_url
from tests.leagues.format_play import SWISS_LEAGUE as LEAGUE

pytestmark = pytest.mark.django_db


def test_it_chooses_a_knockout_with_its_cut_on_the_form_and_explains_it() -> None:
    club = make_club()
    client = login(organizer_of(club))
    client.post(reverse("leagues-league-create", args=[club.slug]), LEAGUE | {"format": "knockout", "advance": "1"})
    league = League.objects.get(club=club)
    assert (league.format, league.advance) == (League.Format.KNOCKOUT, 1)
    html = page(client.get(reverse("leagues-league", args=[club.slug, league.slug])))
    assert "The top 1 players of each table by their place there" in html and "nobody gets a bye" in html
    response = client.post(
        reverse("leagues-league-edit", args=[club.slug, league.slug]), LEAGUE | {"format": "knockout", "advance": "4"}
    )
    assert "1 to 3 players of each table of 4 go through" in page(response)
    league.refresh_from_db()
    assert league.advance == 1


def test_it_refuses_byes_and_rounds_all_at_once_for_a_knockout_or_a_ladder() -> None:
    for name in ("knockout", "ladder"):
        league = make_league(format=name)
        boss = organizer_of(league.club)
        with pytest.raises(LeagueRefused, match="nobody sits out with a bye"):
            season_create(league=league, actor=boss, rounds=3, round_mode="sequential", fill="byes")
        with pytest.raises(LeagueRefused, match="not all at once"):
            season_create(league=league, actor=boss, rounds=3, round_mode="all")


def test_it_draws_the_next_knockout_round_when_the_organizer_settles_a_round_now() -> None:
    league = make_league(format="knockout", advance=2)
    season = make_season(league=league, players=8, rounds=1, round_mode="sequential", settle="as_stands")
    one, _two = fixtures_of(season)
    fixture_count(match_id=finish(one, [1, 2, 3, 4]).pk)
    Round.objects.filter(pk=round_of(season, 1).pk).update(play_by=timezone.now() + timedelta(days=1))
    round_settle_now(round=round_of(season, 1), actor=organizer_of(league.club))
    # Table 2 was scored as it stood with nobody having moved: nobody's result, nobody through from it.
    final = fixtures_of(season, round_number=2)
    assert len(final) == 1 and final[0].match_id and final[0].seats == [*one.seats[:2], None, None]
    html = page(login(organizer_of(league.club)).get(season_url(season, "leagues-standings")))
    assert "The knockout" in html and "Still in: playing round 2" in html and "Out in round 1" in html


def test_it_shows_the_ladder_on_the_standings_page() -> None:
    season = make_season(league=make_league(format="ladder"), players=6, rounds=2, round_mode="sequential")
    html = page(login(organizer_of(season.league.club)).get(season_url(season, "leagues-standings")))
    assert "The ladder" in html and html.count("Held") == 6
