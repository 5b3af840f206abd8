"""match_create, move_submit, chat_post: the rules of the table, for every game the engine has."""

from __future__ import annotations

import ast
import json
import random
import sys
from pathlib import Path
from unittest import mock

import pytest
from django.urls import reverse

from engine import IllegalAction
from engine.replay import make_log, replay, seed_hash
from games import tasks
from games.errors import IllegalMove, MoveRefused, Refused, Stale
from games.models import ChatMessage, Match, Move, Seat
from games.services import STALE_MESSAGE, SeatSpec, chat_post, match_create, move_submit
from tests.games.factories import UserFactory, game_names, make_match, play_engine_moves, play_random, quick_options

pytestmark = pytest.mark.django_db
GAMES = game_names()


def _snapshot(match: Match) -> tuple:
    match.refresh_from_db()
    return match.version, match.state, match.moves.count(), match.status


def _turn(match: Match) -> tuple[Seat, dict]:
    """The first seat to act and one of its legal actions."""
    number = match.engine.to_act(match.state)[0]
    seat = match.seats.select_related("user").get(number=number)
    return seat, match.engine.legal_actions(match.state, number)[0]


@pytest.mark.parametrize("game", GAMES)
def test_it_creates_a_started_match_with_a_seed_commitment(game: str) -> None:
    match = make_match(game)
    assert match.status == Match.Status.ACTIVE
    assert match.seed_hash == seed_hash(match.seed)
    assert match.seats.count() == match.players
    to_act = match.engine.to_act(match.state)
    assert sorted(match.seats.filter(awaiting=True).values_list("number", flat=True)) == to_act


@pytest.mark.parametrize("game", GAMES)
def test_it_refuses_a_bad_option_and_creates_nothing(game: str) -> None:
    user = UserFactory()
    module = Match(game=game).engine
    seats = [SeatSpec(user=user)] + [SeatSpec(bot="basic")] * (module.MIN_PLAYERS - 1)
    with pytest.raises(Refused, match="no_such_option"):
        match_create(game=game, players=module.MIN_PLAYERS, options={"no_such_option": 1}, created_by=user, seats=seats)
    with pytest.raises(Refused, match="players"):
        match_create(
            game=game,
            players=module.MAX_PLAYERS + 1,
            options={},
            created_by=user,
            seats=[SeatSpec(user=user)] + [SeatSpec(bot="basic")] * module.MAX_PLAYERS,
        )
    assert not Match.objects.exists()


def test_it_refuses_an_unknown_game_and_a_user_in_two_seats() -> None:
    user = UserFactory()
    with pytest.raises(Refused, match="known games"):
        match_create(game="poker", players=4, options={}, created_by=user, seats=[SeatSpec(user=user)] * 4)
    game = GAMES[0]
    players = Match(game=game).engine.MIN_PLAYERS
    with pytest.raises(Refused, match="only one seat"):
        match_create(game=game, players=players, options={}, created_by=user, seats=[SeatSpec(user=user)] * players)
    twice = [SeatSpec(user=user)] + [SeatSpec(email="Friend@example.com")] * (players - 1)
    with pytest.raises(Refused, match="only one seat"):
        match_create(game=game, players=players, options={}, created_by=user, seats=twice)
    assert not Match.objects.exists()


@pytest.mark.parametrize("game", GAMES)
def test_it_applies_a_move_through_the_engine_and_records_it(game: str) -> None:
    match = make_match(game)
    seat, action = _turn(match)
    expected = match.engine.apply(match.state, seat.number, action)
    version = match.version
    move = move_submit(match=match, user=seat.user, seat=seat.number, action=action, version=version)
    match.refresh_from_db()
    assert move.ply == version and move.seat == seat.number and move.action == action and move.kind == "player"
    assert move.text == match.engine.describe(_state_before(match, version), seat.number, action)
    # Forced moves may follow at once; the record stays a faithful log either way.
    log = make_log(game, match.players, match.seed, match.options, _actions(match), match.state)
    assert replay(log) == match.state
    assert match.version == match.moves.count() > version
    # The state right after this move (forced moves may have followed it) is the engine's.
    assert _state_before(match, version + 1) == expected


def _actions(match: Match) -> list[dict]:
    return [{"seat": m.seat, "action": m.action} for m in match.moves.order_by("ply")]


def _state_before(match: Match, ply: int) -> dict:
    game = match.engine
    state = game.new_match(match.players, match.options, seed=match.seed)
    for entry in _actions(match)[:ply]:
        state = game.apply(state, entry["seat"], entry["action"])
    return state


@pytest.mark.parametrize("game", GAMES)
def test_it_refuses_wrong_moves_and_changes_nothing(game: str) -> None:
    match = make_match(game)
    seat, action = _turn(match)
    others = list(match.seats.select_related("user").exclude(number__in=match.engine.to_act(match.state)))
    before = _snapshot(match)
    cases = [
        (None, seat.number, action, match.version, "not your seat"),
        (UserFactory(), seat.number, action, match.version, "not your seat"),
        (seat.user, seat.number, action, match.version + 3, STALE_MESSAGE),
        (seat.user, seat.number, action, match.version - 1, STALE_MESSAGE),
        (seat.user, seat.number, {"type": "no-such-move"}, match.version, ""),
        (seat.user, seat.number, "play", match.version, "not a move"),
        (seat.user, 99, action, match.version, "no such seat"),
    ]
    if others:  # a seat that is not to act, or another player's seat
        cases.append((others[0].user, others[0].number, action, match.version, "not your turn"))
        cases.append((others[0].user, seat.number, action, match.version, "not your seat"))
    for user, number, act, version, message in cases:
        with pytest.raises(MoveRefused) as info:
            move_submit(match=match, user=user, seat=number, action=act, version=version)
        assert message.lower() in str(info.value).lower()
        assert str(info.value)
        assert _snapshot(match) == before


def test_it_refuses_moves_in_a_finished_match() -> None:
    match = make_match(GAMES[0])
    seat, action = _turn(match)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    with pytest.raises(MoveRefused, match="over"):
        move_submit(match=match, user=seat.user, seat=seat.number, action=action, version=match.version)
    assert match.moves.count() == 0


@pytest.mark.parametrize("game", GAMES)
def test_it_plays_forced_moves_at_once_for_those_who_want_it(game: str) -> None:
    match = make_match(game)
    for step in range(60):
        play_random(match, 1, seed=step)
        match.refresh_from_db()
        if match.is_over:
            break
        # Nobody who wants forced moves played for them is left holding exactly one choice.
        for number in match.engine.to_act(match.state):
            assert len(match.engine.legal_actions(match.state, number)) > 1
    forced = list(match.moves.filter(kind=Move.Kind.FORCED))
    for move in forced:
        assert match.engine.legal_actions(_state_before(match, move.ply), move.seat) == [move.action]


@pytest.mark.parametrize("game", GAMES)
def test_it_leaves_forced_moves_to_players_who_turned_it_off(game: str) -> None:
    module = Match(game=game).engine
    users = [UserFactory(auto_forced_moves=False) for _ in range(module.MIN_PLAYERS)]
    match = make_match(game, users=users)
    play_random(match, 60, seed=3)
    assert not match.moves.filter(kind=Move.Kind.FORCED).exists()


def test_it_never_lets_the_forced_rule_play_a_real_choice() -> None:
    """A control: with a real choice pending, the seat stays to act and nothing is played for it."""
    match = make_match(GAMES[0])
    seat, _action = _turn(match)
    assert len(match.engine.legal_actions(match.state, seat.number)) > 1
    assert match.moves.count() == 0


@pytest.mark.parametrize("game", GAMES)
def test_bots_play_their_turns_from_their_own_view(game: str, eager, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        match = make_match(game, humans=1, bots=Match(game=game).engine.MIN_PLAYERS - 1, level="basic")
        play_random(match, 8, seed=1)
    match.refresh_from_db()
    moves = list(match.moves.all())
    assert {m.kind for m in moves if m.seat != 0} <= {"bot", "forced"}
    assert any(m.kind == "bot" for m in moves)
    assert not match.is_over, "eight moves do not end a match: the test needs one still in play"
    assert 0 in match.engine.to_act(match.state)  # the bots have played on until the human's turn
    assert replay(make_log(game, match.players, match.seed, match.options, _actions(match), match.state)) == match.state


def _simultaneous_match() -> tuple[Match, list[int]] | None:
    """A match paused at a step where several seats act at once, if any game has such steps."""
    for game in GAMES:
        module = Match(game=game).engine
        for players in range(module.MIN_PLAYERS, module.MAX_PLAYERS + 1):
            users = [UserFactory(auto_forced_moves=False) for _ in range(players)]
            match = make_match(game, users=users, players=players)
            rng = random.Random(0)
            for _ in range(300):
                to_act = match.engine.to_act(match.state)
                if len(to_act) > 1:
                    return match, to_act
                if match.is_over:
                    break
                play_engine_moves(match, 1, seed=rng.randrange(1000))
    return None


def test_it_takes_simultaneous_bids_on_a_stale_version_once_per_seat() -> None:
    found = _simultaneous_match()
    if found is None:
        pytest.skip("No game in the engine has a simultaneous step yet.")
    match, to_act = found
    seats = {s.number: s for s in match.seats.select_related("user")}
    seen = match.version
    first, second = to_act[0], to_act[1]
    move_submit(
        match=match,
        user=seats[first].user,
        seat=first,
        action=match.engine.legal_actions(match.state, first)[0],
        version=seen,
    )
    match.refresh_from_db()
    assert second in match.engine.to_act(match.state)
    # The second seat loaded the page before the first bid: still accepted.
    move_submit(
        match=match,
        user=seats[second].user,
        seat=second,
        action=match.engine.legal_actions(match.state, second)[0],
        version=seen,
    )
    assert match.moves.filter(seat=second, ply__gte=seen).count() == 1
    match.refresh_from_db()
    # The first seat again on the version it saw: it has acted since, so this is stale.
    before = _snapshot(match)
    assert first in match.engine.to_act(match.state), "the test needs the first seat to act again"
    with pytest.raises(Stale, match="changed"):
        move_submit(
            match=match,
            user=seats[first].user,
            seat=first,
            action=match.engine.legal_actions(match.state, first)[0],
            version=seen,
        )
    assert _snapshot(match) == before


def test_it_posts_chat_to_the_whole_table_and_refuses_empty_text() -> None:
    match = make_match(GAMES[0])
    user = match.seats.first().user
    chat_post(match=match, user=user, text="  good luck  ")
    assert ChatMessage.objects.get().text == "good luck"
    for bad in ("", "   ", "x" * 1001):
        with pytest.raises(Refused):
            chat_post(match=match, user=user, text=bad)
    assert ChatMessage.objects.count() == 1


def test_it_waits_for_an_invited_player_and_starts_when_they_accept() -> None:
    from games.services import invite_accept

    creator, friend = UserFactory(), UserFactory()
    game = GAMES[0]
    players = Match(game=game).engine.MIN_PLAYERS
    seats = [SeatSpec(user=creator), SeatSpec(email=friend.email.upper())] + [SeatSpec(bot="basic")] * (players - 2)
    match = match_create(game=game, players=players, options={}, created_by=creator, seats=seats)
    assert match.status == Match.Status.WAITING
    seat = match.seats.get(number=1)
    # Not linked to the account with that address (that would tell the creator it exists): the link is the key.
    assert seat.user is None and not seat.joined and seat.invite_token
    with pytest.raises(Refused, match="already have a seat"):
        invite_accept(token=seat.invite_token, user=creator)
    match.refresh_from_db()
    assert match.status == Match.Status.WAITING
    invite_accept(token=seat.invite_token, user=friend)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    with pytest.raises(Refused, match="already been used"):
        invite_accept(token=seat.invite_token, user=friend)


def test_the_deadline_hook_sets_a_clock_for_each_seat_to_act_and_clears_it_when_they_move(monkeypatch) -> None:
    from datetime import timedelta

    monkeypatch.setattr(Seat, "turn_deadline", lambda self, *, clock, now: now + timedelta(days=2))
    match = make_match(
        GAMES[0], users=[UserFactory(auto_forced_moves=False) for _ in range(Match(game=GAMES[0]).engine.MIN_PLAYERS)]
    )
    seat, action = _turn(match)
    assert seat.deadline is not None
    assert not match.seats.filter(awaiting=False, deadline__isnull=False).exists()
    move_submit(match=match, user=seat.user, seat=seat.number, action=action, version=match.version)
    seat.refresh_from_db()
    assert not seat.awaiting, "the test needs a move that passes the turn on"
    assert seat.deadline is None
    assert match.seats.filter(awaiting=True, deadline__isnull=True).count() == 0


def _play_checking_writes(match: Match, moves: int, seed: int) -> int:
    """Random moves through the service, checking each one's writes and the seats after it; returns the forced runs."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    rng, chains = random.Random(seed), 0
    for _ in range(moves):
        match.refresh_from_db()
        if match.is_over:
            break
        seats = {s.number: s for s in match.seats.select_related("user")}
        number = rng.choice(match.engine.to_act(match.state))
        action = rng.choice(match.engine.legal_actions(match.state, number))
        before = match.version
        with CaptureQueriesContext(connection) as ctx:
            move_submit(match=match, user=seats[number].user, seat=number, action=action, version=before)
        inserts = [q["sql"] for q in ctx.captured_queries if q["sql"].startswith('INSERT INTO "games_move"')]
        assert len(inserts) == 1
        chains += match.version - before > 1
        match.refresh_from_db()
        to_act = [] if match.is_over else match.engine.to_act(match.state)
        assert sorted(match.seats.filter(awaiting=True).values_list("number", flat=True)) == to_act
        assert not match.seats.filter(awaiting=False, deadline__isnull=False).exists()
    return chains


@pytest.mark.parametrize("game", GAMES)
def test_it_writes_a_forced_run_with_one_insert_and_keeps_the_seats_in_step(game: str) -> None:
    """Forced moves after a move are saved with it in one INSERT; after every move the seats' rows
    say who is awaited, and only awaited seats have a deadline."""
    chains = 0
    for attempt in range(4):  # deals are random: play fresh matches until a forced run has come up
        match = make_match(game)  # players want forced moves played for them
        chains += _play_checking_writes(match, 80, seed=attempt)
        assert match.version == match.moves.count()
        log = make_log(game, match.players, match.seed, match.options, _actions(match), match.state)
        assert replay(log) == match.state
        if chains:
            return
    pytest.skip(f"No forced run came up in {game}; the single-INSERT rule went untested here.")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)  # the move's transaction must be a real one, not a savepoint
def test_moves_wait_for_the_disk_unless_told_otherwise_and_only_for_their_own_transaction(settings) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def play_and_capture() -> list[str]:
        players = Match(game=GAMES[0]).engine.MIN_PLAYERS
        match = make_match(GAMES[0], users=[UserFactory(auto_forced_moves=False) for _ in range(players)])
        seat, action = _turn(match)
        with CaptureQueriesContext(connection) as ctx:
            move_submit(match=match, user=seat.user, seat=seat.number, action=action, version=match.version)
        return [q["sql"] for q in ctx.captured_queries]

    assert not any("synchronous_commit" in sql for sql in play_and_capture())
    settings.GAMES_MOVE_SYNCHRONOUS_COMMIT = False
    assert any(sql == "SET LOCAL synchronous_commit TO OFF" for sql in play_and_capture())
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        assert cursor.fetchone()[0] == "on"  # SET LOCAL ended with the move's transaction


# --- refusals and bugs -------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_the_engines_refusal_reaches_the_player_as_a_refusal_in_its_own_words(game: str) -> None:
    match = make_match(game)
    seat, _action = _turn(match)
    bad = {"type": "no-such-move"}
    with pytest.raises(IllegalAction) as engine:
        match.engine.apply(match.state, seat.number, bad)
    with pytest.raises(IllegalMove) as refused:
        move_submit(match=match, user=seat.user, seat=seat.number, action=bad, version=match.version)
    assert str(refused.value) == str(engine.value) and isinstance(refused.value.__cause__, IllegalAction)
    assert not isinstance(refused.value, ValueError)  # views catch Refused, never ValueError


def test_an_engine_error_on_checked_options_is_a_bug_not_a_refusal(monkeypatch) -> None:
    game = GAMES[0]
    module = Match(game=game).engine
    monkeypatch.setattr(module, "new_match", mock.Mock(side_effect=ValueError("an engine bug")))
    user = UserFactory()
    seats = [SeatSpec(user=user)] + [SeatSpec(bot="basic")] * (module.MIN_PLAYERS - 1)
    with pytest.raises(ValueError, match="an engine bug") as raised:
        match_create(game=game, players=module.MIN_PLAYERS, options={}, created_by=user, seats=seats)
    assert not isinstance(raised.value, Refused)
    assert not Match.objects.exists()


def test_the_play_view_shows_a_refusal_but_lets_a_bug_through(monkeypatch) -> None:
    """An IllegalAction while the app plays a forced move is the engine's bug: a server error, not a message."""
    from django.contrib.messages import get_messages

    from games import services
    from tests.games.conftest import login

    match = make_match(GAMES[0])
    seat, action = _turn(match)
    client = login(seat.user)
    url = reverse("games-play", args=[match.pk])
    form = {"action": json.dumps(action), "version": match.version + 5}
    page = client.post(url, form, follow=True)
    assert [str(m) for m in get_messages(page.wsgi_request)] == [STALE_MESSAGE]
    monkeypatch.setattr(
        services, "_play_forced", mock.Mock(side_effect=IllegalAction("a forced move the engine refused"))
    )
    with pytest.raises(IllegalAction, match="a forced move"):
        client.post(url, {**form, "version": match.version})
    assert _snapshot(match)[0] == match.version


def test_the_create_view_lets_an_engine_bug_through(monkeypatch) -> None:
    from tests.games.conftest import login

    game = GAMES[0]
    module = Match(game=game).engine
    monkeypatch.setattr(module, "new_match", mock.Mock(side_effect=ValueError("an engine bug")))
    client = login(UserFactory())
    form = {
        "players": module.MIN_PLAYERS,
        **{f"seat_{n}_kind": "bot" for n in range(1, module.MIN_PLAYERS)},
        **{f"seat_{n}_level": "random" for n in range(1, module.MIN_PLAYERS)},
    }
    with pytest.raises(ValueError, match="an engine bug"):
        client.post(f"{reverse('games-create')}?game={game}", form)
    assert not Match.objects.exists()


# --- tasks: queued by name, bots played in turn -----------------------------


def test_the_services_never_import_the_tasks() -> None:
    """The tasks import the services; the services queue tasks by name (``games.followups``)."""
    from games import services

    tree = ast.parse(Path(services.__file__).read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            imported |= {node.module or "", *(f"{node.module}.{alias.name}" for alias in node.names)}
    assert "games.tasks" not in imported


def test_a_bot_turn_is_queued_after_commit_never_played_inline(settings, django_capture_on_commit_callbacks) -> None:
    from celery import current_app

    settings.CELERY_TASK_ALWAYS_EAGER = True  # even so: production code has no inline loop of its own
    game = GAMES[0]
    players = Match(game=game).engine.MIN_PLAYERS
    bot_move = current_app.tasks["games.tasks.bot_move"]
    with mock.patch.object(bot_move, "apply_async") as queued, django_capture_on_commit_callbacks(execute=True):
        match = make_match(game, humans=0, bots=players, level="random")
        assert not queued.called  # not before the commit
    match.refresh_from_db()
    assert not match.moves.filter(kind=Move.Kind.BOT).exists()
    to_act = match.engine.to_act(match.state)
    # After a short delay (BOT_MOVE_DELAY_SECONDS, 2 by default), so that a player sees bot moves land one by one.
    expected = [mock.call((match.pk, seat, match.version), retry=False, countdown=2) for seat in to_act]
    assert queued.call_args_list == expected


@pytest.mark.django_db(transaction=True)  # each bot move commits and queues the next from its on-commit callback
def test_the_test_setup_plays_a_bot_chain_in_a_bounded_loop(eager, caplog) -> None:
    eager.limit = 3
    game = GAMES[0]
    match = make_match(game, humans=0, bots=Match(game=game).engine.MIN_PLAYERS, level="random")
    match.refresh_from_db()
    assert Move.objects.filter(match=match, kind="bot").count() == 3
    assert match.status == Match.Status.ACTIVE and match.seats.filter(awaiting=True).exists()
    assert "Stopped an inline bot chain after 3 moves" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_the_test_setup_plays_an_all_bot_match_to_its_end_without_recursion(eager) -> None:
    game = GAMES[0]
    depth = []
    real = tasks.bot_move.run

    def move(*args: int) -> bool:
        frame, frames = sys._getframe(), 0
        while frame is not None:
            frame, frames = frame.f_back, frames + 1
        depth.append(frames)
        return real(*args)

    with mock.patch.object(tasks.bot_move, "run", move):
        match = make_match(game, humans=0, bots=Match(game=game).engine.MIN_PLAYERS, options=quick_options(game))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and eager.played == len(depth) > 10
    assert max(depth) == min(depth)  # every move from the same loop, none from inside another
