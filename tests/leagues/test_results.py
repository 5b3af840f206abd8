"""Results into standings: counted once, incrementally, corrected by difference, settled at "play by", frozen at the end."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Match, Seat
from leagues import ratings, tasks
from leagues.errors import LeagueRefused, NotOrganizer
from leagues.models import AuditEntry, Entrant, Fixture, Rating, RatingChange, Round, Season, Standing
from leagues.results import fixture_count, result_adjust, result_forfeit, round_settle, standings_rebuild
from leagues.rollover import season_finish
from leagues.seasons import entrant_set_division, fixtures_generate, season_start
from leagues.selectors import uncounted_matches
from leagues.tasks import results_sweep
from tests.games.factories import play_engine_moves
from tests.leagues.factories import (
    UserFactory,
    finish,
    fixtures_of,
    make_league,
    make_season,
    organizer_of,
)
from tests.threads import together

pytestmark = pytest.mark.django_db


def snapshot(season: Season) -> dict[str, Any]:
    """Everything a count may change, to compare before and after."""
    return {
        "standings": sorted(
            Standing.objects.filter(season=season).values_list(
                "entrant_id",
                "played",
                "points",
                "wins",
                "game_score",
                "bot_moves",
                "opponents_met",
                "form",
                "points_by_round",
                "meetings",
            )
        ),
        "ratings": sorted(Rating.objects.values_list("user_id", "mu", "sigma", "matches")),
        "changes": RatingChange.objects.count(),
        "audit": AuditEntry.objects.filter(season=season).count(),
    }


def standing(entrant_id: int) -> Standing:
    return Standing.objects.get(entrant_id=entrant_id)


def test_it_adds_a_result_by_place_points() -> None:
    season = make_season(players=4, rounds=2, fill="byes")
    fixture = fixtures_of(season)[0]
    finish(fixture, [2, 1, 4, 3], scores=[5, 9, -2, 1])
    assert fixture_count(match_id=fixture.match_id) is True  # type: ignore[arg-type]
    a, b, c, d = (standing(e) for e in fixture.seats)  # type: ignore[arg-type]
    assert [s.points for s in (a, b, c, d)] == [2, 4, 0, 1]
    assert [s.wins for s in (a, b, c, d)] == [0, 1, 0, 0]
    assert [s.game_score for s in (a, b, c, d)] == [5, 9, -2, 1]
    assert a.played == 1 and a.points_by_round == {"1": 2}
    assert a.form == [{"fixture": fixture.pk, "place": 2, "of": 4}]
    assert b.meetings == {str(a.entrant_id): 1, str(c.entrant_id): 1, str(d.entrant_id): 1}
    assert a.meetings == {str(c.entrant_id): 1, str(d.entrant_id): 1}  # nothing won against b
    fixture.refresh_from_db()
    assert fixture.counted_at is not None and fixture.how == Fixture.How.PLAYED
    entry = AuditEntry.objects.get(season=season, kind=AuditEntry.Kind.RESULT)
    assert entry.text.startswith(f"Table 1 of round 1: {b.entrant.user.name} 1st (4)")


def test_shared_places_share_their_points() -> None:
    season = make_season(players=4, rounds=1, fill="byes")
    fixture = fixtures_of(season)[0]
    finish(fixture, [1, 1, 3, 3])
    fixture_count(match_id=fixture.match_id)  # type: ignore[arg-type]
    assert [standing(e).points for e in fixture.seats] == [3, 3, 0.5, 0.5]  # type: ignore[arg-type]
    assert [standing(e).wins for e in fixture.seats] == [1, 1, 0, 0]  # type: ignore[arg-type]


def test_the_games_own_score_can_be_the_points() -> None:
    season = make_season(league=make_league(scoring="game_score"), players=4, rounds=1, fill="byes")
    fixture = fixtures_of(season)[0]
    finish(fixture, [1, 2, 3, 4], scores=[30, 20, 10, -5])
    fixture_count(match_id=fixture.match_id)  # type: ignore[arg-type]
    assert [standing(e).points for e in fixture.seats] == [30, 20, 10, -5]  # type: ignore[arg-type]


def test_bots_are_neither_in_the_standings_nor_rated() -> None:
    season = make_season(players=3, rounds=1)  # one bot at the table of four
    fixture = fixtures_of(season)[0]
    assert fixture.seats.count(None) == 1
    places = [1, 2, 3, 4]
    finish(fixture, places)
    fixture_count(match_id=fixture.match_id)  # type: ignore[arg-type]
    assert Standing.objects.filter(season=season, played=1).count() == 3
    assert Rating.objects.count() == 3
    bot_seat = fixture.seats.index(None)
    others = [e for e in fixture.seats if e is not None]
    assert standing(others[0]).opponents_met == 2  # the other two people, not the bot
    assert bot_seat in range(4)


def test_counting_twice_and_the_sweep_after_change_nothing() -> None:
    season = make_season(players=8, rounds=1)
    first, second = fixtures_of(season)
    finish(first, [1, 2, 3, 4])
    assert tasks.fixture_count.apply(args=(first.match_id,)).get() is True
    after_one = snapshot(season)
    assert tasks.fixture_count.apply(args=(first.match_id,)).get() is False
    assert fixture_count(match_id=first.match_id) is False  # type: ignore[arg-type]
    assert results_sweep.apply().get() == 0
    assert snapshot(season) == after_one
    # The sweep finds a finished match whose message was lost, and only that one.
    finish(second, [4, 3, 2, 1])
    assert uncounted_matches() == [second.match_id]
    assert results_sweep.apply().get() == 1
    assert uncounted_matches() == []
    assert Standing.objects.filter(season=season, played=1).count() == 8


def test_an_unfinished_match_is_not_counted() -> None:
    season = make_season(players=4, rounds=1)
    fixture = fixtures_of(season)[0]
    assert fixture_count(match_id=fixture.match_id) is False  # type: ignore[arg-type]
    assert not Standing.objects.filter(season=season, played__gt=0).exists()


def test_a_match_played_to_the_end_reaches_the_standings_through_the_signal(
    eager: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    league = make_league(game="karnoffel", options={"target": 1})
    season = make_season(league=league, players=4, rounds=1)
    fixture = fixtures_of(season)[0]
    match = fixture.match
    assert match is not None
    with django_capture_on_commit_callbacks(execute=True):
        play_engine_moves(match, 0, until_over=True, seed=4)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    fixture.refresh_from_db()
    assert fixture.counted_at is not None
    # Karnoffel's teams: partners share a place, and their ratings move alike.
    places = fixture.result["places"]  # type: ignore[index]
    assert places[0] == places[2] and places[1] == places[3] and places[0] != places[1]
    users = dict(Entrant.objects.filter(season=season).values_list("pk", "user_id"))
    shown = {r.user_id: r for r in Rating.objects.all()}
    seat_ratings = [shown[users[e]] for e in fixture.seats]  # type: ignore[index]
    assert seat_ratings[0].mu == pytest.approx(seat_ratings[2].mu)
    assert (seat_ratings[0].mu > seat_ratings[1].mu) == (places[0] == 1)
    assert RatingChange.objects.filter(fixture=fixture).count() == 4


def test_ratings_follow_the_placings() -> None:
    season = make_season(players=4, rounds=1, fill="byes")
    fixture = fixtures_of(season)[0]
    finish(fixture, [1, 2, 3, 4])
    fixture_count(match_id=fixture.match_id)  # type: ignore[arg-type]
    users = dict(Entrant.objects.values_list("pk", "user_id"))
    order = [Rating.objects.get(user_id=users[e]).ordinal for e in fixture.seats]  # type: ignore[index]
    assert order == sorted(order, reverse=True)
    assert order[0] > ratings.ordinal(*ratings.DEFAULT) > order[3]


# --- corrections --------------------------------------------------------------


def test_a_forfeit_before_the_end_hands_the_seat_to_a_bot_and_the_table_plays_on() -> None:
    # Issue 23 changed this: a forfeit no longer stops the match (tests/leagues/test_forfeit_plays_on.py).
    season = make_season(players=4, rounds=1, fill="byes")
    fixture = fixtures_of(season)[0]
    boss, quitter = organizer_of(season.league.club), fixture.seats[1]
    with pytest.raises(LeagueRefused, match="Say why"):
        result_forfeit(fixture=fixture, actor=boss, entrants=[quitter], reason=" ")
    result_forfeit(fixture=fixture, actor=boss, entrants=[quitter], reason="Never showed up.")
    fixture.refresh_from_db()
    assert fixture.match.status == Match.Status.ACTIVE  # type: ignore[union-attr]
    assert fixture.counted_at is None and fixture.forfeited == [quitter]
    assert Seat.objects.get(match=fixture.match, number=1).bot_level == season.league.timeout_bot_level
    entry = AuditEntry.objects.get(season=season, kind=AuditEntry.Kind.FORFEIT)
    assert "Never showed up." in entry.text and entry.actor == boss
    # The match's end is counted once, with the forfeiter last whatever the bot did.
    finish(fixture, [2, 1, 3, 4])
    assert fixture_count(match_id=fixture.match_id) is True  # type: ignore[arg-type]
    fixture.refresh_from_db()
    assert fixture.how == Fixture.How.FORFEIT
    assert fixture.result["places"] == [1, 4, 2, 3]  # type: ignore[index]
    assert [standing(e).points for e in fixture.seats] == [4, 0, 2, 1]  # type: ignore[arg-type]
    assert fixture_count(match_id=fixture.match_id) is False  # type: ignore[arg-type]


def test_an_adjustment_applies_the_difference_and_agrees_with_a_rebuild() -> None:
    season = make_season(players=8, rounds=2, fill="byes")
    boss = organizer_of(season.league.club)
    for n, fixture in enumerate(fixtures_of(season) + fixtures_of(season, round_number=2)):
        finish(fixture, [[1, 2, 3, 4], [4, 3, 2, 1], [2, 2, 1, 4]][n % 3])
        fixture_count(match_id=fixture.match_id)  # type: ignore[arg-type]
    target = fixtures_of(season)[0]
    before = {e: standing(e).points for e in target.seats}  # type: ignore[misc]
    result_adjust(fixture=target, actor=boss, places=[4, 3, 2, 1], reason="Scores were swapped.")
    after = {e: standing(e).points for e in target.seats}  # type: ignore[misc]
    assert [after[e] - before[e] for e in target.seats] == [-4, -1, 1, 4]  # type: ignore[index]
    assert standing(target.seats[0]).form[0]["place"] == 4  # type: ignore[arg-type]
    incremental = snapshot(season)
    standings_rebuild(season=season, actor=boss)
    rebuilt = snapshot(season)
    assert rebuilt["standings"] == incremental["standings"]
    entry = AuditEntry.objects.get(season=season, kind=AuditEntry.Kind.ADJUST)
    assert "Scores were swapped." in entry.text and entry.data["before"]["places"] == [1, 2, 3, 4]


def test_an_adjustment_checks_the_places() -> None:
    season = make_season(players=4, rounds=1, fill="byes")
    fixture = fixtures_of(season)[0]
    with pytest.raises(LeagueRefused, match="from 1 to 4"):
        result_adjust(fixture=fixture, actor=organizer_of(season.league.club), places=[1, 2, 5, 3], reason="x")
    with pytest.raises(NotOrganizer):
        result_adjust(fixture=fixture, actor=UserFactory(), places=[1, 2, 3, 4], reason="x")


# --- rounds: sequential opening, settling at "play by" -------------------------


def test_the_next_round_opens_when_the_last_table_is_counted() -> None:
    season = make_season(players=8, rounds=2, round_mode="sequential", fill="byes")
    first, second = fixtures_of(season)
    finish(first, [1, 2, 3, 4])
    fixture_count(match_id=first.match_id)  # type: ignore[arg-type]
    assert Round.objects.get(season=season, number=2).opened_at is None
    finish(second, [1, 2, 3, 4])
    fixture_count(match_id=second.match_id)  # type: ignore[arg-type]
    assert Round.objects.get(season=season, number=2).opened_at is not None
    assert all(f.match_id for f in fixtures_of(season, round_number=2))


def test_settling_as_it_stands_scores_the_current_scores() -> None:
    league = make_league(game="rentz", options={})
    season = make_season(league=league, players=4, rounds=1, settle="as_stands", fill="byes")
    fixture = fixtures_of(season)[0]
    match = fixture.match
    assert match is not None
    play_engine_moves(match, 60, seed=2)
    match.refresh_from_db()
    scores = match.engine.view(match.state, None)["scores"]
    round_settle(round=fixture.round)
    fixture.refresh_from_db()
    match.refresh_from_db()
    assert match.status == Match.Status.ABANDONED
    assert fixture.how == Fixture.How.AS_STANDS
    assert fixture.result["scores"] == [float(s) for s in scores]  # type: ignore[index]
    best = max(scores)
    assert [p == 1 for p in fixture.result["places"]] == [s == best for s in scores]  # type: ignore[index]
    texts = list(AuditEntry.objects.filter(season=season, kind=AuditEntry.Kind.SETTLE).values_list("text", flat=True))
    # One table: the round's line says "table", not "tables" (and the table's own line gives the result).
    assert any(t.endswith(": the unfinished table 1 was scored as it stood.") for t in texts), texts
    assert any(t.startswith("Table 1 of round 1 scored as it stood") for t in texts), texts


def test_settling_by_bots_hands_the_seats_to_bots_who_finish_the_match(
    eager: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    league = make_league(game="karnoffel", options={"target": 1}, timeout_bot_level="random")
    season = make_season(league=league, players=4, rounds=1)
    fixture = fixtures_of(season)[0]
    with django_capture_on_commit_callbacks(execute=True):
        round_settle(round=fixture.round)
    fixture.refresh_from_db()
    assert set(Seat.objects.filter(match=fixture.match).values_list("bot_level", flat=True)) == {"random"}
    assert fixture.match.status == Match.Status.FINISHED  # type: ignore[union-attr]
    assert fixture.counted_at is not None
    assert sum(standing(e).bot_moves for e in fixture.seats) > 0  # type: ignore[arg-type]
    assert AuditEntry.objects.filter(
        season=season, kind=AuditEntry.Kind.SETTLE, text__contains="bots play out"
    ).exists()


# --- the end of a season ----------------------------------------------------------


def test_finishing_freezes_and_carries_players_with_promotion_and_relegation() -> None:
    users = [UserFactory() for _ in range(8)]
    divisions = {u: 1 + i // 4 for i, u in enumerate(users)}
    season = make_season(players=users, rounds=1, divisions=2, promote=1, relegate=1, fill="byes", start=False)
    for user, division in divisions.items():
        entrant_set_division(
            entrant=Entrant.objects.get(season=season, user=user),
            actor=organizer_of(season.league.club),
            division=division,
        )
    boss = organizer_of(season.league.club)
    fixtures_generate(season=season, actor=boss, seed=1)
    season_start(season=season, actor=boss)
    for division in (1, 2):
        fixture = fixtures_of(season, division=division)[0]
        finish(fixture, [1, 2, 3, 4])
        fixture_count(match_id=fixture.match_id)  # type: ignore[arg-type]
    top = {d: fixtures_of(season, division=d)[0].seats for d in (1, 2)}
    nxt = season_finish(season=season, actor=boss)
    season.refresh_from_db()
    assert season.is_frozen and season.status == Season.Status.FINISHED
    user_of = dict(Entrant.objects.filter(season=season).values_list("pk", "user_id"))
    carried = dict(Entrant.objects.filter(season=nxt).values_list("user_id", "division"))
    assert len(carried) == 8 and nxt.previous == season and nxt.number == season.number + 1
    assert carried[user_of[top[1][3]]] == 2  # last of division 1 goes down
    assert carried[user_of[top[2][0]]] == 1  # first of division 2 goes up
    assert carried[user_of[top[1][0]]] == 1
    assert AuditEntry.objects.filter(season=season, kind=AuditEntry.Kind.PROMOTION).exists()
    # Frozen: a forfeit is refused; an organizer's adjustment still goes through, with the audit.
    fixture = fixtures_of(season)[0]
    with pytest.raises(LeagueRefused, match="final"):
        result_forfeit(fixture=fixture, actor=boss, entrants=[fixture.seats[0]], reason="Late claim.")
    result_adjust(fixture=fixture, actor=boss, places=[2, 1, 3, 4], reason="Appeal upheld.")
    assert standing(fixture.seats[1]).points == 4  # type: ignore[arg-type]


def test_a_match_ending_after_the_freeze_changes_nothing() -> None:
    season = make_season(players=4, rounds=2, fill="byes", round_mode="sequential")
    boss = organizer_of(season.league.club)
    first = fixtures_of(season)[0]
    # An adjustment stops a match still being played (a forfeit no longer does: the table plays on).
    result_adjust(fixture=first, actor=boss, places=[1, 2, 3, 4], reason="Left the club.")
    second = fixtures_of(season, round_number=2)[0]
    result_adjust(fixture=second, actor=boss, places=[1, 2, 3, 4], reason="Left the club.")
    season_finish(season=season, actor=boss)
    # A round-two match that somehow finished late (the adjustment stopped it): counting it changes nothing.
    Fixture.objects.filter(pk=second.pk).update(counted_at=None)
    finish(second, [1, 2, 3, 4])
    before = snapshot(season)
    assert fixture_count(match_id=second.match_id) is True  # type: ignore[arg-type]
    after = snapshot(season)
    assert after["standings"] == before["standings"] and after["ratings"] == before["ratings"]
    assert AuditEntry.objects.filter(season=season, text__contains="after the season was frozen").exists()


def test_a_season_with_matches_still_playing_cannot_finish() -> None:
    season = make_season(players=4, rounds=1)
    with pytest.raises(LeagueRefused, match="still being played"):
        season_finish(season=season, actor=organizer_of(season.league.club))


# --- the race: two workers count the same match ---------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_workers_counting_the_same_match_count_it_once() -> None:
    season = make_season(players=4, rounds=1, fill="byes")
    fixture = fixtures_of(season)[0]
    finish(fixture, [1, 2, 3, 4])
    results = together([lambda: fixture_count(match_id=fixture.match_id)] * 2)  # type: ignore[arg-type]
    assert sorted(results) == [False, True]
    assert list(Standing.objects.filter(season=season).values_list("played", flat=True)) == [1, 1, 1, 1]
    assert RatingChange.objects.count() == 4
    assert AuditEntry.objects.filter(kind=AuditEntry.Kind.RESULT).count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_tables_counted_at_once_both_reach_a_shared_players_line() -> None:
    # Two tables of different seasons never share a line, so use one player in two rounds of one season.
    season = make_season(players=4, rounds=2, fill="byes")
    one, two = fixtures_of(season)[0], fixtures_of(season, round_number=2)[0]
    finish(one, [1, 2, 3, 4])
    finish(two, [1, 2, 3, 4])
    together([lambda m=f.match_id: fixture_count(match_id=m) for f in (one, two)])  # type: ignore[misc]
    rows = Standing.objects.filter(season=season)
    assert sorted(r.played for r in rows) == [2, 2, 2, 2]
    assert all(len(r.form) == 2 and set(r.points_by_round) == {"1", "2"} for r in rows)
