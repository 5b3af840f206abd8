"""The table page and the dashboard cost the same number of queries however long the matches grow."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from games.models import ChatMessage, Mail, Match
from games.services import chat_post, move_submit
from tests.games.conftest import login
from tests.games.factories import UserFactory, game_names, make_match, play_engine_moves

pytestmark = pytest.mark.django_db
MOVE_QUERY_BUDGET = 8


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


def _move_queries(match: Match) -> list[str]:
    """The SQL of one move by the first seat to act, through the service the play view calls."""
    match.refresh_from_db()
    seat = match.seats.select_related("user").get(number=match.engine.to_act(match.state)[0])
    action = match.engine.legal_actions(match.state, seat.number)[0]
    with CaptureQueriesContext(connection) as ctx:
        move_submit(match=match, user=seat.user, seat=seat.number, action=action, version=match.version)
    return [q["sql"] for q in ctx.captured_queries]


def _writes(queries: list[str], verb: str, table: str) -> int:
    return sum(q.startswith(verb) and f'"{table}"' in q.split("SET")[0].split("(")[0] for q in queries)


@pytest.mark.parametrize("game", game_names())
def test_a_move_costs_the_same_few_queries_however_long_the_match(game: str) -> None:
    players = Match(game=game).engine.MIN_PLAYERS
    for attempt in range(5):  # a short game may end within the moves played here: deal again, a few times
        users = [UserFactory(auto_forced_moves=False, notify=User.Notify.NEVER) for _ in range(players)]
        match = make_match(game, users=users)
        first = _move_queries(match)
        play_engine_moves(match, 30, seed=attempt)
        if not match.is_over:
            break
    assert not match.is_over, "the setup needs a match still in play"
    later = _move_queries(match)
    for queries in (first, later):
        # The test's savepoint pair, the locked match, its seats, the move, the snapshot, and only the seats
        # whose row changed (the mover, the next to act): a fixed budget, whatever the length of the match.
        assert len(queries) <= MOVE_QUERY_BUDGET, queries
        assert _writes(queries, "INSERT", "games_move") == 1 and _writes(queries, "UPDATE", "games_match") == 1
        assert _writes(queries, "UPDATE", "games_seat") <= 2
        assert sum(q.startswith("SELECT") for q in queries) == 2, queries
        assert not any('"games_mail"' in q for q in queries)  # nobody here wants turn mail


def test_a_move_by_a_mail_wanting_player_adds_one_outbox_insert_and_nothing_else() -> None:
    """The turn mail is rendered from templates inside the move: from what the move read, with no query."""
    game = game_names()[0]
    players = Match(game=game).engine.MIN_PLAYERS
    match = make_match(game, users=[UserFactory(auto_forced_moves=False) for _ in range(players)])
    queries = _move_queries(match)
    match.refresh_from_db()
    awaited = match.seats.filter(awaiting=True).count()
    assert awaited, "the setup needs a seat to mail"
    assert _writes(queries, "INSERT", "games_mail") == 1
    assert len(queries) <= MOVE_QUERY_BUDGET + 1, queries
    assert Mail.objects.filter(dedupe_key__startswith=f"turn:{match.pk}:").count() == 1 + awaited


def test_bookkeeping_that_changes_nothing_writes_no_seat_row() -> None:
    from games.services import _after_change

    match = make_match(game_names()[0])
    seats = list(match.seats.select_related("user"))
    with CaptureQueriesContext(connection) as ctx:
        _after_change(match, seats, moved=set())  # nothing happened since the match started
    assert not [q["sql"] for q in ctx.captured_queries if '"games_seat"' in q["sql"]]


def test_the_table_reads_a_match_with_its_seats_and_players_in_one_query(django_assert_num_queries) -> None:  # noqa: ANN001
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


def test_a_move_reads_the_locked_match_then_its_seats_and_no_more() -> None:
    """Two reads, the lock first: the seats are read once the lock is held (see ``match_locked``)."""
    from django.db import transaction

    from games.selectors import match_locked

    game = game_names()[0]
    players = Match(game=game).engine.MIN_PLAYERS
    match = make_match(game, users=[UserFactory() for _ in range(players)])
    with transaction.atomic(), CaptureQueriesContext(connection) as ctx:
        read, seats = match_locked(match.pk)
        # What the move path uses comes with those two reads.
        assert read.state == Match.objects.get(pk=match.pk).state
        used = [
            (s.number, s.awaiting, s.notified_at, s.deadline, s.is_bot, s.user.email, s.user.name, s.user.notify)
            for s in seats
            if s.user.auto_forced_moves is not None
        ]
        assert len(used) == players
    selects = [q["sql"] for q in ctx.captured_queries if q["sql"].startswith("SELECT")]
    assert len(selects) == 3  # the two reads and the check above
    assert '"games_match"' in selects[0] and '"games_seat"' in selects[1] and '"accounts_user"' in selects[1]
    if connection.features.has_select_for_update:
        assert "FOR UPDATE" in selects[0] and "FOR UPDATE" not in selects[1]
    assert '"recent_chat"' not in selects[0] and '"password"' not in selects[1]
    assert [s.number for s in seats] == list(range(players)) and all(s.match is read for s in seats)
    with transaction.atomic():
        assert match_locked(10**9) is None
