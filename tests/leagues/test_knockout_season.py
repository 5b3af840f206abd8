"""A whole knockout season played to the end by bots through the services (issue 23): ten entrants at tables of
four, the top two of each table going through (tables of 4, 3, 3 with bots; then 3, 3; then a final of four). Who
goes through, each round's tables, the season's places and the points are recomputed here from the raw outcomes."""

from __future__ import annotations

import pytest

from leagues.formats import format_standings
from leagues.models import Entrant, Fixture, Round, Season, Standing
from leagues.results import fixture_count
from leagues.rollover import season_finish
from tests.leagues.factories import fixtures_of, make_league, make_season, organizer_of
from tests.leagues.format_play import play_by_bots, ranking, shared

pytestmark = pytest.mark.django_db


def serpentine(order: list[int], sizes: list[int]) -> list[set[int]]:
    """Tables of equal sizes dealt in a serpentine (1, 2, 2, 1, ...), as sets."""
    tables: list[set[int]] = [set() for _ in sizes]
    for k, entrant in enumerate(order):
        lap, i = divmod(k, len(sizes))
        tables[i if lap % 2 == 0 else len(sizes) - 1 - i].add(entrant)
    return tables


def test_it_plays_a_knockout_season_to_its_final_and_places_everyone() -> None:
    league = make_league(format="knockout", advance=2, tiebreaks=["points"])
    season = make_season(league=league, players=10, rounds=1, round_mode="sequential", fill="bots")
    assert season.rounds == 3  # 10, then 6, then the final of 4: the season's rounds follow its field
    seeds = list(Entrant.objects.filter(season=season).order_by("pk").values_list("pk", flat=True))
    points = dict.fromkeys(seeds, 0.0)
    went_out: dict[int, tuple[int, int, float]] = {}  # entrant -> (round, place, points there)
    s = seeds
    expected = [{s[0], s[5], s[6], s[9]}, {s[1], s[4], s[7]}, {s[2], s[3], s[8]}]
    for number in (1, 2, 3):
        drawn = fixtures_of(season, round_number=number)
        assert [{e for e in f.seats if e is not None} for f in drawn] == expected, f"round {number}'s tables"
        through: list[tuple[int, float, int, int]] = []
        for fixture in drawn:
            match = play_by_bots(fixture)
            assert fixture_count(match_id=match.pk)
            assert match.outcome is not None
            places = ranking(list(match.outcome["places"]))
            gained = shared(places)
            people = [(places[i], e) for i, e in enumerate(fixture.seats) if e is not None]
            for i, e in enumerate(fixture.seats):
                if e is not None:
                    points[e] += gained[i]
            # Those level at the cut by their points in the season, then by their seeds (registration here).
            ordered = sorted(people, key=lambda pe: (pe[0], -points[pe[1]], seeds.index(pe[1])))
            keep = min(2, len(ordered) - 1) if len(drawn) > 1 else 0
            for position, (place, e) in enumerate(ordered):
                if position < keep:
                    through.append((position, -points[e], seeds.index(e), e))
                else:
                    went_out[e] = (number, place, gained[fixture.seats.index(e)])
        order = [e for *_key, e in sorted(through)]
        expected = serpentine(order, [3, 3]) if len(order) == 6 else [set(order)]
    assert not Fixture.objects.filter(round__season=season, counted_at=None).exists()
    assert Round.objects.filter(season=season).count() == 3
    stored = dict(Standing.objects.filter(season=season).values_list("entrant_id", "points"))
    assert stored == {e: pytest.approx(points[e]) for e in seeds}
    # The season's places: the final's, then by the round gone out in, the place there, its points, the standings.
    places = sorted(seeds, key=lambda e: (-went_out[e][0], went_out[e][1], -went_out[e][2], -points[e], seeds.index(e)))
    names = {e.pk: e.user.name for e in Entrant.objects.filter(season=season).select_related("user")}
    tables = format_standings(season=season)
    assert tables is not None and tables[0].decided
    assert [line.name for line in tables[0].lines] == [names[e] for e in places]
    assert tables[0].lines[0].where == "Won the final"
    assert {line.where for line in tables[0].lines[4:6]} == {"Out in round 2"}
    assert {line.where for line in tables[0].lines[6:]} == {"Out in round 1"}
    following = season_finish(season=season, actor=organizer_of(league.club))
    season.refresh_from_db()
    assert season.status == Season.Status.FINISHED
    carried = Entrant.objects.filter(season=following).order_by("seed_rank")
    assert [e.user.name for e in carried] == [names[e] for e in places]  # the knockout's places seed the next
