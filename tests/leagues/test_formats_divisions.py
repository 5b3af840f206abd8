"""Knockout and ladder seasons with several divisions (issue 23): each division is drawn from its own players and
results only, has its own places and its own rounds (a knockout's as many as its field needs), and at the season's
end the top of a lower division goes up and the bottom of an upper one goes down, by the format's places.

Played through the services (tables ended with the places given to ``finish``, then counted); every round's
tables, the places and who moves are recomputed here from those raw places, not read from the code under test.
"""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from leagues.formats import format_standings
from leagues.models import Entrant, Fixture, Round, Season
from leagues.results import fixture_count
from leagues.rollover import round_settle_now, season_finish
from leagues.seasons import entrant_set_division, fixtures_generate, season_start
from tests.accounts.factories import UserFactory
from tests.leagues.factories import finish, fixtures_of, make_league, make_season, organizer_of
from tests.leagues.flow_world import login, page, round_of, season_url
from tests.leagues.format_play import ranking, shared

pytestmark = pytest.mark.django_db


def two_divisions(fmt: str, sizes: tuple[int, int], *, rounds: int = 1, **league: Any) -> Season:
    """Two divisions (the first ``sizes[0]`` registrants in division 1), one up and one down, drawn and started."""
    users = [UserFactory() for _ in range(sum(sizes))]
    season = make_season(
        league=make_league(format=fmt, tiebreaks=["points"], **league),
        players=users,
        rounds=rounds,
        divisions=2,
        promote=1,
        relegate=1,
        round_mode="sequential",
        fill="bots",
        settle="as_stands",
        start=False,
    )
    boss = organizer_of(season.league.club)
    for i, user in enumerate(users):
        entrant = Entrant.objects.get(season=season, user=user)
        entrant_set_division(entrant=entrant, actor=boss, division=1 if i < sizes[0] else 2)
    fixtures_generate(season=season, actor=boss, seed=1)
    season_start(season=season, actor=boss)
    season.refresh_from_db()
    return season


def division_of(season: Season, division: int) -> list[int]:
    """The division's entrants in seed order (all rated alike: registration order)."""
    found = Entrant.objects.filter(season=season, division=division).order_by("seed_rank")
    return list(found.values_list("pk", flat=True))


def names_of(season: Season) -> dict[int, str]:
    return {e.pk: e.user.name for e in Entrant.objects.filter(season=season).select_related("user")}


def users_of(season: Season) -> dict[int, User]:
    return {e.pk: e.user for e in Entrant.objects.filter(season=season).select_related("user")}


def play(fixture: Fixture, places: list[int]) -> dict[int, tuple[int, float]]:
    """The table ended with these places and counted; each entrant's place (competition ranking) and points."""
    fixture_count(match_id=finish(fixture, places).pk)
    ranked, gained = ranking(places), shared(ranking(places))
    return {e: (ranked[i], gained[i]) for i, e in enumerate(fixture.seats) if e is not None}


def moved_to(following: Season, users: dict[int, User]) -> dict[int, int]:
    """The next season's division of each entrant of this one."""
    there = dict(Entrant.objects.filter(season=following).values_list("user_id", "division"))
    return {e: there[u.pk] for e, u in users.items()}


def test_it_runs_a_knockout_in_each_division_and_moves_its_winner_up_and_its_last_down() -> None:
    # Division 1: eight at two tables of four, the top two through to a final. Division 2: four, a final at once.
    season = two_divisions("knockout", (8, 4), advance=2)
    one, two = division_of(season, 1), division_of(season, 2)
    assert season.rounds == 2
    assert list(Round.objects.filter(season=season, division=2).values_list("number", flat=True)) == [1]
    heats = fixtures_of(season, division=1)
    assert [set(f.seats) for f in heats] == [{one[0], one[3], one[4], one[7]}, {one[1], one[2], one[5], one[6]}]
    (final_two,) = fixtures_of(season, division=2)
    assert set(final_two.seats) == set(two)
    # Division 2's final is played first: division 1's round 2 waits for division 1's tables only.
    at_final_two = play(final_two, [2, 4, 1, 3])
    assert not Fixture.objects.filter(round__season=season, round__division=1, round__number=2).exists()
    went: dict[int, tuple[int, float]] = {}
    through = []
    for fixture, places in zip(heats, ([1, 2, 3, 4], [4, 3, 2, 1]), strict=True):
        at = play(fixture, places)
        went |= at
        order = sorted(fixture.seats, key=lambda e: (at[e][0], -at[e][1], one.index(e)))
        through += [(position, -at[e][1], one.index(e), e) for position, e in enumerate(order[:2])]
    (final_one,) = fixtures_of(season, round_number=2, division=1)
    assert final_one.seats == [e for *_key, e in sorted(through)]
    assert not set(final_one.seats) & set(two), "drawn within its division"
    at_final_one = play(final_one, [3, 1, 4, 2])
    # Division 1's places: its final's, then those out in round 1 by their place there, then their points.
    out = [e for e in one if e not in final_one.seats]
    places_one = sorted(final_one.seats, key=lambda e: at_final_one[e][0]) + sorted(
        out, key=lambda e: (went[e][0], -went[e][1], one.index(e))
    )
    places_two = sorted(two, key=lambda e: at_final_two[e][0])
    names = names_of(season)
    tables = format_standings(season=season)
    assert tables is not None and [t.division for t in tables] == [1, 2]
    assert [line.name for line in tables[0].lines] == [names[e] for e in places_one]
    assert [line.name for line in tables[1].lines] == [names[e] for e in places_two]
    html = page(login(organizer_of(season.league.club)).get(season_url(season, "leagues-standings")))
    assert f"The knockout of division 1 is decided: {names[places_one[0]]} won." in html
    assert f"The knockout of division 2 is decided: {names[places_two[0]]} won." in html
    users = users_of(season)
    following = season_finish(season=season, actor=organizer_of(season.league.club))
    moved = moved_to(following, users)
    assert moved[places_one[-1]] == 2 and moved[places_two[0]] == 1
    assert all(moved[e] == 1 for e in places_one[:-1]) and all(moved[e] == 2 for e in places_two[1:])
    carried = Entrant.objects.filter(season=following, division=2).order_by("seed_rank")
    assert [e.user_id for e in carried][:3] == [users[e].pk for e in places_two[1:]]  # by the knockout's places


def test_it_climbs_a_ladder_in_each_division_and_moves_its_top_up_and_its_bottom_down() -> None:
    season = two_divisions("ladder", (4, 4), rounds=2)
    rungs = {1: division_of(season, 1), 2: division_of(season, 2)}
    boss = organizer_of(season.league.club)
    for number, results in ((1, {1: [2, 1, 4, 3], 2: [3, 4, 1, 2]}), (2, {1: [1, 3, 2, 4], 2: [4, 1, 3, 2]})):
        for division in (1, 2):
            (fixture,) = fixtures_of(season, round_number=number, division=division)
            block, turn = rungs[division], number - 1
            assert fixture.seats == block[turn:] + block[:turn], f"round {number}, division {division}: its own rungs"
            if division == 2 and number == 1:
                # Division 1 has its round 2 drawn before division 2's round 1 is counted.
                assert fixtures_of(season, round_number=2, division=1)
                assert not fixtures_of(season, round_number=2, division=2)
            at = play(fixture, results[division])
            rungs[division] = sorted(block, key=lambda e: (at[e][0], block.index(e)))
    names = names_of(season)
    tables = format_standings(season=season)
    assert tables is not None
    assert [[line.name for line in t.lines] for t in tables] == [[names[e] for e in rungs[d]] for d in (1, 2)]
    users = users_of(season)
    following = season_finish(season=season, actor=boss)
    moved = moved_to(following, users)
    assert {e for e, d in moved.items() if d == 1} == set(rungs[1][:3]) | {rungs[2][0]}
    assert {e for e, d in moved.items() if d == 2} == {rungs[1][3], *rungs[2][1:]}


def test_it_settles_one_divisions_ladder_round_without_touching_the_other() -> None:
    season = two_divisions("ladder", (4, 4), rounds=2)
    round_settle_now(round=round_of(season, 1, division=1), actor=organizer_of(season.league.club))
    assert round_of(season, 1, division=1).settled_at is not None
    assert round_of(season, 1, division=2).settled_at is None
    assert len(fixtures_of(season, round_number=2, division=1)) == 1  # nobody played: nobody moved, drawn anyway
    assert fixtures_of(season, round_number=2, division=1)[0].seats == division_of(season, 1)[1:] + [
        division_of(season, 1)[0]
    ]
    assert not fixtures_of(season, round_number=2, division=2)
    (other,) = fixtures_of(season, division=2)
    assert other.counted_at is None and other.match_id is not None
