"""The page cache (config/cache.py): parts of the table and the dashboard kept under keys that name what they show.

A cached part never shows another seat's cards or an older table, a change to what a part shows makes a new
key, and a page renders without the cache when Redis does not answer.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from django.core.cache import caches
from django.urls import reverse

from config.cache import PageCache
from games.models import Match, Seat
from games.presenters import presenter_for
from tests.games.conftest import login
from tests.games.factories import UserFactory, game_names, make_match, play_engine_moves
from tests.games.leaks import card_codes, codes_found

pytestmark = pytest.mark.django_db


def _parts() -> int:
    return len(caches["template_fragments"]._cache)  # type: ignore[attr-defined]  # locmem in tests


@pytest.mark.parametrize("game", game_names())
def test_each_seat_and_a_spectator_get_their_own_parts_and_no_other_seats_cards(game: str) -> None:
    players = Match(game=game).engine.MIN_PLAYERS
    people = [UserFactory() for _ in range(players)]
    match = make_match(game, users=people)
    play_engine_moves(match, 2, seed=3)
    match.refresh_from_db()
    universe = card_codes(game, match.state)
    readers = [*((login(p), n) for n, p in enumerate(people)), (login(UserFactory()), None)]
    for _ in range(2):  # the second round is answered from the page cache
        for client, seat in readers:
            page = client.get(match.get_absolute_url()).content.decode()
            view = match.engine.view(match.state, seat)
            allowed = card_codes(game, view) | (
                card_codes(game, match.engine.legal_actions(match.state, seat)) if seat is not None else set()
            )
            assert not codes_found(universe - allowed, page), (seat, codes_found(universe - allowed, page))
    assert _parts() >= 2 * len(readers) - 1  # a part per seat at least, none shared between seats


def _cache_calls(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Counts the page cache's reads and writes from here on (the calls a page makes: locmem's ``get_many``
    calls its own ``get``, where Redis's is one round trip)."""
    cache, calls, inside = caches["template_fragments"], Counter[str](), []

    def counting(name: str, call: Any) -> Any:
        def counted(*args: Any, **kwargs: Any) -> Any:
            if not inside:
                calls[name] += 1
            inside.append(name)
            try:
                return call(*args, **kwargs)
            finally:
                inside.pop()

        return counted

    for name in ("get", "get_many", "set", "set_many"):
        monkeypatch.setattr(cache, name, counting(name, getattr(cache, name)))
    return calls


def _parts_markup(page: str) -> str:
    """The table's cached parts of a page (seats to footer), without the per-request CSRF tokens."""
    return re.sub(r'value="[A-Za-z0-9]{64}"', "", page[page.index('class="seats"') : page.index("</footer>")])


@pytest.mark.parametrize("game", game_names())
def test_a_table_read_again_comes_from_one_cache_read_and_skips_the_presenter(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    players = Match(game=game).engine.MIN_PLAYERS
    user = UserFactory(auto_forced_moves=False)
    match = make_match(game, users=[user], bots=players - 1)
    client, calls = login(user), _cache_calls(monkeypatch)
    first = client.get(match.get_absolute_url()).content.decode()
    assert calls == {"get_many": 1, "set_many": 1}  # both parts read at once, and kept at once

    def unused(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the presenter was asked for what the kept parts already show")

    monkeypatch.setattr(type(presenter_for(game)), "table_context", unused)
    second = client.get(match.get_absolute_url()).content.decode()
    assert calls == {"get_many": 2, "set_many": 1}
    assert _parts_markup(second) == _parts_markup(first)
    # A spectator's parts are their own: read, missed, rendered (here the presenter is needed, and refuses).
    with pytest.raises(AssertionError, match="presenter was asked"):
        login(UserFactory()).get(match.get_absolute_url())


def test_a_move_a_name_or_a_seat_change_makes_a_new_key_and_the_page_shows_it() -> None:
    game = game_names()[0]
    players = Match(game=game).engine.MIN_PLAYERS
    people = [UserFactory(display_name=f"Player{n}") for n in range(players)]
    match = make_match(game, users=people)
    watcher = login(UserFactory())
    assert "Player0" in watcher.get(match.get_absolute_url()).content.decode()
    people[0].display_name = "Renamed"
    people[0].save(update_fields=["display_name"])
    page = watcher.get(match.get_absolute_url()).content.decode()
    assert "Renamed" in page and "Player0" not in page
    Seat.objects.filter(match=match, number=players - 1).update(user=None, bot_level="basic")
    assert f"Bot {players}" in watcher.get(match.get_absolute_url()).content.decode()
    before = match.version
    play_engine_moves(match, 1, seed=1)
    match.refresh_from_db()
    assert match.version > before
    assert f"?v={match.version}&amp;" in watcher.get(match.get_absolute_url()).content.decode()


def test_the_dashboard_row_follows_a_rename_and_a_finished_match() -> None:
    game = game_names()[0]
    players = Match(game=game).engine.MIN_PLAYERS
    user, friend = UserFactory(), UserFactory(display_name="Friend")
    match = make_match(game, users=[user, friend], bots=players - 2)
    client = login(user)
    assert "Friend" in client.get(reverse("games-dashboard")).content.decode()
    friend.display_name = "Pal"
    friend.save(update_fields=["display_name"])
    text = client.get(reverse("games-dashboard")).content.decode()
    assert "Pal" in text and "Friend" not in text
    play_engine_moves(match, 0, until_over=True)
    assert "won by " in client.get(reverse("games-dashboard")).content.decode()


def test_the_move_forms_part_is_kept_per_session_so_a_token_never_crosses_sessions() -> None:
    game = game_names()[0]
    players = Match(game=game).engine.MIN_PLAYERS
    user = UserFactory(auto_forced_moves=False)
    match = make_match(game, users=[user], bots=players - 1)
    laptop, phone = login(user), login(user)
    tokens = set()
    for client in (laptop, phone):
        page = client.get(match.get_absolute_url()).content.decode()
        tokens.add(page.split('name="csrfmiddlewaretoken" value="', 1)[1].split('"', 1)[0])
        # The token in the page is one the session's secret accepts: a move posts without JavaScript.
        assert client.cookies["csrftoken"].value
    assert len(tokens) == 2


def test_a_page_cache_that_does_not_answer_is_a_miss_and_the_page_renders(settings) -> None:
    cache = PageCache("redis://127.0.0.1:1/0", {"OPTIONS": {"socket_connect_timeout": 0.1, "socket_timeout": 0.1}})
    assert cache.get("k") is None and cache.get_many(["k"]) == {}
    cache.set("k", "v")  # no error
    assert cache.set_many({"k": "v"}) == ["k"]
