"""No result pays absence (issue 23): a table nobody played, or everyone forfeited, is nobody's win; scored as it
stands, each game's own result scale counts and those who played come before those who never moved.

Expected places and points are worked out here from the raw scores and the log, not by the league's code.
"""

from __future__ import annotations

import pytest

from games.models import Move
from leagues.models import Fixture, Season, Standing
from leagues.results import fixture_count, result_forfeit, round_settle
from tests.games.factories import play_engine_moves, play_until_turn
from tests.leagues.factories import finish, fixtures_of, make_league, make_season, organizer_of

pytestmark = pytest.mark.django_db


def as_stands(game: str, **league: object) -> Season:
    options = {"rentz": {}, "renfield": {"hands": 1}}[game]
    return make_season(
        league=make_league(game=game, options=options, **league),
        players=4,
        rounds=1,
        settle="as_stands",
        fill="byes",
    )


def standing(entrant: int | None) -> Standing:
    return Standing.objects.get(entrant_id=entrant)


def test_a_table_everyone_forfeited_is_nobodys_win() -> None:
    season = make_season(players=4, rounds=1, fill="byes")
    fixture = fixtures_of(season)[0]
    finish(fixture, [1, 2, 3, 4])
    fixture_count(match_id=fixture.match_id)  # type: ignore[arg-type]
    result_forfeit(fixture=fixture, actor=organizer_of(season.league.club), entrants=list(fixture.seats), reason="All.")
    last = list(season.league.place_points)[3]
    assert [standing(e).points for e in fixture.seats] == [last] * 4
    assert [standing(e).wins for e in fixture.seats] == [0, 0, 0, 0]


def test_a_table_nobody_moved_at_scored_as_it_stands_is_nobodys_win() -> None:
    season = as_stands("rentz")
    fixture = fixtures_of(season)[0]
    assert not Move.objects.filter(match_id=fixture.match_id).exists()
    round_settle(round=fixture.round)
    fixture.refresh_from_db()
    assert fixture.how == Fixture.How.AS_STANDS
    last = list(season.league.place_points)[3]
    assert [standing(e).points for e in fixture.seats] == [last] * 4
    assert [standing(e).wins for e in fixture.seats] == [0, 0, 0, 0]


def test_scored_as_it_stands_puts_those_who_played_before_those_who_never_moved() -> None:
    season = as_stands("rentz")
    fixture = fixtures_of(season)[0]
    match = fixture.match
    assert match is not None
    play_engine_moves(match, 2, seed=1)
    match.refresh_from_db()
    scores = [float(s) for s in match.engine.view(match.state, None)["scores"]]
    moved = set(Move.objects.filter(match=match, kind=Move.Kind.PLAYER).values_list("seat", flat=True))
    assert 0 < len(moved) < 4
    round_settle(round=fixture.round)
    # By hand: who moved comes first, then the higher score; level players share the places they cover.
    key = [(0 if s in moved else 1, -scores[s]) for s in range(4)]
    places = [1 + sum(1 for o in range(4) if key[o] < key[s]) for s in range(4)]
    scheme = list(season.league.place_points)
    expected = []
    for s in range(4):
        level = places.count(places[s])
        expected.append(sum(scheme[places[s] - 1 : places[s] - 1 + level]) / level)
    fixture.refresh_from_db()
    assert fixture.result["places"] == places  # type: ignore[index]
    assert [standing(e).points for e in fixture.seats] == pytest.approx(expected)
    assert all(standing(fixture.seats[s]).wins == 0 for s in range(4) if s not in moved)


def test_renfield_scored_as_it_stands_counts_the_money_won_not_the_money_held() -> None:
    season = as_stands("renfield", scoring="game_score")
    fixture = fixtures_of(season)[0]
    match = fixture.match
    assert match is not None
    for seat in range(4):  # everyone plays a move of their own, so presence changes no place
        if not Move.objects.filter(match=match, seat=seat, kind=Move.Kind.PLAYER).exists():
            play_until_turn(match, seat, seed=seat)
            play_engine_moves(match, 1, seed=seat)
    match.refresh_from_db()
    stake = match.state["stake"]
    held = match.engine.view(match.state, None)["scores"]
    round_settle(round=fixture.round)
    fixture.refresh_from_db()
    won = [float(m - stake) for m in held]
    assert fixture.result["scores"] == won  # type: ignore[index]
    assert [standing(e).game_score for e in fixture.seats] == won
    assert [standing(e).points for e in fixture.seats] == won
