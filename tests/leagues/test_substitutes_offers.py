"""A seat offered to the substitute pool: when a round opens for an entrant who cannot play it, or when an
organizer records a forfeit at a table still playing. The flow starts from the mail the app wrote."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.clocks import PRESETS
from games.models import Mail, Match, Move, Seat
from leagues.models import AuditEntry, Entrant, Fixture, Membership, Season, SeatOffer
from leagues.results import result_forfeit
from leagues.rounds import round_open
from leagues.seasons import fixtures_generate, season_start
from leagues.substitutes import availability_set, substitute_add, substitute_remove
from tests.accounts.factories import UserFactory
from tests.leagues.factories import fixtures_of, make_season, member, organizer_of
from tests.leagues.flow_world import login, page, round_of, sequential

pytestmark = pytest.mark.django_db

LINK = re.compile(r"Take the seat: (\S+)")


def _entrant_user(season: Season, seat: int, round_number: int) -> User:
    fixture = fixtures_of(season, round_number=round_number)[0]
    entrant = Entrant.objects.select_related("user").get(pk=fixture.seats[seat])
    return entrant.user


def _pool(season: Season, *names: str) -> list[User]:
    users = [member(season.league.club, UserFactory(display_name=name)) for name in names]
    for user in users:
        substitute_add(season=season, actor=user, user=user)
    return users


def _link(user: User) -> str:
    mails = [m for m in Mail.objects.filter(user=user).order_by("-pk") if "Take the seat:" in m.body]
    assert mails, f"no seat offer mailed to {user.name}"
    found = LINK.search(mails[0].body)
    assert found is not None
    return found.group(1).replace("http://testserver", "")


def _seat(fixture: Fixture, number: int) -> Seat:
    fixture.refresh_from_db()
    return Seat.objects.get(match_id=fixture.match_id, number=number)


def _round_two_with_ann_away() -> tuple[Season, User, Fixture, list[User]]:
    season = sequential(rounds=3)
    ann = _entrant_user(season, 0, 2)
    availability_set(season=season, user=ann, unavailable=[2])
    subs = _pool(season, "Bob", "Carol")
    round_open(round=round_of(season, 2), actor=organizer_of(season.league.club))
    fixture = fixtures_of(season, round_number=2)[0]
    return season, ann, fixture, subs


def test_it_hands_the_seat_of_an_entrant_away_to_a_bot_and_offers_it_to_the_pool() -> None:
    season, ann, fixture, (bob, carol) = _round_two_with_ann_away()
    seat = _seat(fixture, 0)
    assert seat.user_id is None and seat.bot_level != ""  # the bot plays it until someone takes it
    assert SeatOffer.objects.filter(fixture=fixture, seat=0, taken_by=None).count() == 1
    body = next(m.body for m in Mail.objects.filter(user=bob) if "Take the seat:" in m.body)
    assert f"{ann.name} cannot play on at Table 1 of round 2" in body
    assert _link(carol) != _link(bob)  # each substitute's own link
    # Those already at a table of the round are not asked.
    others = [_entrant_user(season, n, 2) for n in (1, 2, 3)]
    assert not any("Take the seat:" in m.body for m in Mail.objects.filter(user__in=others))


def test_it_gives_the_seat_to_the_first_who_accepts_and_the_bot_stops() -> None:
    season, ann, fixture, (bob, carol) = _round_two_with_ann_away()
    client = login(bob)
    assert "Take the seat" in page(client.get(_link(bob)))
    response = client.post(_link(bob))
    assert response.status_code == 302 and response["Location"] == reverse("games-match", args=[fixture.match_id])
    seat = _seat(fixture, 0)
    assert seat.user_id == bob.pk and seat.bot_level == "" and not seat.absent
    offer = SeatOffer.objects.get(fixture=fixture, seat=0)
    assert offer.taken_by_id == bob.pk
    assert offer.from_move == Move.objects.filter(match_id=fixture.match_id).count() + 1


def test_it_tells_the_others_the_seat_is_taken_and_changes_nothing() -> None:
    season, ann, fixture, (bob, carol) = _round_two_with_ann_away()
    login(bob).post(_link(bob))
    carol_client = login(carol)
    assert "This seat has been taken by another substitute." in page(carol_client.get(_link(carol)))
    html = page(carol_client.post(_link(carol), follow=True))
    assert "This seat has been taken by another substitute." in html
    assert _seat(fixture, 0).user_id == bob.pk


def test_it_says_so_when_the_same_substitute_accepts_twice() -> None:
    season, ann, fixture, (bob, _carol) = _round_two_with_ann_away()
    client = login(bob)
    client.post(_link(bob))
    audits = AuditEntry.objects.count()
    html = page(client.post(_link(bob), follow=True))
    assert "You have already taken this seat" in html
    assert AuditEntry.objects.count() == audits


@pytest.mark.parametrize("mangle", [lambda t: t[:-3] + "abc", lambda t: "nonsense", lambda t: t + "x"])
def test_it_refuses_a_stale_or_altered_link_with_a_sentence(mangle: Any) -> None:
    season, ann, fixture, (bob, _carol) = _round_two_with_ann_away()
    token = _link(bob).rstrip("/").split("/")[-1]
    url = f"/leagues/offers/{mangle(token)}/"
    client = login(bob)
    assert "This link is not valid" in page(client.get(url))
    assert "This link is not valid" in page(client.post(url, follow=True))
    assert _seat(fixture, 0).user_id is None


def test_it_refuses_a_link_once_the_table_has_finished() -> None:
    season, ann, fixture, (bob, _carol) = _round_two_with_ann_away()
    Match.objects.filter(pk=fixture.match_id).update(status=Match.Status.FINISHED)
    html = page(login(bob).post(_link(bob), follow=True))
    assert "This table has finished" in html and _seat(fixture, 0).user_id is None


def test_it_refuses_a_substitute_already_seated_this_round() -> None:
    season = sequential(rounds=3)
    ann, ben = _entrant_user(season, 0, 2), _entrant_user(season, 1, 2)
    for user in (ann, ben):
        availability_set(season=season, user=user, unavailable=[2])
    (bob,) = _pool(season, "Bob")
    round_open(round=round_of(season, 2), actor=organizer_of(season.league.club))
    fixture = fixtures_of(season, round_number=2)[0]
    links = [LINK.search(m.body).group(1) for m in Mail.objects.filter(user=bob).order_by("pk")]  # type: ignore[union-attr]
    assert len(links) == 2
    client = login(bob)
    client.post(links[0].replace("http://testserver", ""))
    html = page(client.post(links[1].replace("http://testserver", ""), follow=True))
    assert "You already play at a table in this round" in html
    taken = SeatOffer.objects.filter(fixture=fixture).exclude(taken_by=None)
    assert taken.count() == 1


def test_it_refuses_a_link_opened_by_someone_else() -> None:
    season, ann, fixture, (bob, carol) = _round_two_with_ann_away()
    html = page(login(carol).post(_link(bob), follow=True))
    assert "This offer was sent to another member" in html and _seat(fixture, 0).user_id is None


def test_it_sends_an_anonymous_reader_to_log_in_and_changes_nothing() -> None:
    season, ann, fixture, (bob, _carol) = _round_two_with_ann_away()
    response = Client().post(_link(bob))
    assert response.status_code == 302 and "login" in response["Location"]
    assert _seat(fixture, 0).user_id is None


def test_it_offers_a_forfeited_seat_at_a_table_still_playing() -> None:
    season = sequential(rounds=3)
    (bob,) = _pool(season, "Bob")
    fixture = fixtures_of(season, round_number=1)[0]
    result_forfeit(
        fixture=fixture, actor=organizer_of(season.league.club), entrants=[fixture.seats[2]], reason="Gone away."
    )
    assert SeatOffer.objects.filter(fixture=fixture, seat=2).exists()
    login(bob).post(_link(bob))
    seat = _seat(fixture, 2)
    assert seat.user_id == bob.pk and seat.bot_level == ""


def test_it_keeps_the_bot_playing_when_the_pool_is_empty() -> None:
    season = sequential(rounds=3)
    ann = _entrant_user(season, 0, 2)
    availability_set(season=season, user=ann, unavailable=[2])
    round_open(round=round_of(season, 2), actor=organizer_of(season.league.club))
    fixture = fixtures_of(season, round_number=2)[0]
    assert _seat(fixture, 0).bot_level != ""
    assert not any("Take the seat:" in m.body for m in Mail.objects.all())


def test_the_offer_page_keeps_its_query_count(django_assert_max_num_queries: Any) -> None:
    season, ann, fixture, (bob, _carol) = _round_two_with_ann_away()
    client, url = login(bob), _link(bob)
    # The session, the user, the offer with its table, round, season, league, club and players, the match's
    # status, the header's badge.
    with django_assert_max_num_queries(6):
        assert client.get(url).status_code == 200


def test_it_offers_the_seat_when_the_season_starts_with_an_entrant_away() -> None:
    season = make_season(players=4, rounds=1, start=False)
    boss = organizer_of(season.league.club)
    away = Entrant.objects.select_related("user").first()
    assert away is not None
    availability_set(season=season, user=away.user, unavailable=[1])
    (bob,) = _pool(season, "Bob")
    fixtures_generate(season=season, actor=boss, seed=1)
    season_start(season=season, actor=boss)
    offer = SeatOffer.objects.get(entrant=away)
    assert _seat(offer.fixture, offer.seat).user_id is None and "Take the seat" in page(login(bob).get(_link(bob)))


def test_it_gives_a_substitute_who_takes_an_awaited_seat_a_fresh_deadline() -> None:
    clock = PRESETS["2d"][1]
    assert clock is not None
    season = sequential(rounds=3, time_control=clock.to_json())
    (bob,) = _pool(season, "Bob")
    fixture = fixtures_of(season, round_number=1)[0]
    awaited = Seat.objects.filter(match_id=fixture.match_id, awaiting=True).order_by("number").first()
    assert awaited is not None
    result_forfeit(
        fixture=fixture, actor=organizer_of(season.league.club), entrants=[fixture.seats[awaited.number]], reason="Ill."
    )
    assert _seat(fixture, awaited.number).deadline is None  # the bot plays it
    login(bob).post(_link(bob))
    seat = _seat(fixture, awaited.number)
    assert seat.user_id == bob.pk and seat.deadline is not None


def test_it_refuses_a_substitute_who_left_the_pool_or_the_club() -> None:
    season, ann, fixture, (bob, carol) = _round_two_with_ann_away()
    substitute_remove(season=season, actor=bob, user=bob)
    assert "no longer in this season" in page(login(bob).post(_link(bob), follow=True))
    Membership.objects.filter(club=season.league.club, user=carol).delete()
    assert "no longer in this season" in page(login(carol).post(_link(carol), follow=True))
    assert _seat(fixture, 0).user_id is None
