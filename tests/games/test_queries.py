"""The table page and the dashboard cost the same number of queries however long the matches grow."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import ChatMessage, Match
from games.services import chat_post
from tests.games.conftest import login
from tests.games.factories import UserFactory, game_names, make_match, play_engine_moves

pytestmark = pytest.mark.django_db


def _count(client, url: str, **extra: str) -> int:  # noqa: ANN001
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url, **extra).status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize("game", game_names())
def test_the_table_page_costs_the_same_queries_as_the_match_grows(game: str, django_assert_max_num_queries) -> None:  # noqa: ANN001
    match = make_match(game)
    seat = match.seats.select_related("user").first()
    client = login(seat.user)
    url = match.get_absolute_url()
    play_engine_moves(match, 2)
    chat_post(match=match, user=seat.user, text="hello")
    short = _count(client, url)
    play_engine_moves(match, 60)
    for n in range(40):
        ChatMessage.objects.create(match=match, user=seat.user, text=f"message {n}")
    with django_assert_max_num_queries(short):
        client.get(url)
    with django_assert_max_num_queries(short):
        client.get(reverse("games-poll", args=[match.pk]), {"v": 0}, HTTP_HX_REQUEST="true")
    watcher = login(UserFactory())
    with django_assert_max_num_queries(short):
        watcher.get(url)


def test_the_dashboard_costs_the_same_queries_with_more_matches(django_assert_max_num_queries) -> None:  # noqa: ANN001
    game = game_names()[0]
    players = Match(game=game).engine.MIN_PLAYERS
    user = UserFactory()
    client = login(user)
    make_match(game, users=[user], bots=players - 1)
    make_match(game, users=[UserFactory()], bots=players - 1)  # one to watch
    few = _count(client, reverse("games-dashboard"))
    for _ in range(6):
        match = make_match(game, users=[user, UserFactory()], bots=players - 2)
        play_engine_moves(match, 10)
    for _ in range(3):
        make_match(game, users=[UserFactory()], bots=players - 1)
    with django_assert_max_num_queries(few):
        page = client.get(reverse("games-dashboard"))
    assert len(page.context["awaiting"]) + len(page.context["active"]) + len(page.context["finished"]) == 7
