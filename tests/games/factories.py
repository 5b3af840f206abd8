"""Matches for tests and the moves played in them, all made through the services."""

from __future__ import annotations

import random
from typing import Any

from accounts.models import User
from engine import GAMES, get_game
from engine.play import MAX_MATCH_STEPS, Choose, play_out
from games.models import Match
from games.services import SeatSpec, match_create, move_applier
from tests.accounts.factories import PASSWORD, UserFactory

__all__ = [
    "PASSWORD",
    "UserFactory",
    "game_names",
    "make_match",
    "play_engine_moves",
    "play_random",
    "play_until_turn",
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
    return match_create(
        game=game,
        players=players,
        options=options,
        created_by=users[0] if users else None,
        private=private,
        seats=specs,
    )


def play_engine_moves(match: Match, count: int, *, seed: int = 0, until_over: bool = False) -> Match:
    """Random legal moves through ``move_submit``, as the app records them: setup for long matches.

    ``count`` moves (or all of them with ``until_over``), each by the first seat to act: its player,
    or its bot with ``kind="bot"``. The service adds the forced moves, mail and deadlines a real
    move causes, so setup cannot drift from the app. Returns ``match``, brought up to date.
    """
    rng = random.Random(seed)
    match.refresh_from_db()
    play_out(
        match.engine,
        match.state,
        choose=_random_choice(rng),
        apply=move_applier(match),
        max_steps=MAX_MATCH_STEPS if until_over else count,
    )
    return match


def play_until_turn(match: Match, seat: int, *, limit: int = 200, seed: int = 0) -> Match:
    """Random moves through the services until ``seat`` is to act; fails loudly instead of looping on.

    A bound: a match that ends first, or a seat that never comes round, is a failed setup with a
    message, not a test that hangs.
    """
    rng, game = random.Random(seed), match.engine
    match.refresh_from_db()
    play_out(
        game,
        match.state,
        choose=_random_choice(rng),
        apply=move_applier(match),
        max_steps=limit,
        until=lambda state: seat in game.to_act(state),
    )
    if seat not in game.to_act(match.state):
        raise AssertionError(f"Seat {seat} did not come to act within {limit} moves (match over: {match.is_over}).")
    return match


def play_random(match: Match, count: int, *, seed: int = 0) -> None:
    """Random legal moves through ``move_submit`` for the human seats, as players would; stops at a bot's turn."""
    rng, game = random.Random(seed), match.engine
    match.refresh_from_db()
    humans = set(match.seats.exclude(user=None).values_list("number", flat=True))
    play_out(
        game,
        match.state,
        choose=_random_choice(rng),
        apply=move_applier(match),
        max_steps=count,
        until=lambda state: game.to_act(state)[0] not in humans,
    )


def _random_choice(rng: random.Random) -> Choose:
    return lambda _state, _seat, legal: rng.choice(legal)
