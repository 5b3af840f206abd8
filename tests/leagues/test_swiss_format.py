"""A league's format (issue 23): round robin draws every round at the start; Swiss draws round 1 by the seeds and
each next round from the standings once the round before is settled, changeable while no season is running."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues.errors import LeagueRefused
from leagues.models import Entrant, Fixture, League, Round, Season
from leagues.results import fixture_count
from leagues.rollover import round_settle_now
from leagues.rounds import round_open
from leagues.seasons import fixtures_generate, league_update, season_create
from tests.leagues.factories import finish, fixtures_of, make_club, make_league, make_season, organizer_of
from tests.leagues.flow_world import login, page, round_of, season_url
from tests.leagues.format_play import SWISS_LEAGUE as LEAGUE

pytestmark = pytest.mark.django_db


def swiss(*, players: int = 8, rounds: int = 3, **kwargs: Any) -> Season:
    kwargs.setdefault("round_mode", "sequential")
    return make_season(league=make_league(format="swiss"), players=players, rounds=rounds, **kwargs)


def settings_of(league: League) -> dict[str, object]:
    return {"name": league.name, "game": league.game, "table_size": league.table_size, "options": league.options}


def test_it_keeps_round_robin_as_the_default_format() -> None:
    league = make_league()
    assert league.format == League.Format.ROUND_ROBIN
    season = make_season(league=league, players=8, rounds=3)
    assert Fixture.objects.filter(round__season=season).count() == 6  # every round drawn at the start


def test_it_chooses_the_format_on_the_league_form_and_shows_it_on_the_league_page() -> None:
    club = make_club()
    client = login(organizer_of(club))
    client.post(reverse("leagues-league-create", args=[club.slug]), LEAGUE | {"format": "swiss"})
    league = League.objects.get(club=club)
    assert league.format == League.Format.SWISS
    edit = reverse("leagues-league-edit", args=[club.slug, league.slug])
    assert '<option value="swiss" selected>' in page(client.get(edit))
    assert "Swiss: round 1 by the seeds" in page(client.get(reverse("leagues-league", args=[club.slug, league.slug])))
    client.post(edit, LEAGUE | {"format": "round_robin"})
    league.refresh_from_db()
    assert league.format == League.Format.ROUND_ROBIN
    assert "Round robin: every round" in page(client.get(reverse("leagues-league", args=[club.slug, league.slug])))


def test_it_refuses_a_format_change_while_a_season_is_running() -> None:
    season = make_season(players=4, rounds=1)
    league = season.league
    boss = organizer_of(league.club)
    with pytest.raises(LeagueRefused, match="format cannot change while a season is running"):
        league_update(league=league, actor=boss, format="swiss", **settings_of(league))  # type: ignore[arg-type]
    league.refresh_from_db()
    assert league.format == League.Format.ROUND_ROBIN
    edit = reverse("leagues-league-edit", args=[league.club.slug, league.slug])
    response = login(boss).post(edit, LEAGUE | {"name": league.name, "format": "swiss"})
    assert response.status_code == 200 and "format cannot change" in page(response)
    Season.objects.filter(pk=season.pk).update(status=Season.Status.FINISHED)
    league_update(league=league, actor=boss, format="swiss", **settings_of(league))  # type: ignore[arg-type]
    league.refresh_from_db()
    assert league.format == League.Format.SWISS


def test_it_refuses_rounds_all_at_once_for_a_swiss_league() -> None:
    league = make_league(format="swiss")
    boss = organizer_of(league.club)
    with pytest.raises(LeagueRefused, match="Swiss format.*one after another, not all at once"):
        season_create(league=league, actor=boss, rounds=3, round_mode="all")
    draft = make_season(league=make_league(), players=8, rounds=3, start=False)
    League.objects.filter(pk=draft.league_id).update(format=League.Format.SWISS)
    draft.refresh_from_db()
    with pytest.raises(LeagueRefused, match="not all at once"):
        fixtures_generate(season=draft, actor=organizer_of(draft.league.club), seed=1)


def test_it_draws_only_round_one_by_the_seeds_at_the_start() -> None:
    season = swiss(start=False)
    boss = organizer_of(season.league.club)
    entrants = list(Entrant.objects.filter(season=season).order_by("pk"))
    for rank, entrant in enumerate(reversed(entrants), start=1):  # seeded the other way round from registration
        Entrant.objects.filter(pk=entrant.pk).update(seed_rank=rank)
    fixtures_generate(season=season, actor=boss, seed=1)
    assert Round.objects.filter(season=season).count() == 3
    assert not Fixture.objects.filter(round__season=season, round__number__gt=1).exists()
    ids = [e.pk for e in reversed(entrants)]
    assert [list(f.seats) for f in fixtures_of(season)] == [ids[:4], ids[4:]]


def test_it_draws_the_next_round_from_the_standings_when_the_last_table_is_counted() -> None:
    season = swiss()
    one, two = fixtures_of(season)
    fixture_count(match_id=finish(one, [1, 2, 3, 4]).pk)
    assert not Fixture.objects.filter(round__season=season, round__number=2).exists()
    fixture_count(match_id=finish(two, [4, 3, 2, 1]).pk)
    # Places 1 to 4 earn 4, 2, 1, 0: the winners first, then the seconds, ... ties by the seeds.
    a, b = list(one.seats), list(two.seats)
    order = [a[0], b[3], a[1], b[2], a[2], b[1], a[3], b[0]]
    tables = [list(f.seats) for f in fixtures_of(season, round_number=2)]
    assert all(f.match_id for f in fixtures_of(season, round_number=2))
    # Neighbours in the standings: each table meets two old opponents, as few as any draw can.
    assert tables == [order[:4], order[4:]]


def test_it_refuses_to_open_a_swiss_round_before_the_one_before_is_settled() -> None:
    season = swiss()
    with pytest.raises(LeagueRefused, match="opens once every table of the round before is settled"):
        round_open(round=round_of(season, 2), actor=organizer_of(season.league.club))
    assert not Fixture.objects.filter(round__season=season, round__number=2).exists()
    assert round_of(season, 2).opened_at is None


def test_it_draws_the_next_round_when_the_organizer_settles_a_round() -> None:
    season = swiss(settle="as_stands")
    Round.objects.filter(pk=round_of(season, 1).pk).update(play_by=timezone.now() - timedelta(hours=1))
    round_settle_now(round=round_of(season, 1), actor=organizer_of(season.league.club))
    drawn = fixtures_of(season, round_number=2)
    assert len(drawn) == 2 and all(f.match_id for f in drawn)
    assert round_of(season, 2).opened_at is not None
    round_settle_now(round=round_of(season, 1))  # the sweep finding it settled draws nothing more
    assert len(fixtures_of(season, round_number=2)) == 2


def test_it_gives_byes_to_the_lowest_who_sat_out_least() -> None:
    season = swiss(players=6, fill="byes")
    ids = list(Entrant.objects.filter(season=season).order_by("pk").values_list("pk", flat=True))
    assert round_of(season, 1).byes == ids[4:]
    fixture_count(match_id=finish(fixtures_of(season)[0], [1, 2, 3, 4]).pk)
    # After round 1 the byes (0 points) and the last two at the table (1 and 0) are level or below:
    # those who sat out already play; the last two of the table sit out.
    table = list(fixtures_of(season)[0].seats)
    assert sorted(round_of(season, 2).byes) == sorted(table[2:])
    assert sorted(fixtures_of(season, round_number=2)[0].seats) == sorted(table[:2] + ids[4:])


def test_it_refuses_an_unknown_format_with_a_sentence() -> None:
    club = make_club()
    with pytest.raises(LeagueRefused, match="round robin, Swiss, knockout or ladder"):
        make_league(club=club, format="elimination")
    assert not League.objects.filter(club=club).exists()


def test_it_shows_a_swiss_season_whose_later_rounds_are_not_drawn_yet() -> None:
    season = swiss()
    client = login(organizer_of(season.league.club))
    for name in ("leagues-season", "leagues-fixtures"):
        response = client.get(season_url(season, name))
        assert response.status_code == 200
    assert len(fixtures_of(season)) == 2 and not fixtures_of(season, round_number=3)


def test_it_fills_swiss_tables_with_bot_seats_as_round_robin_does() -> None:
    season = swiss(players=6, fill="bots")
    ids = list(Entrant.objects.filter(season=season).order_by("pk").values_list("pk", flat=True))
    assert [list(f.seats) for f in fixtures_of(season)] == [[*ids[:3], None], [*ids[3:], None]]
    for fixture in fixtures_of(season):
        fixture_count(match_id=finish(fixture, [1, 2, 3, 4]).pk)
    drawn = fixtures_of(season, round_number=2)
    assert [f.seats.count(None) for f in drawn] == [1, 1] and all(f.match_id for f in drawn)
    assert sorted(e for f in drawn for e in f.seats if e is not None) == ids


def test_it_offers_rounds_one_after_another_on_a_swiss_leagues_new_season_form() -> None:
    league = make_league(format="swiss")
    url = reverse("leagues-season-create", args=[league.club.slug, league.slug])
    html = page(login(organizer_of(league.club)).get(url))
    assert '<option value="sequential" selected>' in html
    plain = make_league()
    html = page(
        login(organizer_of(plain.club)).get(reverse("leagues-season-create", args=[plain.club.slug, plain.slug]))
    )
    assert '<option value="sequential" selected>' not in html
