"""The table page and the dashboard cost the same number of queries however long the matches grow."""

from __future__ import annotations

import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from games.models import ChatMessage, Mail, Match, Seat
from games.services import chat_post
from tests.games.conftest import login
from tests.games.factories import UserFactory, game_names, make_match, play_engine_moves
from tests.games.queries import MOVE_QUERY_BUDGET, move_queries, writes

pytestmark = pytest.mark.django_db


def _count(client, url: str, **extra: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url, **extra).status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize("game", game_names())
def test_the_table_page_costs_the_same_queries_as_the_match_grows(game: str, django_assert_max_num_queries) -> None:
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


@pytest.mark.parametrize("watcher", [False, True], ids=["player", "watcher"])
def test_a_poll_that_finds_nothing_new_reads_one_narrow_row(watcher: bool) -> None:
    """Session, user, the match's marks: not the table's join of seats and players, no header count."""
    match = make_match(game_names()[0])
    seat = match.seats.select_related("user").first()
    client = login(UserFactory() if watcher else seat.user)
    play_engine_moves(match, 2)
    match.refresh_from_db()
    url = reverse("games-poll", args=[match.pk])
    client.get(url, {"v": match.version, "c": match.chat_mark})  # the presence update, at most once a minute
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url, {"v": match.version, "c": match.chat_mark}, HTTP_HX_REQUEST="true")
    assert response.status_code == 204
    sql = [q["sql"] for q in ctx.captured_queries]
    # A player: their seat joined to the match. A watcher: no seat found, then the match alone.
    assert len(sql) == (4 if watcher else 3), sql
    assert '"django_session"' in sql[0] and '"accounts_user"' in sql[1]
    assert all('"games_match"' in q and '"accounts_user"' not in q and '"state"' not in q for q in sql[2:])


def test_a_poll_without_a_version_renders_the_live_part_from_the_tables_read_alone() -> None:
    """Nothing to compare: no narrow read first, the table's read (with the header's count) and the render."""
    match = make_match(game_names()[0])
    seat = match.seats.select_related("user").first()
    client = login(seat.user)
    url = reverse("games-poll", args=[match.pk])
    client.get(url, HTTP_HX_REQUEST="true")  # the presence update, at most once a minute
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and 'id="live"' in response.content.decode()
    sql = [q["sql"] for q in ctx.captured_queries]
    assert len(sql) == 3 and '"accounts_user"' in sql[2] and '"games_seat"' in sql[2], sql


def test_the_header_count_comes_with_the_tables_read_for_a_player_at_the_table() -> None:
    """Session, user, the table's read (with the player's count of awaiting matches): no COUNT of its own."""
    game = game_names()[0]
    players = Match(game=game).engine.MIN_PLAYERS
    user = UserFactory(auto_forced_moves=False)
    # The player in each seat in turn: whoever acts first, the player is awaited somewhere.
    matches = [
        make_match(
            game, users=[UserFactory() for _ in range(n)] + [user] + [UserFactory() for _ in range(players - n - 1)]
        )
        for n in range(players)
    ]
    awaiting = Seat.objects.filter(user=user, awaiting=True).count()
    assert awaiting >= 1, "the setup needs the player awaited somewhere"
    client = login(user)
    url = matches[0].get_absolute_url()
    client.get(url)  # the presence update, at most once a minute
    with CaptureQueriesContext(connection) as ctx:
        page = client.get(url).content.decode()
    sql = [q["sql"] for q in ctx.captured_queries]
    assert len(sql) == 3 and not any(q.startswith("SELECT COUNT(") for q in sql), sql
    assert '"games_seat"' in sql[2] and "COUNT(" in sql[2]  # the count rides on the table's read
    badge = page.split('id="your-turn"', 1)[1].split("</a>", 1)[0]
    assert f'<span class="badge">{awaiting}</span>' in badge
    # A watcher's header is counted on its own, and right.
    watcher = UserFactory()
    make_match(game, users=[watcher, *[UserFactory() for _ in range(players - 1)]])
    mine = Seat.objects.filter(user=watcher, awaiting=True).count()
    seen = login(watcher).get(url).content.decode().split('id="your-turn"', 1)[1].split("</a>", 1)[0]
    assert (f'<span class="badge">{mine}</span>' in seen) if mine else ('class="badge"' not in seen)


# Session, user; the player's matches and the open matches to watch, with all their seats and players
# (one narrow read); the invitations to the player's addresses; the player's league fixtures. The header's
# "your turn" count comes from the matches read, not from a query of its own. Rows whose part is not in the
# page cache (a match that changed) cost one more read for all of them.
DASHBOARD_QUERIES = 5
DASHBOARD_QUERIES_CHANGED = DASHBOARD_QUERIES + 1


def _without_csrf(page: str) -> str:
    return re.sub(r'(csrfmiddlewaretoken" value=|X-CSRFToken": )"[^"]+"', "", page)


def _casual_matches(user: User, count: int, *, seed: int) -> None:
    """``count`` matches of the player against another player and bots, a few moves in, and one to watch each."""
    game = game_names()[0]
    players = Match(game=game).engine.MIN_PLAYERS
    for n in range(count):
        play_engine_moves(make_match(game, users=[user, UserFactory()], bots=players - 2), 3, seed=seed + n)
        make_match(game, users=[UserFactory()], bots=players - 1)


def test_the_dashboard_costs_five_queries_however_many_matches(django_assert_num_queries) -> None:
    from games.selectors import awaiting_count
    from games.services import SeatSpec, match_create
    from tests.games.factories import play_until_turn, quick_options
    from tests.leagues.factories import fixtures_of, make_season

    user = UserFactory(auto_forced_moves=False)
    fixture = fixtures_of(make_season(players=[user, *(UserFactory() for _ in range(3))], rounds=1))[0]
    game = game_names()[0]
    players = Match(game=game).engine.MIN_PLAYERS
    friend = UserFactory()
    bots = [SeatSpec(bot="random")] * (players - 2)
    invited = match_create(
        game=game,
        players=players,
        options=None,
        created_by=friend,
        seats=[SeatSpec(user=friend), SeatSpec(email=user.email), *bots],
    )
    finished = make_match(game, users=[user], bots=players - 1, options=quick_options(game))
    play_engine_moves(finished, 0, until_over=True)
    play_until_turn(make_match(game, users=[user], bots=players - 1), 0)
    make_match(game, users=[UserFactory()], bots=players - 1)  # one to watch
    client = login(user)
    url = reverse("games-dashboard")
    for casual, added in ((2, 0), (8, 6)):  # the player's matches besides the league fixture: 2, then 8
        _casual_matches(user, added, seed=casual)
        expected_badge = awaiting_count(user=user)
        assert expected_badge >= 1, "the setup needs a match awaiting the player"
        with django_assert_num_queries(DASHBOARD_QUERIES_CHANGED):
            fresh = client.get(url).content.decode()
        with django_assert_num_queries(DASHBOARD_QUERIES):
            page = client.get(url)
        text = page.content.decode()
        assert _without_csrf(text) == _without_csrf(fresh)  # the rows from the page cache are the rows rendered
        lists = page.context
        shown = len(lists["awaiting"]) + len(lists["active"]) + len(lists["finished"])
        assert shown == casual + 1, shown  # the casual ones and the league fixture's match
        assert [m.pk for m in lists["finished"]] == [finished.pk] and "won by " in text
        assert [s.match_id for s in lists["invitations"]] == [invited.pk]
        assert f"/m/{fixture.match_id}/" in text and "League matches" in text
        assert len(lists["watch"]) == 1 + added and all(text.count(f'href="/m/{m.pk}/"') == 1 for m in lists["watch"])
        assert lists["your_turn_count"] == expected_badge and f'<span class="badge">{expected_badge}</span>' in text


def test_the_header_counts_every_awaiting_match_when_the_dashboard_reads_only_the_newest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The dashboard's own count stands in for the header's only when it read all the player's matches."""
    from games import selectors
    from tests.games.factories import play_until_turn

    user = UserFactory(auto_forced_moves=False)
    game = game_names()[0]
    players = Match(game=game).engine.MIN_PLAYERS
    for _ in range(3):
        play_until_turn(make_match(game, users=[user], bots=players - 1), 0)
    monkeypatch.setattr(selectors, "DASHBOARD_MATCHES", 2)
    page = login(user).get(reverse("games-dashboard"))
    assert len(page.context["awaiting"]) == 2
    assert '<span class="badge">3</span>' in page.content.decode()


@pytest.mark.parametrize("game", game_names())
def test_an_htmx_move_answers_with_the_table_the_move_left_without_reading_it_again(game: str) -> None:
    """The live part is rendered from the rows the move locked and wrote: no second read of the match or seats."""
    players = Match(game=game).engine.MIN_PLAYERS
    users = [UserFactory(auto_forced_moves=False, notify=User.Notify.NEVER) for _ in range(players)]
    match = make_match(game, users=users)
    play_engine_moves(match, 3)
    match.refresh_from_db()
    number = match.engine.to_act(match.state)[0]
    mover = match.seats.select_related("user").get(number=number).user
    client = login(mover)
    client.get(match.get_absolute_url())  # the presence update, at most once a minute
    action = json.dumps(match.engine.legal_actions(match.state, number)[0])
    with CaptureQueriesContext(connection) as ctx:
        response = client.post(
            reverse("games-play", args=[match.pk]), {"action": action, "version": match.version}, HTTP_HX_REQUEST="true"
        )
    assert response.status_code == 200 and 'id="live"' in response.content.decode()
    match.refresh_from_db()
    assert match.version > 0 and f"?v={match.version}&amp;" in response.content.decode()  # the table after the move
    sql = [q["sql"] for q in ctx.captured_queries]
    reads = [q for q in sql if q.startswith("SELECT") and '"games_seat"' in q.split("WHERE")[0]]
    # The locked read of the move; the header's count of matches awaiting the player is the only other seat query.
    assert len(reads) == 2, sql
    assert ("FOR UPDATE" in reads[0]) == connection.features.has_select_for_update
    assert sum('"games_match"' in q.split("WHERE")[0] and q.startswith("SELECT") for q in sql) == 1, sql


@pytest.mark.parametrize("game", game_names())
def test_a_move_costs_the_same_few_queries_however_long_the_match(game: str) -> None:
    players = Match(game=game).engine.MIN_PLAYERS
    for attempt in range(5):  # a short game may end within the moves played here: deal again, a few times
        users = [UserFactory(auto_forced_moves=False, notify=User.Notify.NEVER) for _ in range(players)]
        match = make_match(game, users=users)
        first = move_queries(match)
        play_engine_moves(match, 30, seed=attempt)
        if not match.is_over:
            break
    assert not match.is_over, "the setup needs a match still in play"
    later = move_queries(match)
    for queries in (first, later):
        # The test's savepoint pair, the match and its seats locked in one read, the move, the snapshot, and only
        # the seats whose row changed (the mover, the next to act): a fixed budget, whatever the length of the match.
        assert len(queries) <= MOVE_QUERY_BUDGET, queries
        assert writes(queries, "INSERT", "games_move") == 1 and writes(queries, "UPDATE", "games_match") == 1
        assert writes(queries, "UPDATE", "games_seat") <= 2
        assert sum(q.startswith("SELECT") for q in queries) == 1, queries
        assert not any('"games_mail"' in q for q in queries)  # nobody here wants turn mail


def test_a_move_by_a_mail_wanting_player_adds_one_outbox_insert_and_nothing_else() -> None:
    """The turn mail is rendered from templates inside the move: from what the move read, with no query."""
    game = game_names()[0]
    players = Match(game=game).engine.MIN_PLAYERS
    match = make_match(game, users=[UserFactory(auto_forced_moves=False) for _ in range(players)])
    queries = move_queries(match)
    match.refresh_from_db()
    awaited = match.seats.filter(awaiting=True).count()
    assert awaited, "the setup needs a seat to mail"
    assert writes(queries, "INSERT", "games_mail") == 1
    assert len(queries) <= MOVE_QUERY_BUDGET + 1, queries
    assert Mail.objects.filter(dedupe_key__startswith=f"turn:{match.pk}:").count() == 1 + awaited


def test_bookkeeping_that_changes_nothing_writes_no_seat_row() -> None:
    from games.services import match_bookkeeping

    match = make_match(game_names()[0])
    seats = list(match.seats.select_related("user"))
    with CaptureQueriesContext(connection) as ctx:
        match_bookkeeping(match=match, seats=seats, moved=set())  # nothing happened since the match started
    assert not [q["sql"] for q in ctx.captured_queries if '"games_seat"' in q["sql"]]


def test_the_table_reads_a_match_with_its_seats_and_players_in_one_query(django_assert_num_queries) -> None:
    from games.selectors import match_and_seats

    game = game_names()[0]
    players = Match(game=game).engine.MIN_PLAYERS
    match = make_match(game, users=[UserFactory()], bots=players - 1)
    play_engine_moves(match, 5)
    chat_post(match=match, user=match.seats.get(number=0).user, text="hello")
    with django_assert_num_queries(1):
        read, seats = match_and_seats(match.pk)
        assert read.recent_chat[-1]["text"] == "hello" and seats[0].user.name
        assert [s.number for s in seats] == list(range(players)) and all(s.match is read for s in seats)
    assert match_and_seats(10**9) is None


def test_a_move_reads_the_match_and_its_seats_locked_in_one_query_and_no_more() -> None:
    """One read locking the match, then its seats (see ``match_locked``), the players' private fields left out."""
    from django.db import transaction

    from games.selectors import match_locked

    game = game_names()[0]
    players = Match(game=game).engine.MIN_PLAYERS
    match = make_match(game, users=[UserFactory() for _ in range(players)])
    with transaction.atomic(), CaptureQueriesContext(connection) as ctx:
        read, seats = match_locked(match.pk)
        # What the move path uses comes with that one read.
        assert read.state == Match.objects.get(pk=match.pk).state
        used = [
            (s.number, s.awaiting, s.notified_at, s.deadline, s.is_bot, s.user.email, s.user.name, s.user.notify)
            for s in seats
            if s.user.auto_forced_moves is not None
        ]
        assert len(used) == players
    selects = [q["sql"] for q in ctx.captured_queries if q["sql"].startswith("SELECT")]
    assert len(selects) == 2  # the read and the check above
    assert '"games_match"' in selects[0] and '"games_seat"' in selects[0] and '"accounts_user"' in selects[0]
    # The match first, then the seats: the order every other path that locks both takes them in.
    lock = ' FOR UPDATE OF "games_match", "games_seat"' if connection.features.has_select_for_update_of else ""
    assert selects[0].endswith(lock) and selects[0].count("FOR UPDATE") == (1 if lock else 0)
    assert '"password"' not in selects[0] and '"calendar_token"' not in selects[0]
    assert [s.number for s in seats] == list(range(players)) and all(s.match is read for s in seats)
    with transaction.atomic():
        assert match_locked(10**9) is None
