"""The lobby: a form built from each game's option schema, seats of bots or invited players."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.test import Client
from django.urls import reverse

from engine import get_game
from games.models import Mail, Match
from tests.games.conftest import login
from tests.games.factories import UserFactory, game_names, make_match
from tests.games.lobby import untouched_form

pytestmark = pytest.mark.django_db
GAMES = game_names()


@pytest.mark.parametrize("game", GAMES)
def test_it_creates_a_match_against_bots_from_the_default_form(game: str) -> None:
    user = UserFactory()
    client = login(user)
    page = client.get(reverse("games-create"), {"game": game})
    assert page.status_code == 200
    module = get_game(game)
    for entry in module.OPTIONS:  # a field of its own, or the cells of its tables (opt_<name>__<cell>)
        assert f'name="opt_{entry["name"]}' in page.content.decode()
    players = module.MIN_PLAYERS
    data = untouched_form(game, players)
    for n in range(1, players):
        data[f"seat_{n}_kind"], data[f"seat_{n}_level"] = "bot", "random"
    response = client.post(reverse("games-create") + f"?game={game}", data)
    assert response.status_code == 302, response.context["form"].errors if response.context else response
    match = Match.objects.get()
    assert response["Location"] == match.get_absolute_url()
    assert match.game == game and match.players == players and match.status == Match.Status.ACTIVE
    assert match.options == module.validate_options(players, {})
    assert match.seats.get(number=0).user == user
    assert list(match.seats.exclude(number=0).values_list("bot_level", flat=True)) == ["random"] * (players - 1)


# (game, option) pairs, each case with its own expectation rather than a check skipped for games without one.
# The JSON options are tables of numbers now: tests/games/test_option_widgets.py checks them.
BOUNDED_INT_OPTIONS = [
    (game, e["name"], e["max"])
    for game in GAMES
    for e in get_game(game).OPTIONS
    if e["type"] == "int" and e.get("max") is not None
]
JSON_OPTIONS = [(game, e["name"]) for game in GAMES for e in get_game(game).OPTIONS if e["type"] == "json"]


def test_some_game_has_each_kind_of_option_the_form_checks() -> None:
    assert BOUNDED_INT_OPTIONS and JSON_OPTIONS, "the option checks below would be empty"


@pytest.mark.parametrize("game", GAMES)
def test_the_engine_validates_the_options_and_the_form_shows_why(game: str) -> None:
    module = get_game(game)
    client = login(UserFactory())
    data = untouched_form(game, module.MAX_PLAYERS + 1)
    page = client.post(reverse("games-create") + f"?game={game}", data)
    assert page.status_code == 200 and page.context["form"].errors
    assert not Match.objects.exists()


@pytest.mark.parametrize(("game", "name", "maximum"), BOUNDED_INT_OPTIONS)
def test_the_form_refuses_an_option_above_its_maximum(game: str, name: str, maximum: int) -> None:
    data = untouched_form(game, get_game(game).MIN_PLAYERS)
    data[f"opt_{name}"] = maximum + 1
    page = login(UserFactory()).post(reverse("games-create") + f"?game={game}", data)
    assert page.status_code == 200 and page.context["form"].errors
    assert not Match.objects.exists()


def test_the_lobby_needs_a_login() -> None:
    response = Client().post(reverse("games-create"), {"players": 4})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Match.objects.exists()


def test_an_invitee_who_is_not_logged_in_sees_who_invites_them_to_what(django_capture_on_commit_callbacks) -> None:
    game = GAMES[0]
    module = get_game(game)
    creator = UserFactory(display_name="Dora")
    data = untouched_form(game, module.MIN_PLAYERS)
    data.update({"seat_1_kind": "email", "seat_1_email": "newcomer@example.com"})
    for n in range(2, module.MIN_PLAYERS):
        data[f"seat_{n}_kind"] = "bot"
    with django_capture_on_commit_callbacks(execute=True):
        response = login(creator).post(reverse("games-create") + f"?game={game}", data)
    match = Match.objects.get()
    assert response.status_code == 302 and match.status == Match.Status.WAITING
    invite = Mail.objects.get(recipient="newcomer@example.com")
    seat = match.seats.get(number=1)
    link = reverse("games-invite", args=[seat.invite_token])
    assert link in invite.body
    page = Client().get(link)
    text = page.content.decode()
    assert page.status_code == 200
    assert "“Dora”" in text and f"seat 2 of a {module.MIN_PLAYERS}-player match of {module.TITLE}" in text
    assert "email=newcomer%40example.com" in text  # the sign-up link fills in the address
    newcomer = UserFactory(email="newcomer@example.com")
    client = login(newcomer)
    assert client.get(link).status_code == 200
    assert client.post(link)["Location"] == match.get_absolute_url()
    match.refresh_from_db()
    seat.refresh_from_db()
    assert seat.user == newcomer and seat.joined and match.status == Match.Status.ACTIVE
    # The link is used up.
    again = login(UserFactory()).post(link, follow=True)
    assert "no longer valid" in str(list(again.context["messages"])[0])


def test_an_invitation_shows_on_the_dashboard_of_the_verified_address(django_capture_on_commit_callbacks) -> None:
    game = GAMES[0]
    module = get_game(game)
    friend = UserFactory()  # the factory confirms the account's address
    assert EmailAddress.objects.filter(user=friend, email=friend.email, verified=True).exists()
    unverified = UserFactory()
    EmailAddress.objects.create(user=unverified, email="second@example.com", verified=False, primary=False)
    data = untouched_form(game, module.MIN_PLAYERS)
    data.update({"seat_1_kind": "email", "seat_1_email": friend.email.upper()})
    data.update({"seat_2_kind": "email", "seat_2_email": "second@example.com"})
    for n in range(3, module.MIN_PLAYERS):
        data[f"seat_{n}_kind"] = "bot"
    with django_capture_on_commit_callbacks(execute=True):
        login(UserFactory()).post(reverse("games-create") + f"?game={game}", data)
    match = Match.objects.get()
    assert match.seats.get(number=1).user is None  # not linked: the address is what is invited
    dashboard = login(friend).get(reverse("games-dashboard"))
    assert [s.match_id for s in dashboard.context["invitations"]] == [match.pk]
    assert reverse("games-invite", args=[match.seats.get(number=1).invite_token]) in dashboard.content.decode()
    # An address not confirmed is no proof of owning it.
    assert login(unverified).get(reverse("games-dashboard")).context["invitations"] == []


# --- the landing page, times ---------------------------------------------------------------------


def test_the_landing_page_tells_a_newcomer_what_the_site_is() -> None:
    text = Client().get(reverse("games-dashboard")).content.decode()
    for game in GAMES:
        assert reverse("games-rules", args=[game]) in text
    assert "img/table-karnoffel" in text and 'alt="A Karnoffel table' in text
    assert "How correspondence play works" in text
    assert reverse("account_signup") in text


def test_times_are_absolute_in_the_readers_zone_with_how_long_ago() -> None:
    from datetime import timedelta

    from django.template import Context, Template
    from django.utils import timezone

    value = timezone.now() - timedelta(hours=3)
    with timezone.override("Asia/Tokyo"):
        text = Template("{% load times %}{% when value %}").render(Context({"value": value}))
    local = timezone.localtime(value, timezone=__import__("zoneinfo").ZoneInfo("Asia/Tokyo"))
    assert f'datetime="{value.isoformat()}"' in text
    assert local.strftime("%H:%M") in text and "JST" in text
    assert "3\xa0hours ago" in text
    old = timezone.now() - timedelta(days=400)
    assert "ago" not in Template("{% load times %}{% when value %}").render(Context({"value": old}))


def test_the_dashboard_rows_show_times_in_the_players_zone() -> None:
    from datetime import timedelta

    from django.utils import timezone

    user = UserFactory(time_zone="America/New_York")
    make_match(GAMES[0], users=[user], bots=get_game(GAMES[0]).MIN_PLAYERS - 1)
    text = login(user).get(reverse("games-dashboard")).content.decode()
    assert "<time datetime=" in text and ("EST" in text or "EDT" in text) and "(just now)" in text
    Match.objects.update(updated_at=timezone.now() - timedelta(hours=3))
    text = login(user).get(reverse("games-dashboard")).content.decode()
    assert "(3\xa0hours ago)" in text


def test_the_time_zone_list_is_region_and_city_names() -> None:
    from accounts.timezones import time_zone_choices, time_zone_names

    names = time_zone_names()
    assert "Europe/Berlin" in names and "America/Argentina/Buenos_Aires" in names and names[0] == "UTC"
    for odd in ("Factory", "localtime", "posixrules", "Etc/GMT+3", "US/Pacific", "EST5EDT"):
        assert odd not in names
    assert list(names[1:]) == sorted(names[1:])
    assert ("America/New_York", "America/New York") in time_zone_choices()
