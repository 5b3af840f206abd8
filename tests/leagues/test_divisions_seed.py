"""Divisions that fill: the registrants seeded into divisions in one step, by rating or by the last season's
standings, adjustable afterwards; a season never starts with an empty division."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from leagues import ratings
from leagues.errors import LeagueRefused
from leagues.models import AuditEntry, Entrant, Rating, Season, Standing
from leagues.seasons import divisions_seed, entrant_set_division, fixtures_generate, season_start
from tests.accounts.factories import UserFactory
from tests.leagues.factories import make_season, organizer_of
from tests.leagues.flow_world import login, page, season_url

pytestmark = pytest.mark.django_db


def _rated(users: list[User], game: str = "renfield") -> None:
    """Each user's shown rating: the first the best, the last the worst."""
    mu, sigma = ratings.DEFAULT
    for i, user in enumerate(users):
        Rating.objects.create(user=user, game=game, mu=mu, sigma=sigma, ordinal=100.0 - 10 * i)


def _divisions(season: Season) -> dict[int, set[int]]:
    found: dict[int, set[int]] = {}
    for user_id, division in Entrant.objects.filter(season=season).values_list("user_id", "division"):
        found.setdefault(division, set()).add(user_id)
    return found


def test_a_season_with_an_empty_division_does_not_start_and_the_page_says_why() -> None:
    season = make_season(players=8, rounds=1, divisions=2, start=False)  # everyone registered in division 2
    organizer = organizer_of(season.league.club)
    fixtures_generate(season=season, actor=organizer, seed=1)
    html = page(login(organizer).post(season_url(season, "leagues-season-start"), follow=True))
    season.refresh_from_db()
    assert season.status == Season.Status.CLOSED
    assert "Division 1 has nobody in it" in html
    with pytest.raises(LeagueRefused, match="Division 1 has nobody in it"):
        season_start(season=season, actor=organizer)


def test_seeding_by_rating_puts_the_best_rated_in_the_top_division_in_even_halves() -> None:
    users = [UserFactory() for _ in range(9)]
    _rated(users)
    season = make_season(players=list(reversed(users)), rounds=1, divisions=2, start=False)
    divisions_seed(season=season, actor=organizer_of(season.league.club), by="rating")
    ids = [u.pk for u in users]
    assert _divisions(season) == {1: set(ids[:5]), 2: set(ids[5:])}  # the odd one goes up
    standing_divisions = dict(Standing.objects.filter(season=season).values_list("entrant__user_id", "division"))
    assert standing_divisions == {u: 1 if u in ids[:5] else 2 for u in ids}
    assert AuditEntry.objects.filter(season=season, text__startswith="Divisions seeded by rating").exists()


def test_the_seeded_divisions_can_be_adjusted_draw_and_start() -> None:
    users = [UserFactory() for _ in range(8)]
    _rated(users)
    season = make_season(players=users, rounds=1, divisions=2, start=False)
    organizer = organizer_of(season.league.club)
    divisions_seed(season=season, actor=organizer, by="rating")
    entrant_set_division(entrant=Entrant.objects.get(season=season, user=users[0]), actor=organizer, division=2)
    fixtures_generate(season=season, actor=organizer, seed=1)
    season_start(season=season, actor=organizer)
    season.refresh_from_db()
    assert season.status == Season.Status.RUNNING
    assert len(_divisions(season)[1]) == 3 and len(_divisions(season)[2]) == 5


def test_seeding_by_the_last_standings_follows_the_final_order_and_newcomers_come_last() -> None:
    old = [UserFactory() for _ in range(4)]
    last = make_season(players=old, rounds=1, start=False)
    # The final order of the last season: old[3] first, old[0] last (points set on the lines).
    for points, user in enumerate(old):
        Standing.objects.filter(season=last, entrant__user=user).update(points=points, played=1)
    Season.objects.filter(pk=last.pk).update(status=Season.Status.FINISHED)
    newcomers = [UserFactory() for _ in range(2)]
    _rated(newcomers)
    season = make_season(league=last.league, players=[*newcomers, *old], rounds=1, divisions=3, start=False)
    assert season.previous_id == last.pk
    divisions_seed(season=season, actor=organizer_of(season.league.club), by="standings")
    assert _divisions(season) == {
        1: {old[3].pk, old[2].pk},
        2: {old[1].pk, old[0].pk},
        3: {newcomers[0].pk, newcomers[1].pk},
    }


@pytest.mark.parametrize(
    ("players", "divisions", "by", "words"),
    [
        (2, 3, "rating", "2 players cannot fill 3 divisions"),
        (4, 2, "standings", "no standings to seed from"),
        (4, 2, "luck", "by rating or by the last season's standings"),
    ],
)
def test_seeding_that_cannot_be_done_is_refused_with_a_sentence_and_changes_nothing(
    players: int, divisions: int, by: str, words: str
) -> None:
    season = make_season(players=players, rounds=1, divisions=divisions, start=False)
    before = _divisions(season)
    with pytest.raises(LeagueRefused, match=words):
        divisions_seed(season=season, actor=organizer_of(season.league.club), by=by)
    assert _divisions(season) == before


def test_the_seed_button_seeds_and_a_refusal_is_shown_on_the_season_page() -> None:
    season = make_season(players=6, rounds=1, divisions=2, start=False)
    client = login(organizer_of(season.league.club))
    html = page(client.get(season_url(season)))
    assert season_url(season, "leagues-divisions-seed") in html
    html = page(client.post(season_url(season, "leagues-divisions-seed"), {"by": "standings"}, follow=True))
    assert "no standings to seed from" in html
    client.post(season_url(season, "leagues-divisions-seed"), {"by": "rating"})
    assert sorted(len(v) for v in _divisions(season).values()) == [3, 3]


def test_a_player_cannot_seed_the_divisions() -> None:
    season = make_season(players=6, rounds=1, divisions=2, start=False)
    before = _divisions(season)
    entrant = Entrant.objects.filter(season=season).select_related("user").first()
    assert entrant is not None
    response = login(entrant.user).post(season_url(season, "leagues-divisions-seed"), {"by": "rating"})
    assert response.status_code == 403 and _divisions(season) == before


def test_the_season_page_with_the_seed_form_keeps_its_query_count(django_assert_max_num_queries: Any) -> None:
    season = make_season(players=12, rounds=1, divisions=3, start=False)
    client = login(organizer_of(season.league.club))
    with django_assert_max_num_queries(10):
        assert client.get(season_url(season)).status_code == 200
