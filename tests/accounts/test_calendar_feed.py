"""The private calendar feed: a secret address, no login, the player's running deadlines as iCalendar events."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import icalendar
import pytest
from django.test import Client

from accounts.models import User
from games.models import Match, Seat
from tests.games.factories import UserFactory, make_match, play_until_turn

pytestmark = pytest.mark.django_db

DEADLINE = datetime(2026, 12, 3, 18, 30, tzinfo=UTC)


def feed_url(user: User) -> str:
    return f"/me/calendar/{user.pk}-{user.calendar_token}.ics"


def events(response) -> list[icalendar.Event]:
    calendar = icalendar.Calendar.from_ical(response.content)
    return list(calendar.walk("VEVENT"))


def awaited(match: Match) -> Seat:
    seat = Seat.objects.select_related("user").filter(match=match, awaiting=True).first()
    assert seat is not None and seat.user is not None
    return seat


def with_deadline(seat: Seat, when: datetime = DEADLINE) -> Seat:
    Seat.objects.filter(pk=seat.pk).update(deadline=when)
    seat.deadline = when
    return seat


def test_it_lists_the_players_deadlines_for_a_calendar_app(settings) -> None:
    users = [UserFactory() for _ in range(4)]
    first, second = make_match("rentz", users=users), make_match("rentz", users=users)
    seat = with_deadline(awaited(first))
    # The same player awaited at the second table too, with an earlier deadline: listed first.
    Seat.objects.filter(match=second, user=seat.user).update(awaiting=True, deadline=DEADLINE - timedelta(hours=5))
    assert seat.user is not None

    response = Client().get(feed_url(seat.user))

    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    found = events(response)
    assert [str(e["SUMMARY"]) for e in found] == [f"Your move at Rentz #{second.pk}", f"Your move at Rentz #{first.pk}"]
    assert [e.decoded("DTSTART") for e in found] == [DEADLINE - timedelta(hours=5), DEADLINE]
    assert [str(e["URL"]) for e in found] == [f"{settings.SITE_URL}/m/{m.pk}/" for m in (second, first)]
    assert len({str(e["UID"]) for e in found}) == 2


def test_it_leaves_out_other_players_seats_without_a_clock_and_finished_matches() -> None:
    match = make_match("rentz", humans=4)
    mine = awaited(match)
    user = mine.user
    assert user is not None
    # Another player's deadline at the same table is theirs, not this player's.
    other = Seat.objects.filter(match=match).exclude(pk=mine.pk).first()
    assert other is not None
    Seat.objects.filter(pk=other.pk).update(awaiting=True, deadline=DEADLINE)
    assert events(Client().get(feed_url(user))) == []  # the player's own seat has no deadline
    with_deadline(mine)
    assert len(events(Client().get(feed_url(user)))) == 1
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    assert events(Client().get(feed_url(user))) == []


def test_it_keeps_an_events_uid_for_the_turn_and_changes_it_for_the_next() -> None:
    match = make_match("rentz", humans=4)
    seat = with_deadline(awaited(match))
    assert seat.user is not None
    uid = str(events(Client().get(feed_url(seat.user)))[0]["UID"])
    # The deadline moves (a vacation, a day of auto vacation): the same event, moved.
    with_deadline(seat, DEADLINE + timedelta(days=2))
    moved = events(Client().get(feed_url(seat.user)))[0]
    assert str(moved["UID"]) == uid and moved.decoded("DTSTART") == DEADLINE + timedelta(days=2)
    # The seat plays, and its next turn is another event.
    play_until_turn(match, seat.number + 1 if seat.number < 3 else 0)
    play_until_turn(match, seat.number)
    with_deadline(seat)
    assert str(events(Client().get(feed_url(seat.user)))[0]["UID"]) != uid


@pytest.mark.parametrize(
    "address",
    [
        "/me/calendar/{pk}-{token}x.ics",
        "/me/calendar/{pk}-{short}.ics",
        "/me/calendar/{pk}-.ics",
        "/me/calendar/{pk}.ics",
        "/me/calendar/{token}.ics",
        "/me/calendar/{other}-{token}.ics",
        "/me/calendar/99999999999999999999-{token}.ics",
        "/me/calendar/%C2%B2-{token}.ics",
    ],
)
def test_it_answers_a_wrong_address_with_not_found(client: Client, address: str) -> None:
    user, other = UserFactory(), UserFactory()
    url = address.format(pk=user.pk, token=user.calendar_token, short=user.calendar_token[:-1], other=other.pk)
    assert client.get(url).status_code == 404


def test_it_serves_no_feed_for_a_deactivated_account(client: Client) -> None:
    user = UserFactory()
    User.objects.filter(pk=user.pk).update(is_active=False)
    assert client.get(feed_url(user)).status_code == 404


def test_a_new_address_replaces_the_old_one(client: Client) -> None:
    user = UserFactory()
    old = feed_url(user)
    assert client.get(old).status_code == 200
    client.force_login(user)
    page = client.get("/me/").content.decode()
    assert f"http://testserver{old}" in page

    response = client.post("/me/calendar/reset/", follow=True)

    assert "Your calendar has a new address; the old one no longer works." in response.content.decode()
    user.refresh_from_db()
    assert feed_url(user) != old
    assert f"http://testserver{feed_url(user)}" in response.content.decode()
    assert client.get(old).status_code == 404
    assert Client().get(feed_url(user)).status_code == 200


def test_only_the_signed_in_player_can_reset_their_address_and_only_by_post(client: Client) -> None:
    user = UserFactory()
    token = user.calendar_token
    assert client.post("/me/calendar/reset/").status_code == 302  # to the login page
    client.force_login(user)
    assert client.get("/me/calendar/reset/").status_code == 405
    user.refresh_from_db()
    assert user.calendar_token == token
