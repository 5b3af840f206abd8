"""The table's reads in process, without the request around them: median milliseconds; prints JSON.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/parlour_p .venv/bin/python -m bench.reads [--calls 600]

A throwaway test database made from ``DATABASE_URL`` (SQLite in memory by default) holding one
Renfield match of ``MIN_PLAYERS`` seats, a dozen moves in (a realistic snapshot and log). Each read
is timed ``--calls`` times after warm-ups, alternately, so that each sees the same machine:

- ``table_read``: ``selectors.match_and_seats``, the table page's one query (seats, players, match,
  the header's count);
- ``locked_read``: ``selectors.match_locked`` inside a transaction, the move's read;
- ``poll_marks``: what a poll that finds nothing new reads;
- ``one_column``: one column of the match by its key, the floor (what ``bench.web``'s bare view reads).

Each figure covers building the query, compiling it, the round trip and loading the rows: the part of
a table page or a move that the ORM costs. ``bench.web`` measures the pages around them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")

import django

django.setup()

from django.db import connection, transaction  # noqa: E402

from bench._stack import throwaway_database  # noqa: E402

WARMUP = 50
PLIES = 12


def _match() -> tuple[int, Any]:
    """A Renfield match a dozen moves in, and its first player."""
    from accounts.models import User
    from engine import get_game
    from engine.play import play_out
    from games.services import SeatSpec, match_create, move_applier

    module = get_game("renfield")
    users = [User.objects.create_user(f"reads-{n}@example.com", "pw") for n in range(module.MIN_PLAYERS)]
    match = match_create(
        game="renfield",
        players=module.MIN_PLAYERS,
        options={},
        created_by=users[0],
        seats=[SeatSpec(user=u) for u in users],
    )
    play_out(
        match.engine,
        match.state,
        choose=lambda _state, _seat, legal: legal[0],
        apply=move_applier(match),
        max_steps=PLIES,
    )
    return match.pk, users[0]


def _locked(read: Callable[[int], Any]) -> Callable[[int], Any]:
    def call(match_id: int) -> Any:
        with transaction.atomic():
            return read(match_id)

    return call


def measure(calls: int) -> dict[str, Any]:
    from games.models import Match
    from games.selectors import match_and_seats, match_locked, poll_marks

    match_id, user = _match()
    reads: dict[str, Callable[[int], Any]] = {
        "one_column": lambda pk: Match.objects.filter(pk=pk).values_list("version", flat=True).first(),
        "table_read": match_and_seats,
        "locked_read": _locked(match_locked),
        "poll_marks": lambda pk: poll_marks(match_id=pk, user=user),
    }
    samples: dict[str, list[float]] = {name: [] for name in reads}
    for i in range(WARMUP + calls):
        for name, read in reads.items():
            started = time.perf_counter()
            read(match_id)
            if i >= WARMUP:
                samples[name].append((time.perf_counter() - started) * 1000)
    floor = statistics.median(samples["one_column"])
    return {
        name: {
            "median_ms": round(statistics.median(times), 3),
            "ratio_to_one_column": round(statistics.median(times) / floor, 2),
        }
        for name, times in samples.items()
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.reads", description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=600, help="timed calls of each read")
    args = parser.parse_args(argv)
    with throwaway_database():
        results = measure(args.calls)
    print(json.dumps({"database": connection.vendor, "calls": args.calls, "reads": results}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
