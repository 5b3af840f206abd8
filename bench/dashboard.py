"""The dashboard in-process: its queries and its median time through the test client; prints JSON.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/parlour_bench .venv/bin/python -m bench.dashboard [--requests 200]

A throwaway test database made from ``DATABASE_URL`` (SQLite in memory by default), seeded as
``bench.throughput`` seeds its stack (twenty players in tables of four, four matches per table, a
league season whose fixtures are matches too), then, for the first player, what a busy dashboard
also shows: matches finished against bots, a match waiting for an invited player, and two open
invitations to the player's address. Every request goes through the whole middleware stack, the
session and the login, as ``bench.web`` does; ``setup_test_environment`` is not called (it copies
every template context for the test client, a cost no server pays).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from bench._stack import throwaway_database  # noqa: E402

WARMUP = 5


def _finished_with_bots(user: Any, game: str, seed: int) -> None:
    """A match of ``user`` against bots, played out through the move service."""
    from engine import get_game
    from engine.play import MAX_MATCH_STEPS, play_out
    from games.models import Move
    from games.services import SeatSpec, match_create, move_submit

    module = get_game(game)
    players = module.MIN_PLAYERS
    specs = [SeatSpec(user=user)] + [SeatSpec(bot="random")] * (players - 1)
    match = match_create(game=game, players=players, options=_quick(game), created_by=user, seats=specs)
    rng = random.Random(seed)

    def submit(_state: dict[str, Any], number: int, action: dict[str, Any]) -> dict[str, Any]:
        kind = Move.Kind.PLAYER if number == 0 else Move.Kind.BOT
        move_submit(
            match=match,
            user=user if number == 0 else None,
            seat=number,
            action=action,
            version=match.version,
            kind=kind,
        )
        match.refresh_from_db(fields=["state", "version", "status"])
        return match.state

    play_out(
        module, match.state, choose=lambda _s, _n, legal: rng.choice(legal), apply=submit, max_steps=MAX_MATCH_STEPS
    )
    assert match.is_over, "the bench needs a finished match"


def _quick(game: str) -> dict[str, Any]:
    from bench._stack import quick_options

    return quick_options(game)


def seed() -> Any:
    """The first player of ``bench._stack.seed`` with finished matches, a waiting one and two invitations."""
    from accounts.models import User
    from bench._stack import seed as stack_seed
    from games.services import SeatSpec, match_create

    seeded = stack_seed(users=20, matches_per_group=4, leagues=True)
    player = User.objects.get(email=seeded["players"][0]["email"])
    others = list(User.objects.exclude(pk=player.pk).order_by("pk")[:3])
    for n, game in enumerate(("karnoffel", "renfield")):
        _finished_with_bots(player, game, seed=n)
    # Waiting for a friend the player invited; two friends' matches waiting for the player.
    match_create(
        game="renfield",
        players=4,
        options=_quick("renfield"),
        created_by=player,
        seats=[
            SeatSpec(user=player),
            SeatSpec(email="friend@bench.test"),
            SeatSpec(bot="random"),
            SeatSpec(bot="random"),
        ],
    )
    for friend in others[:2]:
        match_create(
            game="renfield",
            players=4,
            options=_quick("renfield"),
            created_by=friend,
            seats=[SeatSpec(user=friend), SeatSpec(email=player.email), SeatSpec(bot="random"), SeatSpec(bot="random")],
        )
    return player


def measure(requests: int) -> dict[str, Any]:
    player = seed()
    client = Client()
    client.force_login(player)
    for _ in range(WARMUP):
        assert client.get("/").status_code == 200
    with CaptureQueriesContext(connection) as captured:
        page = client.get("/")
    # Read at once: the captured queries are a slice of the connection's log, which the next request empties.
    queries = [q["sql"] for q in captured.captured_queries]
    text = page.content.decode()
    shown = {
        "rows": text.count('class="match-row"'),
        "invitations": text.count("/invite/"),
        "league_fixtures": "League matches" in text,
        "finished": text.count('class="result"'),
    }
    walls, cpus = [], []
    for _ in range(requests):
        started, cpu_started = time.perf_counter(), time.process_time()
        response = client.get("/")
        walls.append((time.perf_counter() - started) * 1000)
        cpus.append((time.process_time() - cpu_started) * 1000)
        assert response.status_code == 200
    walls.sort()
    return {
        "queries": len(queries),
        "sql": [q[:160] + " ... " + q[-220:] for q in queries],
        "shown": shown,
        "p10_ms": round(walls[int(len(walls) * 0.1)], 2),
        "median_ms": round(statistics.median(walls), 2),
        "p90_ms": round(walls[int(len(walls) * 0.9)], 2),
        "cpu_median_ms": round(statistics.median(cpus), 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.dashboard", description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args(argv)
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    settings.DEBUG = False
    with throwaway_database():
        result = measure(args.requests)
    print(json.dumps({"database": connection.vendor, "requests": args.requests, **result}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
