"""Who played which moves at a seat a substitute took: recorded per stint, the result still the entrant's, the
substitute without standings points, and the standings and season pages saying who played what."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from accounts.models import User
from games.models import Mail
from leagues.models import Entrant, Fixture, Season, SeatOffer, Standing
from leagues.results import fixture_count
from leagues.rounds import round_open
from leagues.substitutes import availability_set, seat_offer_accept, substitute_add
from tests.accounts.factories import UserFactory
from tests.leagues.factories import finish, fixtures_of, member, organizer_of
from tests.leagues.flow_world import login, page, round_of, season_url, sequential

pytestmark = pytest.mark.django_db


def _bob_plays_anns_seat() -> tuple[Season, User, User, Fixture]:
    """Round 2 of four players at one table; Ann cannot play it, Bob takes her seat from the mail's link."""
    season = sequential(rounds=3)
    fixture = fixtures_of(season, round_number=2)[0]
    ann = Entrant.objects.select_related("user").get(pk=fixture.seats[0]).user
    availability_set(season=season, user=ann, unavailable=[2])
    bob = member(season.league.club, UserFactory(display_name="Bob"))
    substitute_add(season=season, actor=bob, user=bob)
    round_open(round=round_of(season, 2), actor=organizer_of(season.league.club))
    body = Mail.objects.filter(user=bob, body__contains="Take the seat:").get().body
    token = body.split("Take the seat: ")[1].split()[0].rstrip("/").split("/")[-1]
    seat_offer_accept(token=token, user=bob)
    fixture.refresh_from_db()
    return season, ann, bob, fixture


def test_it_records_from_which_move_the_substitute_played() -> None:
    season, ann, bob, fixture = _bob_plays_anns_seat()
    offer = SeatOffer.objects.get(fixture=fixture, seat=0)
    assert (offer.entrant.user_id, offer.taken_by_id, offer.from_move) == (ann.pk, bob.pk, 1)
    assert offer.stint_text() == f"{ann.name}'s seat at table 1 of round 2 was played by Bob from move 1"


def test_it_counts_the_seat_for_the_entrant_and_gives_the_substitute_nothing() -> None:
    season, ann, bob, fixture = _bob_plays_anns_seat()
    places = [1, 2, 3, 4]
    match = finish(fixture, places)
    assert fixture_count(match_id=match.pk)
    # Recomputed from the raw outcome: Ann's seat (seat 0) came first, so Ann has the league's first-place points.
    first_place = float(season.league.place_points[0])
    ann_line = Standing.objects.get(entrant__season=season, entrant__user=ann)
    assert ann_line.played == 1 and ann_line.points == first_place and ann_line.wins == 1
    assert not Standing.objects.filter(season=season, entrant__user=bob).exists()
    assert not Entrant.objects.filter(season=season, user=bob).exists()


def test_the_standings_and_season_pages_say_who_played_what() -> None:
    season, ann, bob, fixture = _bob_plays_anns_seat()
    client = login(bob)
    sentence = f"{ann.name}&#x27;s seat at table 1 of round 2 was played by Bob from move 1."
    assert sentence in page(client.get(season_url(season, "leagues-standings")))
    assert sentence in page(client.get(season_url(season)))
    assert "the substitute earns no points for it" in page(client.get(season_url(season, "leagues-standings")))
    league_page = page(client.get(reverse("leagues-league", args=[season.league.club.slug, season.league.slug])))
    assert "the substitute earns no standings points, no game played and no rating change" in league_page


def test_the_standings_page_without_substitutes_says_nothing_of_them() -> None:
    season = sequential(rounds=2)
    assert "Seats played by substitutes" not in page(
        login(organizer_of(season.league.club)).get(season_url(season, "leagues-standings"))
    )


def test_the_standings_page_with_stints_keeps_its_query_count(django_assert_max_num_queries: Any) -> None:
    season, _ann, bob, _fixture = _bob_plays_anns_seat()
    client, url = login(bob), season_url(season, "leagues-standings")
    # The session, the user, the season with the role and whether any seat had a substitute, the standings, the
    # seats substitutes played (one query however many), the header's badge.
    with django_assert_max_num_queries(6):
        assert client.get(url).status_code == 200
