"""Registration limits with a waiting list: past the limit a player waits in order, moves up when a place comes
free, and those still waiting when registration closes do not play."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from leagues.errors import LeagueRefused
from leagues.models import AuditEntry, Entrant, Season
from leagues.seasons import season_close_registration, season_create, season_open_registration, season_register
from tests.accounts.factories import UserFactory
from tests.leagues.factories import make_league, member, organizer_of
from tests.leagues.flow_world import login, page, season_url

pytestmark = pytest.mark.django_db


def _limited(limit: int, players: int) -> tuple[Season, list[User]]:
    league = make_league()
    season = season_create(league=league, actor=organizer_of(league.club), rounds=1, entrants_max=limit)
    season_open_registration(season=season, actor=organizer_of(league.club))
    users = [member(league.club, UserFactory()) for _ in range(players)]
    for user in users:
        season_register(season=season, user=user)
    return season, users


def test_a_player_past_the_limit_is_told_their_place_on_the_waiting_list() -> None:
    season, _users = _limited(4, 4)
    late = member(season.league.club)
    client = login(late)
    html = page(client.post(season_url(season, "leagues-season-register"), follow=True))
    assert "is full: you are number 1 on its waiting list" in html
    assert "Waiting for a place, in order: " + late.name in html


def test_a_place_that_comes_free_goes_to_the_first_who_waits() -> None:
    season, users = _limited(4, 6)
    login(users[1]).post(season_url(season, "leagues-season-withdraw"))
    assert AuditEntry.objects.filter(season=season, text=f"{users[4].name} moved up from the waiting list.").exists()
    html = page(login(users[5]).get(season_url(season)))
    assert "Waiting for a place, in order: " + users[5].name + "." in html


def test_those_still_waiting_at_the_close_do_not_play_and_the_record_says_so() -> None:
    season, users = _limited(4, 6)
    season_close_registration(season=season, actor=organizer_of(season.league.club))
    assert set(Entrant.objects.filter(season=season).values_list("user_id", flat=True)) == {u.pk for u in users[:4]}
    entry = AuditEntry.objects.get(season=season, text__startswith="Registration closed")
    assert (
        entry.text
        == f"Registration closed with 4 players. Still waiting, without a place: {users[4].name}, {users[5].name}."
    )


@pytest.mark.parametrize("limit", [0, 1, 10_001])
def test_a_limit_that_makes_no_season_is_refused_with_a_sentence(limit: int) -> None:
    league = make_league()
    with pytest.raises(LeagueRefused, match="from 2 to 10000 players"):
        season_create(league=league, actor=organizer_of(league.club), rounds=1, entrants_max=limit)
    assert not Season.objects.filter(league=league).exists()


def test_the_season_form_sets_the_limit() -> None:
    league = make_league()
    client = login(organizer_of(league.club))
    posted = {"rounds": 1, "divisions": 1, "promote": 0, "relegate": 0, "round_mode": "all", "fill": "bots"}
    client.post(
        f"/leagues/c/{league.club.slug}/l/{league.slug}/seasons/new/", {**posted, "settle": "bots", "entrants_max": 8}
    )
    assert Season.objects.get(league=league).entrants_max == 8


def test_the_season_page_with_a_waiting_list_keeps_its_query_count(django_assert_max_num_queries: Any) -> None:
    season, users = _limited(4, 10)
    client = login(users[0])
    with django_assert_max_num_queries(10):
        assert client.get(season_url(season)).status_code == 200
