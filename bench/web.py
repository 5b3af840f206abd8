"""Web latency: submitting a move and rendering the table, against a bare view that reads one row.

    .venv/bin/python -m bench.web [--requests 40] [--game karnoffel]

All three go through the same Django request handler (every middleware, the
session, the login) and the same database, in one run: a throwaway test
database made from ``DATABASE_URL`` (SQLite in memory by default; PostgreSQL
when ``DATABASE_URL`` points there). The bare view reads one ``Match`` row
and returns a few bytes, so the ratios say what the games app itself costs.
Prints JSON; target: each ratio within 3x of the bare view.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.decorators import login_required  # noqa: E402
from django.db import connection  # noqa: E402
from django.http import HttpRequest, HttpResponse  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.urls import include, path  # noqa: E402

TARGET_RATIO = 3.0


@login_required
def bare(request: HttpRequest, match_id: int) -> HttpResponse:
    from games.models import Match

    version = Match.objects.filter(pk=match_id).values_list("version", flat=True).first()
    return HttpResponse(f"version {version}", content_type="text/plain")


urlpatterns = [path("bench/bare/<int:match_id>/", bare), path("", include("config.urls"))]


def _fresh_match(game: str) -> tuple[Any, dict[int, Client]]:
    from accounts.models import User
    from engine import get_game
    from games.services import SeatSpec, match_create

    module = get_game(game)
    stamp = time.perf_counter_ns()
    users = [
        User.objects.create_user(f"bench{stamp}-{n}@example.com", "pw", auto_forced_moves=False)
        for n in range(module.MIN_PLAYERS)
    ]
    match = match_create(game=game, players=module.MIN_PLAYERS, options={}, created_by=users[0],
                         seats=[SeatSpec(user=u) for u in users])
    clients = {}
    for number, user in enumerate(users):
        clients[number] = Client()
        clients[number].force_login(user)
    return match, clients


def _timed(call: Any) -> float:
    started = time.perf_counter()
    response = call()
    elapsed = time.perf_counter() - started
    if response.status_code not in (200, 302):
        raise SystemExit(f"unexpected status {response.status_code}: {response.content[:300]!r}")
    return elapsed * 1000


def measure(game: str, requests: int) -> dict[str, Any]:
    match, clients = _fresh_match(game)
    submit, table, bare_ms = [], [], []
    for i in range(requests + 3):  # the first few warm caches and are dropped
        match.refresh_from_db()
        if match.is_over:
            match, clients = _fresh_match(game)
        number = match.engine.to_act(match.state)[0]
        client = clients[number]
        action = json.dumps(match.engine.legal_actions(match.state, number)[0])
        times = (
            _timed(lambda: client.get(f"/bench/bare/{match.pk}/")),
            _timed(lambda: client.get(f"/m/{match.pk}/")),
            _timed(lambda: client.post(f"/m/{match.pk}/play/", {"action": action, "version": match.version})),
        )
        if i >= 3:
            bare_ms.append(times[0])
            table.append(times[1])
            submit.append(times[2])
    base = statistics.median(bare_ms)
    result = {
        "game": game,
        "requests": requests,
        "bare_ms": round(base, 2),
        "table_ms": round(statistics.median(table), 2),
        "submit_ms": round(statistics.median(submit), 2),
    }
    result["table_ratio"] = round(result["table_ms"] / base, 2)
    result["submit_ratio"] = round(result["submit_ms"] / base, 2)
    result["ok"] = result["table_ratio"] <= TARGET_RATIO and result["submit_ratio"] <= TARGET_RATIO
    return result


def main(argv: list[str] | None = None) -> int:
    from engine import GAMES

    parser = argparse.ArgumentParser(prog="python -m bench.web", description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=40, help="timed requests of each kind per game")
    parser.add_argument("--game", choices=sorted(GAMES), help="one game only")
    args = parser.parse_args(argv)
    setup_test_environment()
    settings.ROOT_URLCONF = __name__
    settings.DEBUG = False
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        results = [measure(game, args.requests) for game in ([args.game] if args.game else sorted(GAMES))]
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    summary = {
        "database": connection.vendor,
        "python": sys.version.split()[0],
        "target_ratio": TARGET_RATIO,
        "results": results,
        "ok": all(r["ok"] for r in results),
    }
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
