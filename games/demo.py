"""Demo data for `make run`: matches against bots for the demo players, one of them already finished."""

from __future__ import annotations

from typing import Any

from engine import GAMES, get_game
from engine.bots import choose
from engine.play import play_out
from games.models import Match
from games.services import SeatSpec, match_create, move_applier

MAX_DEMO_MOVES = 3_000


def create_demo_matches(*, users: list[Any]) -> None:
    """Create the demo matches for ``users`` if they do not exist yet (idempotent)."""
    if not users or Match.objects.filter(created_by=users[0]).exists():
        return
    alice, others = users[0], users[1:]
    for name, module in sorted(GAMES.items()):
        players = module.MIN_PLAYERS
        _create(name, players, [SeatSpec(user=alice)] + [SeatSpec(bot="basic")] * (players - 1), alice)
        if others and players >= 2:
            humans = [alice, *others][: min(players, len(users))]
            seats = [SeatSpec(user=u) for u in humans] + [SeatSpec(bot="random")] * (players - len(humans))
            _create(name, players, seats, others[0])
    finished_game = "karnoffel" if "karnoffel" in GAMES else sorted(GAMES)[0]
    module = get_game(finished_game)
    seats = [SeatSpec(user=alice)] + [SeatSpec(bot="basic")] * (module.MIN_PLAYERS - 1)
    match = _create(finished_game, module.MIN_PLAYERS, seats, alice, options=_short(module))
    _play_out(match)


def _create(game: str, players: int, seats: list[SeatSpec], creator: Any, options: dict | None = None) -> Match:
    return match_create(game=game, players=players, options=options or {}, created_by=creator, seats=seats)


def _short(module: Any) -> dict[str, Any]:
    return {e["name"]: max(e.get("min") or 1, 1) for e in module.OPTIONS if e["name"] in ("target", "hands")}


def _play_out(match: Match) -> None:
    """Everyone plays basic bot moves until the end, so the replay page has something to show."""
    game = match.engine

    def basic(state: dict[str, Any], number: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
        return choose(match.game, "basic", game.view(state, number), legal, seed=f"demo:{match.version}")

    play_out(game, match.state, choose=basic, apply=move_applier(match), max_steps=MAX_DEMO_MOVES)
