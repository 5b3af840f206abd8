"""The profile page stores a player's name, time zone and notification choices."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory
from django.utils import timezone

from accounts.middleware import TimezoneMiddleware
from accounts.models import User
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db

GOOD = {"display_name": "  Queen of Clubs ", "time_zone": "Europe/Vienna", "notify": "daily", "auto_forced_moves": ""}


def test_it_sends_anonymous_visitors_to_log_in(client: Client) -> None:
    response = client.get("/me/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/?next=/me/")


def test_it_shows_the_players_settings(client: Client) -> None:
    user = UserFactory(display_name="Hattie", time_zone="Asia/Tokyo")
    client.force_login(user)
    page = client.get("/me/").content.decode()
    assert 'value="Hattie"' in page
    assert '<option value="Asia/Tokyo" selected>' in page
    assert user.email in page


def test_it_saves_the_profile(client: Client) -> None:
    user = UserFactory()
    client.force_login(user)
    response = client.post("/me/", GOOD, follow=True)
    assert response.redirect_chain == [("/me/", 302)]
    assert "Your profile is saved." in response.content.decode()
    user.refresh_from_db()
    assert (user.display_name, user.time_zone, user.notify, user.auto_forced_moves) == (
        "Queen of Clubs",
        "Europe/Vienna",
        User.Notify.DAILY,
        False,
    )
    assert user.name == "Queen of Clubs"


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("time_zone", "Mars/Olympus_Mons", "Select a valid choice"),
        ("notify", "hourly", "Select a valid choice"),
        ("display_name", "x" * 41, "at most 40 characters"),
    ],
)
def test_it_refuses_bad_input_and_changes_nothing(client: Client, field: str, value: str, message: str) -> None:
    user = UserFactory(display_name="Ivo", time_zone="UTC", notify=User.Notify.EACH_TURN)
    client.force_login(user)
    response = client.post("/me/", {**GOOD, field: value})
    assert response.status_code == 200
    assert message in response.content.decode()
    user.refresh_from_db()
    assert (user.display_name, user.time_zone, user.notify) == ("Ivo", "UTC", User.Notify.EACH_TURN)


def test_it_only_ever_edits_the_signed_in_player(client: Client) -> None:
    me, other = UserFactory(), UserFactory(display_name="Untouched")
    client.force_login(me)
    client.post("/me/", {**GOOD, "email": other.email, "id": other.pk})
    other.refresh_from_db()
    me.refresh_from_db()
    assert other.display_name == "Untouched"
    assert me.display_name == "Queen of Clubs"


@pytest.mark.parametrize(
    "zone, expected", [("America/New_York", "America/New_York"), ("Not/A_Zone", "UTC"), (None, "UTC")]
)
def test_it_shows_times_in_the_players_time_zone(rf: RequestFactory, zone: str | None, expected: str) -> None:
    request = rf.get("/")
    request.user = AnonymousUser() if zone is None else User(email="z@example.com", time_zone=zone)
    seen: list[str] = []

    def view(request: HttpRequest) -> HttpResponse:
        seen.append(timezone.get_current_timezone_name())
        return HttpResponse()

    timezone.activate("Asia/Kolkata")  # a zone left over from an earlier request must not leak into this one
    try:
        TimezoneMiddleware(view)(request)
    finally:
        timezone.deactivate()
    assert seen == [expected]


def test_it_offers_the_usual_region_city_time_zones() -> None:
    from accounts.forms import ProfileForm
    from tests.accounts.factories import UserFactory

    choices = dict(ProfileForm(instance=UserFactory.build(time_zone="UTC")).fields["time_zone"].choices)
    assert "Europe/Berlin" in choices and "UTC" in choices
    assert not {"Factory", "localtime", "posixrules", "Etc/GMT+3", "US/Pacific"} & set(choices)


def test_the_profile_page_with_every_section_costs_six_queries(client: Client, django_assert_max_num_queries) -> None:
    """Session, player, the header's turn count, the browsers for push, the league ratings (two): the page's sections
    come from their apps' template tags, and none of them reads more than it did in the view."""
    client.force_login(UserFactory())
    client.get("/me/")
    with django_assert_max_num_queries(6):
        page = client.get("/me/").content.decode()
    assert 'id="vacation"' in page and 'id="calendar"' in page and 'id="notices"' in page
    with django_assert_max_num_queries(6):
        refused = client.post("/me/vacation/", {"days": "0"}).content.decode()
    assert "A vacation lasts at least 1 day." in refused and 'id="profile-form"' in refused
