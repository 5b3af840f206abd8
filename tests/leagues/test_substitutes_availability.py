"""An entrant says which rounds they cannot play, on the season's page, and may change it until the round opens."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from leagues.errors import LeagueRefused
from leagues.models import Entrant, Season, Unavailability
from leagues.rounds import round_open
from leagues.substitutes import availability_set
from tests.accounts.factories import UserFactory
from tests.leagues.factories import make_season, member, organizer_of
from tests.leagues.flow_world import login, page, round_of, season_url, sequential

pytestmark = pytest.mark.django_db


def _unavailable(season: Season, user: User) -> set[int]:
    rows = Unavailability.objects.filter(entrant__season=season, entrant__user=user)
    return set(rows.values_list("round_number", flat=True))


def _first_player(season: Season) -> User:
    entrant = Entrant.objects.filter(season=season).select_related("user").first()
    assert entrant is not None
    return entrant.user


def test_it_keeps_the_rounds_an_entrant_ticks_on_the_season_page() -> None:
    season = sequential(rounds=4)
    player = _first_player(season)
    client = login(player)
    html = page(client.get(season_url(season)))
    assert "Rounds I cannot play" in html and 'name="rounds" value="3"' in html
    html = page(client.post(season_url(season, "leagues-availability"), {"rounds": ["2", "4"]}, follow=True))
    assert _unavailable(season, player) == {2, 4}
    assert "Saved: you cannot play round 2, 4." in html
    assert 'value="2" id="unavailable-2" checked' in html and 'value="3" id="unavailable-3">' in html


def test_it_forgets_a_round_unticked_before_it_opens() -> None:
    season = sequential(rounds=3)
    player = _first_player(season)
    availability_set(season=season, user=player, unavailable=[2, 3])
    html = page(login(player).post(season_url(season, "leagues-availability"), {"rounds": ["3"]}, follow=True))
    assert _unavailable(season, player) == {3}
    assert "Saved: you cannot play round 3." in html


def test_it_refuses_a_change_to_a_round_already_open_and_changes_nothing() -> None:
    season = sequential(rounds=3)  # round 1 is open
    player = _first_player(season)
    client = login(player)
    html = page(client.post(season_url(season, "leagues-availability"), {"rounds": ["1", "2"]}, follow=True))
    assert "Round 1 has opened: whether you play it can no longer change." in html
    assert _unavailable(season, player) == set()
    availability_set(season=season, user=player, unavailable=[2])
    round_open(round=round_of(season, 2), actor=organizer_of(season.league.club))
    html = page(client.post(season_url(season, "leagues-availability"), {"rounds": []}, follow=True))
    assert "Round 2 has opened" in html and _unavailable(season, player) == {2}
    assert 'id="unavailable-2" checked disabled' in page(client.get(season_url(season)))


def test_it_keeps_an_open_round_as_it_was_when_the_page_posts_it_back() -> None:
    """A ticked round that opened is disabled on the page and posted back hidden: the rest still saves."""
    season = sequential(rounds=3)
    player = _first_player(season)
    availability_set(season=season, user=player, unavailable=[2])
    round_open(round=round_of(season, 2), actor=organizer_of(season.league.club))
    login(player).post(season_url(season, "leagues-availability"), {"rounds": ["2", "3"]})
    assert _unavailable(season, player) == {2, 3}


def test_it_takes_availability_for_an_upcoming_season_before_the_draw() -> None:
    season = make_season(players=4, rounds=2, start=False)
    player = _first_player(season)
    assert season.status == Season.Status.CLOSED
    login(player).post(season_url(season, "leagues-availability"), {"rounds": ["1"]})
    assert _unavailable(season, player) == {1}


@pytest.mark.parametrize("posted", [{"rounds": ["9"]}, {"rounds": ["0"]}, {"rounds": ["x"]}, {"rounds": ["١"]}])
def test_it_refuses_rounds_the_season_does_not_have(posted: dict[str, Any]) -> None:
    season = sequential(rounds=3)
    player = _first_player(season)
    html = page(login(player).post(season_url(season, "leagues-availability"), posted, follow=True))
    assert "Tick rounds of this season only." in html
    assert _unavailable(season, player) == set()


def test_it_refuses_a_member_who_is_not_an_entrant() -> None:
    season = sequential(rounds=3)
    outsider_member = member(season.league.club, UserFactory())
    html = page(login(outsider_member).post(season_url(season, "leagues-availability"), {"rounds": ["2"]}, follow=True))
    assert "players say which rounds they cannot play." in html
    assert not Unavailability.objects.exists()
    with pytest.raises(LeagueRefused):
        availability_set(season=season, user=outsider_member, unavailable=[2])


def test_it_refuses_a_finished_season() -> None:
    season = sequential(rounds=2)
    player = _first_player(season)
    Season.objects.filter(pk=season.pk).update(status=Season.Status.FINISHED)
    with pytest.raises(LeagueRefused, match="only before or during the season"):
        availability_set(season=season, user=player, unavailable=[2])
    assert "Rounds I cannot play" not in page(login(player).get(season_url(season)))


def test_it_shows_no_availability_form_to_those_not_entered() -> None:
    season = sequential(rounds=3)
    assert "Rounds I cannot play" not in page(login(organizer_of(season.league.club)).get(season_url(season)))


def test_the_season_page_with_the_availability_form_keeps_its_query_count(django_assert_max_num_queries: Any) -> None:
    season = sequential(rounds=6)
    player = _first_player(season)
    availability_set(season=season, user=player, unavailable=[3, 5])
    client, url = login(player), season_url(season)
    # The session, the user, the season with the role and whether they substitute, the page's reads and two for
    # availability (the rounds ticked, the rounds open): none per round.
    with django_assert_max_num_queries(9):
        assert client.get(url).status_code == 200
