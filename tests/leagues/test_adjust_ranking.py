"""Adjustments are rankings (issue 23): ``check_ranking`` refuses places that are not a competition ranking, with
a sentence, and the organizer's form shows it and changes nothing."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from leagues.errors import LeagueRefused
from leagues.models import Fixture, Standing
from leagues.results import result_adjust
from leagues.standings import check_ranking, seat_groups
from tests.leagues.factories import fixtures_of, make_season, organizer_of

SOLO3, SOLO4 = seat_groups(3, None), seat_groups(4, None)
TEAMS = seat_groups(4, ((0, 2), (1, 3)))


@pytest.mark.parametrize("places", [[1, 1, 3], [1, 2, 3], [3, 1, 1], [1, 1, 1], [2, 1, 2]])
def test_it_accepts_a_competition_ranking(places: list[int]) -> None:
    assert check_ranking(places, SOLO3) == places


@pytest.mark.parametrize("places", [[1, 3, 3], [2, 2, 2], [2, 3, 3], [1, 1, 2]])
def test_it_refuses_what_is_not_a_ranking(places: list[int]) -> None:
    with pytest.raises(LeagueRefused, match="is not a ranking: players level share a place"):
        check_ranking(places, SOLO3)


@pytest.mark.parametrize("places", [[0, 1, 2, 3], [1, 2, 3, 5], [1, 2, 3], [True, 2, 3, 4]])
def test_it_refuses_places_outside_the_table(places: list[int]) -> None:
    with pytest.raises(LeagueRefused, match="Give a place from 1 to"):
        check_ranking(places, SOLO4)


def test_partners_share_a_place_given_among_seats_or_teams() -> None:
    assert check_ranking([1, 3, 1, 3], TEAMS) == [1, 3, 1, 3]
    assert check_ranking([2, 1, 2, 1], TEAMS) == [3, 1, 3, 1]
    assert check_ranking([1, 1, 1, 1], TEAMS) == [1, 1, 1, 1]
    with pytest.raises(LeagueRefused, match="Partners share their place"):
        check_ranking([1, 2, 3, 4], TEAMS)
    with pytest.raises(LeagueRefused, match="is not a ranking"):
        check_ranking([2, 2, 2, 2], TEAMS)


@pytest.mark.django_db
def test_the_adjustment_form_says_why_and_changes_nothing() -> None:
    season = make_season(players=4, rounds=1, fill="byes")
    fixture = fixtures_of(season)[0]
    client = Client()
    client.force_login(organizer_of(season.league.club))
    url = reverse("leagues-result", args=[season.league.club.slug, season.league.slug, season.number, fixture.pk])
    places = {"adjust-place_0": 1, "adjust-place_1": 3, "adjust-place_2": 3, "adjust-place_3": 4}
    response = client.post(url, {"action": "adjust", **places, "adjust-reason": "Typo."})
    assert response.status_code == 200
    assert "1, 3, 3, 4 is not a ranking" in response.content.decode()
    fixture.refresh_from_db()
    assert fixture.result is None and fixture.counted_at is None
    assert not Standing.objects.filter(season=season, played__gt=0).exists()
    with pytest.raises(LeagueRefused):
        result_adjust(fixture=fixture, actor=organizer_of(season.league.club), places=[2, 2, 2, 2], reason="x")
    assert Fixture.objects.get(pk=fixture.pk).how == ""
