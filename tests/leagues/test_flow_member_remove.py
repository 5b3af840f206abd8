"""Removing a member who plays in a season asks first, on a page that says what becomes of their seat: in a
running season a bot takes it (their matches in progress are played out by it, their tables to come are bot
seats, counted for nobody; what they scored stays), and from a season not yet started they are withdrawn."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games.models import Seat
from leagues.models import AuditEntry, Entrant, Fixture, Membership, Round
from leagues.results import fixture_count
from tests.leagues.factories import finish, fixtures_of, make_season, organizer_of
from tests.leagues.flow_world import FUTURE, login, page

pytestmark = pytest.mark.django_db


def _remove_url(entrant: Entrant) -> str:
    return reverse("leagues-member-remove", args=[entrant.season.league.club.slug, entrant.user_id])


def _running() -> tuple[Any, Entrant]:
    """A sequential season of four at one table, round 1 open; the first seat's entrant."""
    season = make_season(players=4, rounds=3, round_mode="sequential", starts_on=FUTURE)
    entrant = Entrant.objects.select_related("season__league__club", "user").get(pk=fixtures_of(season)[0].seats[0])
    return season, entrant


def test_the_members_page_asks_first_and_the_question_says_what_happens_to_the_seat() -> None:
    season, entrant = _running()
    client = login(organizer_of(season.league.club))
    members = page(client.get(reverse("leagues-members", args=[season.league.club.slug])))
    assert f'href="{_remove_url(entrant)}"' in members
    response = client.get(_remove_url(entrant))
    html = page(response)
    assert response.status_code == 200
    assert f"Remove {entrant.user.name} from {season.league.club.name}?" in html
    assert (
        "3 tables still to play" in html and "a bot of the league" in html and "what they scored so far stays" in html
    )
    assert Membership.objects.filter(club=season.league.club, user=entrant.user).exists()


def test_removing_an_entrant_hands_their_seat_to_a_bot_and_keeps_their_results() -> None:
    season, entrant = _running()
    first = fixtures_of(season)[0]
    response = login(organizer_of(season.league.club)).post(_remove_url(entrant))
    assert response.status_code == 302
    assert not Membership.objects.filter(club=season.league.club, user=entrant.user).exists()
    seat = Seat.objects.get(match_id=first.match_id, user=entrant.user)
    assert seat.bot_level == season.league.timeout_bot_level
    tables = Fixture.objects.filter(round__season=season)
    assert all(entrant.pk not in f.seats for f in tables) and all(None in f.seats for f in tables)
    entry = AuditEntry.objects.get(season=season, text__contains="left")
    assert "at 3 tables still to play, a bot of the league's level takes their seat" in entry.text
    # The bot's result counts for nobody; the season goes on to the next round.
    fixture_count(match_id=finish(first, [1, 2, 3, 4]).pk)
    assert Round.objects.get(season=season, number=2).opened_at is not None
    assert entrant.standing.played == 0  # type: ignore[attr-defined]


def test_a_member_leaving_a_season_not_started_is_withdrawn_and_the_draw_made_again() -> None:
    season = make_season(players=5, rounds=1, start=False)
    organizer = organizer_of(season.league.club)
    client = login(organizer)
    client.post(reverse("leagues-fixtures-generate", args=[season.league.club.slug, season.league.slug, 1]))
    assert Round.objects.filter(season=season).exists()
    entrant = Entrant.objects.select_related("season__league__club", "user").filter(season=season).first()
    assert entrant is not None
    leaver = login(entrant.user)
    asked = page(leaver.get(_remove_url(entrant)))
    assert f"Leave {season.league.club.name}?" in asked and "their registration is withdrawn" in asked
    leaver.post(_remove_url(entrant))
    assert not Entrant.objects.filter(pk=entrant.pk).exists()
    assert not Round.objects.filter(season=season).exists()
    assert AuditEntry.objects.filter(season=season, text__contains="the fixtures must be drawn again").exists()


def test_the_confirmation_page_keeps_its_query_count(django_assert_max_num_queries: Any) -> None:
    season, entrant = _running()
    client, url = login(organizer_of(season.league.club)), _remove_url(entrant)
    with django_assert_max_num_queries(9):  # the session, the user, the club, the role, the member, two reads
        assert client.get(url).status_code == 200
