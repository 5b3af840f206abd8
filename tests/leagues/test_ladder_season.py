"""A whole ladder season played to the end by bots through the services (issue 23): ten entrants at tables of four
over three rounds (rungs 1-4, 5-7 and 8-10, bots in the short tables). The ladder is recomputed here from the raw
outcomes after every round: each table's players take its rungs by their places (level players keep their order),
then the winner of each lower table swaps with the last of the table above."""

from __future__ import annotations

import pytest

from leagues.formats import format_standings
from leagues.models import Entrant, Fixture, Standing
from leagues.results import fixture_count
from leagues.rollover import season_finish
from tests.leagues.factories import fixtures_of, make_league, make_season, organizer_of
from tests.leagues.format_play import play_by_bots, ranking, shared

pytestmark = pytest.mark.django_db


def test_it_plays_a_ladder_season_moving_players_by_their_places() -> None:
    league = make_league(format="ladder", tiebreaks=["points"])
    season = make_season(league=league, players=10, rounds=3, round_mode="sequential", fill="bots")
    rungs = list(Entrant.objects.filter(season=season).order_by("pk").values_list("pk", flat=True))  # the seeds
    points = dict.fromkeys(rungs, 0.0)
    for number in (1, 2, 3):
        drawn = fixtures_of(season, round_number=number)
        blocks = [rungs[0:4], rungs[4:7], rungs[7:10]]
        for fixture, block in zip(drawn, blocks, strict=True):
            people = [e for e in fixture.seats if e is not None]
            turn = (number - 1) % len(block)
            assert people == block[turn:] + block[:turn], f"round {number}: neighbouring rungs, first seat turned"
            assert fixture.seats.count(None) == 4 - len(block)
        new = list(rungs)
        winners_and_last = []
        for fixture, block in zip(drawn, blocks, strict=True):
            match = play_by_bots(fixture)
            assert fixture_count(match_id=match.pk)
            assert match.outcome is not None
            places = ranking(list(match.outcome["places"]))
            gained = shared(places)
            place = {e: places[i] for i, e in enumerate(fixture.seats) if e is not None}
            for i, e in enumerate(fixture.seats):
                if e is not None:
                    points[e] += gained[i]
            ordered = sorted(block, key=lambda e: (place[e], rungs.index(e)))
            start = rungs.index(block[0])
            new[start : start + len(block)] = ordered
            winners_and_last.append((start, start + len(block) - 1))
        for (_top, last_above), (first_below, _bottom) in zip(winners_and_last, winners_and_last[1:], strict=False):
            new[last_above], new[first_below] = new[first_below], new[last_above]
        rungs = new
    assert not Fixture.objects.filter(round__season=season, counted_at=None).exists()
    stored = dict(Standing.objects.filter(season=season).values_list("entrant_id", "points"))
    assert stored == {e: pytest.approx(points[e]) for e in rungs}
    names = {e.pk: e.user.name for e in Entrant.objects.filter(season=season).select_related("user")}
    tables = format_standings(season=season)
    assert tables is not None
    assert [line.name for line in tables[0].lines] == [names[e] for e in rungs]
    following = season_finish(season=season, actor=organizer_of(league.club))
    carried = Entrant.objects.filter(season=following).order_by("seed_rank")
    assert [e.user.name for e in carried] == [names[e] for e in rungs]  # the ladder at the end seeds the next
