"""Matches for tests, made through the services, plus engine-side play-outs for long matches."""

from __future__ import annotations

import random
from typing import Any

from django.db import transaction

from accounts.models import User
from engine import GAMES, get_game
from games.models import RECENT_MOVES, Match, Move
from games.services import SeatSpec, match_create
from tests.accounts.factories import PASSWORD, UserFactory

__all__ = [
    "PASSWORD", "UserFactory", "game_names", "make_match", "play_engine_moves", "play_random", "play_until_turn",
    "quick_options",
]


def game_names() -> list[str]:
    return sorted(GAMES)


def quick_options(game: str) -> dict[str, Any]:
    """Options that make a match short where the game offers them (a target, a number of hands)."""
    module = get_game(game)
    options: dict[str, Any] = {}
    for entry in module.OPTIONS:
        if entry["type"] == "int" and entry["name"] in ("target", "hands", "hands_to_win"):
            options[entry["name"]] = max(entry.get("min") or 1, 1)
    return options


def make_match(
    game: str,
    *,
    humans: int | None = None,
    bots: int = 0,
    level: str = "random",
    users: list[User] | None = None,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    private: bool = False,
) -> Match:
    """A started match: ``users`` (or fresh ones) in the first seats, then bots."""
    module = get_game(game)
    players = players or module.MIN_PLAYERS
    if users is None:
        users = [UserFactory() for _ in range(players - bots if humans is None else humans)]
    specs = [SeatSpec(user=u) for u in users] + [SeatSpec(bot=level)] * (players - len(users))
    return match_create(game=game, players=players, options=options, created_by=users[0] if users else None,
                        private=private, seats=specs)


def play_engine_moves(match: Match, count: int, *, seed: int = 0, until_over: bool = False) -> Match:
    """Play random legal moves straight through the engine and record them: fast setup for long matches.

    Bypasses mail and bots on purpose; the services have their own tests.
    """
    game, rng = match.engine, random.Random(seed)
    state, ply, moves = match.state, match.version, []
    while (until_over or len(moves) < count) and not game.is_over(state):
        seat = rng.choice(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat))
        moves.append(Move(match=match, ply=ply, seat=seat, action=action, text=game.describe(state, seat, action),
                          awaited=game.to_act(state)))
        state, ply = game.apply(state, seat, action), ply + 1
    with transaction.atomic():
        Move.objects.bulk_create(moves)
        match.state, match.version = state, ply
        lines = [{"ply": m.ply, "seat": m.seat, "kind": m.kind, "text": m.text} for m in moves]
        match.recent_moves = [*match.recent_moves, *lines][-RECENT_MOVES:]
        if game.is_over(state):
            match.status, match.outcome = Match.Status.FINISHED, game.outcome(state)
        match.save()
        to_act = [] if game.is_over(state) else game.to_act(state)
        # Two statements whatever the table size, rather than one per seat.
        match.seats.filter(number__in=to_act).update(awaiting=True)
        match.seats.exclude(number__in=to_act).update(awaiting=False)
    return match


def play_until_turn(match: Match, seat: int, *, limit: int = 200, seed: int = 0) -> Match:
    """Engine-side random moves until ``seat`` is to act; fails loudly instead of looping on.

    One write for the whole run, and a bound: a match that ends first, or a seat that never
    comes round, is a failed setup with a message, not a test that hangs.
    """
    game, rng = match.engine, random.Random(seed)
    state, count = match.state, 0
    while seat not in game.to_act(state):  # the same draws as play_engine_moves, so it replays them
        if game.is_over(state) or count >= limit:
            over = game.is_over(state)
            raise AssertionError(f"Seat {seat} did not come to act within {count} moves (match over: {over}).")
        mover = rng.choice(game.to_act(state))
        state, count = game.apply(state, mover, rng.choice(game.legal_actions(state, mover))), count + 1
    return play_engine_moves(match, count, seed=seed) if count else match


def play_random(match: Match, count: int, *, seed: int = 0) -> None:
    """Play random legal moves through ``move_submit`` for the human seats, as players would."""
    from games.services import move_submit

    rng = random.Random(seed)
    for _ in range(count):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            return
        seats = {s.number: s for s in match.seats.select_related("user")}
        humans = [n for n in match.engine.to_act(match.state) if seats[n].user_id]
        if not humans:
            return
        number = rng.choice(humans)
        action = rng.choice(match.engine.legal_actions(match.state, number))
        move_submit(match=match, user=seats[number].user, seat=number, action=action, version=match.version)
