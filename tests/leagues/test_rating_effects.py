"""What moves a rating, through the services, as the ratings note on the pages says it: a match played to its
end does; a void table, a table scored as it stood and an organizer's correction do not; a forfeit counts as
a last place for the forfeiter when the table plays on, and changes no rating on a table already over."""

from __future__ import annotations

import pytest

from games.models import Match
from leagues import ratings
from leagues.models import Entrant, Fixture, Rating, RatingChange, Season, Standing
from leagues.results import fixture_count, result_adjust, result_forfeit, round_settle
from tests.leagues.factories import finish, fixtures_of, make_season, organizer_of

pytestmark = pytest.mark.django_db


def ratings_at(fixture: Fixture) -> dict[int, tuple[float, float, float, int]]:
    """Each person's (mu, sigma, ordinal, matches) at the table, by entrant id; a newcomer has no row yet."""
    users = dict(Entrant.objects.filter(pk__in=[e for e in fixture.seats if e]).values_list("pk", "user_id"))
    rows = {r.user_id: (r.mu, r.sigma, r.ordinal, r.matches) for r in Rating.objects.filter(user_id__in=users.values())}
    return {e: rows[u] for e, u in users.items() if u in rows}


def counted(season: Season) -> Fixture:
    fixture = fixtures_of(season)[0]
    fixture_count(match_id=finish(fixture, [1, 2, 3, 4]).pk)
    fixture.refresh_from_db()
    return fixture


def test_it_rates_a_match_played_to_its_end_by_the_places() -> None:
    fixture = counted(make_season(players=4))
    after = ratings_at(fixture)
    assert len(after) == 4 and all(m == 1 for *_, m in after.values())
    assert RatingChange.objects.filter(fixture=fixture).count() == 4
    shown = [after[e][2] for e in fixture.seats]
    assert shown[0] > 0 > shown[3], "the winner is above a newcomer's rating, the last below"


def test_it_leaves_the_ratings_when_an_organizer_corrects_a_result() -> None:
    season = make_season(players=4)
    fixture = counted(season)
    before, changes = ratings_at(fixture), RatingChange.objects.count()
    points_before = dict(Standing.objects.filter(season=season).values_list("entrant_id", "points"))
    result_adjust(fixture=fixture, actor=organizer_of(season.league.club), places=[4, 3, 2, 1], reason="Swapped.")
    assert ratings_at(fixture) == before
    assert RatingChange.objects.count() == changes
    points_after = dict(Standing.objects.filter(season=season).values_list("entrant_id", "points"))
    assert points_after != points_before, "the correction did change the points"


def test_it_leaves_the_ratings_when_a_table_already_over_is_forfeited() -> None:
    season = make_season(players=4)
    fixture = counted(season)
    before, changes = ratings_at(fixture), RatingChange.objects.count()
    result_forfeit(fixture=fixture, actor=organizer_of(season.league.club), entrants=[fixture.seats[0]], reason="x")
    assert Fixture.objects.get(pk=fixture.pk).how == Fixture.How.FORFEIT
    assert ratings_at(fixture) == before
    assert RatingChange.objects.count() == changes


def test_it_rates_a_forfeiter_as_last_when_the_table_plays_on() -> None:
    season = make_season(players=4)
    fixture = fixtures_of(season)[0]
    forfeiter = fixture.seats[0]
    assert forfeiter is not None
    result_forfeit(fixture=fixture, actor=organizer_of(season.league.club), entrants=[forfeiter], reason="Away.")
    # The bot in the forfeiter's seat wins the match; the forfeiter is still rated as last at the table.
    fixture_count(match_id=finish(fixture, [1, 2, 3, 4]).pk)
    change = RatingChange.objects.get(fixture=fixture, rating__user__entries__pk=forfeiter)
    last = ratings.rate([[ratings.DEFAULT]] * 4, [4, 1, 2, 3])[0][0]
    assert (change.mu, change.sigma) == pytest.approx(last)
    assert change.delta < 0


def test_it_rates_nobody_at_a_void_table() -> None:
    season = make_season(players=4)
    fixture = fixtures_of(season)[0]
    assert fixture.match_id is not None
    Match.objects.filter(pk=fixture.match_id).update(status=Match.Status.ABANDONED)
    fixture_count(match_id=fixture.match_id)
    assert Fixture.objects.get(pk=fixture.pk).how == Fixture.How.VOID
    assert not RatingChange.objects.exists()
    assert not Rating.objects.filter(matches__gt=0).exists()


def test_it_rates_nobody_at_a_table_scored_as_it_stood() -> None:
    season = make_season(players=4, rounds=1, settle=Season.Settle.AS_STANDS)
    fixture = fixtures_of(season)[0]
    round_settle(round=fixture.round)
    assert Fixture.objects.get(pk=fixture.pk).how == Fixture.How.AS_STANDS
    assert not RatingChange.objects.exists()
