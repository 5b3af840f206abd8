"""A season's substitute pool: the organizer adds and removes club members on the organize page, a member
volunteers or steps down on the season page."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from leagues.errors import LeagueRefused, NotOrganizer
from leagues.models import AuditEntry, Season, Substitute
from leagues.substitutes import substitute_add, substitute_remove
from tests.accounts.factories import UserFactory
from tests.leagues.factories import member, organizer_of
from tests.leagues.flow_world import login, page, season_url, sequential

pytestmark = pytest.mark.django_db


def _pool(season: Season) -> set[int]:
    return set(Substitute.objects.filter(season=season).values_list("user_id", flat=True))


def _organizer(season: Season) -> User:
    return organizer_of(season.league.club)


def test_it_lets_the_organizer_add_a_member_from_the_organize_page() -> None:
    season = sequential(rounds=2)
    bob = member(season.league.club, UserFactory(display_name="Bob"))
    client = login(_organizer(season))
    html = page(client.get(season_url(season, "leagues-season-organize")))
    assert f'<option value="{bob.pk}">Bob</option>' in html
    html = page(client.post(season_url(season, "leagues-substitutes"), {"action": "add", "user": bob.pk}, follow=True))
    assert _pool(season) == {bob.pk}
    assert "Bob joined the substitute pool." in html and "Remove Bob" in html
    assert AuditEntry.objects.filter(season=season, text="Bob joined the substitute pool.").exists()


def test_it_lets_the_organizer_remove_a_substitute() -> None:
    season = sequential(rounds=2)
    bob = member(season.league.club, UserFactory(display_name="Bob"))
    substitute_add(season=season, actor=bob, user=bob)
    client = login(_organizer(season))
    html = page(
        client.post(season_url(season, "leagues-substitutes"), {"action": "remove", "user": bob.pk}, follow=True)
    )
    assert _pool(season) == set() and "Bob left the substitute pool." in html


def test_it_lets_a_member_volunteer_and_step_down_on_the_season_page() -> None:
    season = sequential(rounds=2)
    bob = member(season.league.club, UserFactory(display_name="Bob"))
    client = login(bob)
    assert "Volunteer as a substitute" in page(client.get(season_url(season)))
    html = page(client.post(season_url(season, "leagues-substitute-volunteer"), {"action": "join"}, follow=True))
    assert _pool(season) == {bob.pk}
    assert "You are in the substitute pool" in html and "Leave the substitute pool" in html
    html = page(client.post(season_url(season, "leagues-substitute-volunteer"), {"action": "leave"}, follow=True))
    assert _pool(season) == set() and "You have left the substitute pool." in html


def test_it_refuses_a_second_volunteering_and_changes_nothing() -> None:
    season = sequential(rounds=2)
    bob = member(season.league.club)
    client = login(bob)
    client.post(season_url(season, "leagues-substitute-volunteer"), {"action": "join"})
    audit = AuditEntry.objects.count()
    html = page(client.post(season_url(season, "leagues-substitute-volunteer"), {"action": "join"}, follow=True))
    assert "You are already in this season" in html
    assert _pool(season) == {bob.pk} and AuditEntry.objects.count() == audit


def test_it_refuses_someone_outside_the_club() -> None:
    season = sequential(rounds=2)
    stranger = UserFactory()
    with pytest.raises(LeagueRefused, match="Only members of"):
        substitute_add(season=season, actor=_organizer(season), user=stranger)
    response = login(_organizer(season)).post(
        season_url(season, "leagues-substitutes"), {"action": "add", "user": stranger.pk}, follow=True
    )
    assert "Pick a member of the club." in page(response) and _pool(season) == set()


def test_it_refuses_a_player_who_adds_someone_else() -> None:
    season = sequential(rounds=2)
    bob, carol = member(season.league.club), member(season.league.club)
    with pytest.raises(NotOrganizer):
        substitute_add(season=season, actor=bob, user=carol)
    with pytest.raises(NotOrganizer):
        substitute_remove(season=season, actor=bob, user=carol)
    response = login(bob).post(season_url(season, "leagues-substitutes"), {"action": "add", "user": carol.pk})
    assert response.status_code == 403 and _pool(season) == set()


def test_it_refuses_a_finished_season() -> None:
    season = sequential(rounds=2)
    Season.objects.filter(pk=season.pk).update(status=Season.Status.FINISHED)
    bob = member(season.league.club)
    with pytest.raises(LeagueRefused, match="still to be played"):
        substitute_add(season=season, actor=bob, user=bob)
    assert "Volunteer as a substitute" not in page(login(bob).get(season_url(season)))


@pytest.mark.parametrize(
    "posted", [{}, {"action": "add"}, {"action": "fly", "user": "1"}, {"action": "add", "user": "x"}]
)
def test_it_answers_a_broken_post_with_a_sentence(posted: dict[str, Any]) -> None:
    season = sequential(rounds=2)
    html = page(login(_organizer(season)).post(season_url(season, "leagues-substitutes"), posted, follow=True))
    assert "Pick a member of the club." in html or "Say whether to add or remove the substitute." in html
    assert _pool(season) == set()


def test_the_organize_page_with_the_pool_keeps_its_query_count(django_assert_max_num_queries: Any) -> None:
    season = sequential(rounds=6)
    for _ in range(5):
        user = member(season.league.club)
        substitute_add(season=season, actor=user, user=user)
    for _ in range(5):
        member(season.league.club)
    client, url = login(_organizer(season)), season_url(season, "leagues-season-organize")
    # The session, the user, the season with the role, the page's reads and one for the pool and the members who
    # could join it: none per member.
    with django_assert_max_num_queries(9):
        assert client.get(url).status_code == 200
