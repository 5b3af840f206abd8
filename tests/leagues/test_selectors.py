"""Standings with every tie-break, in a constant number of queries; a player's season; the dashboard's fixtures."""

from __future__ import annotations

from typing import Any

import pytest

from leagues.models import Entrant, Rating, Season, Standing
from leagues.results import fixture_count
from leagues.selectors import fixtures_for_user, player_season, standings_for
from tests.leagues.factories import finish, fixtures_of, make_league, make_season

pytestmark = pytest.mark.django_db


def season_with(lines: list[dict[str, Any]], *, tiebreaks: list[str]) -> tuple[Season, list[int]]:
    """A season whose standings are ``lines`` (one dict of Standing fields per entrant, in entrant order)."""
    league = make_league(tiebreaks=tiebreaks)
    season = make_season(league=league, players=len(lines), start=False)
    ids = list(Entrant.objects.filter(season=season).order_by("pk").values_list("pk", flat=True))
    for entrant_id, fields in zip(ids, lines, strict=True):
        Standing.objects.filter(entrant_id=entrant_id).update(**fields)
    return Season.objects.select_related("league").get(pk=season.pk), ids


def ranking(season: Season, ids: list[int]) -> list[tuple[int, int]]:
    """(rank, index of the entrant in ``ids``) best first."""
    return [(row.rank, ids.index(row.entrant_id)) for row in standings_for(season=season)]


def test_it_ranks_by_points_then_the_tiebreaks_in_the_leagues_order() -> None:
    lines = [
        {"points": 5, "wins": 1, "game_score": 10},
        {"points": 9, "wins": 0, "game_score": 0},
        {"points": 5, "wins": 2, "game_score": 0},
        {"points": 5, "wins": 1, "game_score": 30},
    ]
    season, ids = season_with(lines, tiebreaks=["points", "wins", "game_score"])
    assert ranking(season, ids) == [(1, 1), (2, 2), (3, 3), (4, 0)]
    season.league.tiebreaks = ["points", "game_score", "wins"]
    season.league.save()
    assert ranking(season, ids) == [(1, 1), (2, 3), (3, 0), (4, 2)]


def test_fewer_bot_moves_rank_higher_and_opponents_rating_is_the_average() -> None:
    lines = [
        {"points": 4, "bot_moves": 7, "opponents_rating_total": 30, "opponents_met": 3},
        {"points": 4, "bot_moves": 2, "opponents_rating_total": 10, "opponents_met": 5},
        {"points": 4, "bot_moves": 2, "opponents_rating_total": 12, "opponents_met": 3},
    ]
    season, ids = season_with(lines, tiebreaks=["points", "fewest_bot_moves", "opponents_rating"])
    assert ranking(season, ids) == [(1, 2), (2, 1), (3, 0)]
    rows = standings_for(season=season)
    assert [r.opponents_rating for r in rows] == [4, 2, 10]


def test_head_to_head_splits_the_tied_by_their_meetings_only() -> None:
    lines = [{"points": 6}, {"points": 6}, {"points": 6}, {"points": 9}]
    season, ids = season_with(lines, tiebreaks=["points", "head_to_head", "wins"])
    a, b, c, d = ids
    against: dict[int, dict[int, float]] = {a: {b: 0, c: 1, d: 2}, b: {a: 1, c: 0.5}, c: {a: 0, b: 0.5}, d: {a: 0}}
    for x, scores in against.items():
        Standing.objects.filter(entrant_id=x).update(meetings={str(y): p for y, p in scores.items()})
    assert ranking(season, ids) == [(1, 3), (2, 1), (3, 0), (4, 2)]
    rows = {r.entrant_id: r for r in standings_for(season=season)}
    # a's win over d does not count: d is not in the tied group.
    assert (rows[a].head_to_head, rows[b].head_to_head, rows[c].head_to_head) == (1, 1.5, 0.5)
    assert rows[d].head_to_head is None


def test_a_tie_all_the_way_down_the_list_shares_the_rank() -> None:
    lines = [{"points": 3, "wins": 1}, {"points": 7}, {"points": 3, "wins": 1}, {"points": 1}]
    season, ids = season_with(lines, tiebreaks=["points", "wins", "head_to_head", "game_score"])
    assert ranking(season, ids)[0] == (1, 1)
    assert sorted(ranking(season, ids)[1:3]) == [(2, 0), (2, 2)]
    assert ranking(season, ids)[3] == (4, 3)
    rows = standings_for(season=season)
    assert [r.shared for r in rows] == [False, True, True, False]


def test_rows_carry_rating_form_and_points_by_round() -> None:
    season = make_season(players=4, rounds=2, fill="byes")
    fixture = fixtures_of(season)[0]
    finish(fixture, [1, 2, 3, 4])
    fixture_count(match_id=fixture.match_id)  # type: ignore[arg-type]
    rows = standings_for(season=season)
    assert [r.rank for r in rows] == [1, 2, 3, 4]
    top = rows[0]
    assert top.entrant_id == fixture.seats[0]
    assert top.points_by_round == [4, 0] and top.cumulative == [4, 4]
    assert top.form == [{"fixture": fixture.pk, "place": 1, "of": 4}]
    assert top.rating == Rating.objects.get(user_id=top.user_id).ordinal
    assert top.value("points") == 4 and top.value("fewest_bot_moves") == 0


@pytest.mark.parametrize("players", [8, 40])
def test_the_standings_take_the_same_queries_however_big_the_season(
    players: int, django_assert_num_queries: Any
) -> None:
    season = make_season(players=players, rounds=2, fill="byes")
    fixtures = fixtures_of(season)
    for n, fixture in enumerate(fixtures):
        finish(fixture, [1, 2, 3, 4] if n % 2 else [2, 1, 4, 3])
        fixture_count(match_id=fixture.match_id)  # type: ignore[arg-type]
    season = Season.objects.select_related("league").get(pk=season.pk)
    with django_assert_num_queries(2):  # the lines with the ratings, the meetings of the tied
        rows = standings_for(season=season)
    assert len(rows) == players
    assert any(r.head_to_head is not None for r in rows)


def test_the_tied_who_have_met_nobody_yet_cost_no_meetings_query(django_assert_num_queries: Any) -> None:
    from django.core.cache import cache

    season = make_season(players=8, rounds=2, fill="byes")  # started, nothing counted: everyone tied on nothing
    season = Season.objects.select_related("league").get(pk=season.pk)
    cache.clear()
    with django_assert_num_queries(1):  # the lines with the ratings
        rows = standings_for(season=season)
    assert [r.rank for r in rows] == [1] * 8
    assert [r.head_to_head for r in rows] == [0.0] * 8


def test_a_tied_player_who_has_met_nobody_scores_nothing_against_those_who_have() -> None:
    lines = [{"points": 6}, {"points": 6}, {"points": 6}]
    season, ids = season_with(lines, tiebreaks=["points", "head_to_head", "wins"])
    a, b, c = ids
    Standing.objects.filter(entrant_id=a).update(meetings={str(b): 1.0})
    Standing.objects.filter(entrant_id=b).update(meetings={str(a): 0.0})
    assert ranking(season, ids) == [(1, 0), (2, 1), (2, 2)]
    rows = {r.entrant_id: r for r in standings_for(season=season)}
    assert (rows[a].head_to_head, rows[b].head_to_head, rows[c].head_to_head) == (1.0, 0.0, 0.0)


def test_a_players_season_lists_their_tables_and_rating_changes() -> None:
    season = make_season(players=4, rounds=2, fill="byes")
    fixture = fixtures_of(season)[0]
    finish(fixture, [2, 1, 3, 4])
    fixture_count(match_id=fixture.match_id)  # type: ignore[arg-type]
    entrant = Entrant.objects.select_related("user").get(pk=fixture.seats[1])
    page = player_season(season=season, user=entrant.user)
    assert page is not None and page.row is not None and page.row.rank == 1
    assert [(f.round.number, f.place, f.points) for f in page.fixtures] == [(1, 1, 4), (2, None, None)]
    assert page.fixtures[0].names[1] == entrant.user.name
    assert len(page.rating_changes) == 1 and page.rating_changes[0].delta > 0


def test_the_dashboard_lists_league_matches_still_to_play() -> None:
    season = make_season(players=8, rounds=1, fill="byes")
    first, second = fixtures_of(season)
    finish(second, [1, 2, 3, 4])
    user = Entrant.objects.get(pk=first.seats[0]).user
    other = Entrant.objects.get(pk=second.seats[0]).user
    assert [f.pk for f in fixtures_for_user(user=user)] == [first.pk]
    assert fixtures_for_user(user=other) == []


def test_the_organizer_sees_the_tables_bots_played_for_people() -> None:
    from games.models import Seat
    from leagues.selectors import bot_played_fixtures

    season = make_season(players=12, rounds=1, fill="byes")
    timed_out, handed_over, clean = fixtures_of(season)
    Seat.objects.filter(match=timed_out.match, number=1).update(bot_moves=3)
    Seat.objects.filter(match=handed_over.match, number=0).update(bot_level="basic")
    assert [f.pk for f in bot_played_fixtures(season=season)] == [timed_out.pk, handed_over.pk]
    assert clean.pk not in [f.pk for f in bot_played_fixtures(season=season)]


def test_head_to_head_follows_a_changed_meeting_although_the_pairs_are_cached() -> None:
    """The cached head-to-head pairs are keyed by the meetings themselves: a changed result is never stale."""
    lines = [{"points": 6}, {"points": 6}, {"points": 9}]
    season, ids = season_with(lines, tiebreaks=["points", "head_to_head"])
    Standing.objects.filter(entrant_id=ids[0]).update(meetings={str(ids[1]): 1.0})
    assert ranking(season, ids) == [(1, 2), (2, 0), (3, 1)]
    assert ranking(season, ids) == [(1, 2), (2, 0), (3, 1)]  # the second read from the cache
    Standing.objects.filter(entrant_id=ids[0]).update(meetings={})
    Standing.objects.filter(entrant_id=ids[1]).update(meetings={str(ids[0]): 1.0})
    assert ranking(season, ids) == [(1, 2), (2, 1), (3, 0)]


def test_rows_read_their_form_and_rounds_only_when_asked() -> None:
    season, ids = season_with([{"points": 1, "points_by_round": {"2": 1.0}, "form": []}], tiebreaks=["points"])
    row = standings_for(season=season)[0]
    assert isinstance(row.by_round_json, str) and "points_by_round" not in vars(row)
    assert row.points_by_round == [0.0, 1.0, 0.0] and row.last_round == 2 and row.form == []
