"""A whole Swiss season played to the end by bots through the services (issue 23): eight entrants at tables of
four over three rounds. Each round's tables are checked against the standings recomputed here from the raw
outcomes of the rounds before, and the meetings against the fewest repeats any draw of that round could have."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from leagues import fixtures as schedules
from leagues.models import Entrant, Fixture, Season, Standing
from leagues.results import fixture_count
from leagues.rollover import season_finish
from tests.leagues.factories import fixtures_of, make_league, make_season, organizer_of
from tests.leagues.format_play import PLACE_POINTS, play_by_bots

pytestmark = pytest.mark.django_db


def shared_points(places: list[int]) -> list[float]:
    """Players level share the points of the places they cover (1, 1, 3: both get (4 + 2) / 2)."""
    points = []
    for place in places:
        tied = places.count(place)
        points.append(sum(PLACE_POINTS[place - 1 : place - 1 + tied]) / tied)
    return points


def repeats(tables: list[list[int]], met: Counter[tuple[int, int]]) -> int:
    return sum(met[pair] > 0 for t in tables for pair in combinations(sorted(t), 2))


def fewest_repeats(people: list[int], met: Counter[tuple[int, int]]) -> int:
    """The fewest old pairs any split of eight into two tables of four has."""
    first, rest = people[0], people[1:]
    return min(repeats([[first, *mates], [p for p in rest if p not in mates]], met) for mates in combinations(rest, 3))


def test_it_plays_a_swiss_season_by_the_standings_avoiding_old_opponents() -> None:
    league = make_league(format="swiss", tiebreaks=["points"])
    season = make_season(league=league, players=8, rounds=3, round_mode="sequential", fill="bots")
    seeds = list(Entrant.objects.filter(season=season).order_by("pk").values_list("pk", flat=True))
    points = dict.fromkeys(seeds, 0.0)
    met: Counter[tuple[int, int]] = Counter()
    for number in (1, 2, 3):
        # The order the round must follow: points so far, level players by their seeds (registration here).
        order = sorted(seeds, key=lambda e: (-points[e], seeds.index(e)))
        drawn = fixtures_of(season, round_number=number)
        tables = [list(f.seats) for f in drawn]
        assert all(f.match_id is not None for f in drawn), f"round {number} opened"
        assert sorted(e for t in tables for e in t) == sorted(seeds)  # everyone plays, nobody twice, no bots
        assert [t[0] for t in tables] == [order[0], next(e for e in order if e not in tables[0])]  # best left heads
        assert tuple(tuple(t) for t in tables) == tuple(
            t.seats for t in schedules.swiss_round(order, table_size=4, met=met)
        )
        assert repeats(tables, met) == fewest_repeats(order, met), f"round {number} repeats more than it must"
        for fixture in drawn:
            match = play_by_bots(fixture)
            assert fixture_count(match_id=match.pk) and match.outcome is not None
            for entrant, gained in zip(fixture.seats, shared_points(match.outcome["places"]), strict=True):
                assert entrant is not None  # eight at two tables of four: no bot seats
                points[entrant] += gained
        for table in tables:
            met.update(combinations(sorted(table), 2))
    assert not Fixture.objects.filter(round__season=season, counted_at=None).exists()
    stored = dict(Standing.objects.filter(season=season).values_list("entrant_id", "points"))
    assert stored == {e: pytest.approx(points[e]) for e in seeds}
    assert sum(n > 1 for n in met.values()) > 0  # eight at tables of four for three rounds must repeat some
    following = season_finish(season=season, actor=organizer_of(league.club))
    season.refresh_from_db()
    assert season.status == Season.Status.FINISHED
    assert (following.previous_id, following.round_mode) == (season.pk, Season.RoundMode.SEQUENTIAL)
