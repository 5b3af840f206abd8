"""The lobby: a form built from each game's option schema, seats of bots or invited players."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from engine import get_game
from games.forms import MatchCreateForm
from games.models import Mail, Match
from tests.games.conftest import login
from tests.games.factories import UserFactory, game_names

pytestmark = pytest.mark.django_db
GAMES = game_names()


def _defaults(game: str, players: int) -> dict[str, Any]:
    """What a browser posts for the untouched form."""
    form = MatchCreateForm(game=get_game(game))
    data: dict[str, Any] = {"players": players}
    for name, field in form.fields.items():
        initial = form[name].initial
        if name == "players" or initial is None:
            continue
        if isinstance(initial, bool):
            if initial:
                data[name] = "on"
        elif isinstance(initial, list):
            data[name] = initial
        else:
            data[name] = initial
    return data


@pytest.mark.parametrize("game", GAMES)
def test_it_creates_a_match_against_bots_from_the_default_form(game: str) -> None:
    user = UserFactory()
    client = login(user)
    page = client.get(reverse("games-create"), {"game": game})
    assert page.status_code == 200
    module = get_game(game)
    for entry in module.OPTIONS:
        assert f'name="opt_{entry["name"]}"' in page.content.decode()
    players = module.MIN_PLAYERS
    data = _defaults(game, players)
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


@pytest.mark.parametrize("game", GAMES)
def test_the_engine_validates_the_options_and_the_form_shows_why(game: str) -> None:
    module = get_game(game)
    client = login(UserFactory())
    data = _defaults(game, module.MAX_PLAYERS + 1)
    page = client.post(reverse("games-create") + f"?game={game}", data)
    assert page.status_code == 200 and page.context["form"].errors
    entry = next((e for e in module.OPTIONS if e["type"] == "int" and e.get("max") is not None), None)
    if entry is not None:
        data = _defaults(game, module.MIN_PLAYERS)
        data[f"opt_{entry['name']}"] = entry["max"] + 1
        page = client.post(reverse("games-create") + f"?game={game}", data)
        assert page.context["form"].errors
    json_entry = next((e for e in module.OPTIONS if e["type"] == "json"), None)
    if json_entry is not None:
        data = _defaults(game, module.MIN_PLAYERS)
        data[f"opt_{json_entry['name']}"] = "{not json"
        page = client.post(reverse("games-create") + f"?game={game}", data)
        assert "not valid JSON" in str(page.context["form"].errors)
    assert not Match.objects.exists()


def test_the_lobby_needs_a_login() -> None:
    response = Client().post(reverse("games-create"), {"players": 4})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Match.objects.exists()


def test_an_invitee_signs_up_and_lands_in_the_seat(django_capture_on_commit_callbacks) -> None:  # noqa: ANN001
    game = GAMES[0]
    module = get_game(game)
    creator = UserFactory()
    data = _defaults(game, module.MIN_PLAYERS)
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
    # Not logged in: allauth's login page, which comes back here afterwards.
    anonymous = Client().get(link)
    assert anonymous.status_code == 302 and f"next={link}" in anonymous["Location"].replace("%2F", "/")
    newcomer = UserFactory(email="newcomer@example.com")
    client = login(newcomer)
    assert client.get(link).status_code == 200
    assert client.post(link)["Location"] == match.get_absolute_url()
    match.refresh_from_db()
    seat.refresh_from_db()
    assert seat.user == newcomer and seat.joined and match.status == Match.Status.ACTIVE
    # The link is used up.
    again = login(UserFactory()).post(link, follow=True)
    assert "already been used" in str(list(again.context["messages"])[0])


def test_an_existing_user_invited_by_email_is_told_and_must_accept(django_capture_on_commit_callbacks) -> None:  # noqa: ANN001
    game = GAMES[0]
    module = get_game(game)
    friend = UserFactory()
    data = _defaults(game, module.MIN_PLAYERS)
    data.update({"seat_1_kind": "email", "seat_1_email": friend.email})
    for n in range(2, module.MIN_PLAYERS):
        data[f"seat_{n}_kind"] = "bot"
    with django_capture_on_commit_callbacks(execute=True):
        login(UserFactory()).post(reverse("games-create") + f"?game={game}", data)
    match = Match.objects.get()
    assert match.seats.get(number=1).user == friend
    assert Mail.objects.filter(user=friend, dedupe_key__startswith="invite:").exists()
    dashboard = login(friend).get(reverse("games-dashboard"))
    assert [s.match_id for s in dashboard.context["invitations"]] == [match.pk]
    # Someone else holding the link cannot take a seat meant for the friend.
    token = match.seats.get(number=1).invite_token
    page = login(UserFactory()).post(reverse("games-invite", args=[token]), follow=True)
    assert "another player" in str(list(page.context["messages"])[0])
    match.refresh_from_db()
    assert match.status == Match.Status.WAITING
