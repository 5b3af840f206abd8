"""Web latency: submitting a move and rendering the table, against a bare view that reads one row.

    .venv/bin/python -m bench.web [--requests 40] [--game karnoffel]

All of them go through the same Django request handler (every middleware, the
session, the login) and the same database, in one run: a throwaway test
database made from ``DATABASE_URL`` (SQLite in memory by default; PostgreSQL
when ``DATABASE_URL`` points there). The bare view reads one ``Match`` row
and returns a few bytes, so the ratios say what the games app itself costs.
Moves are posted urlencoded, as the table's forms post them, both as a plain
form (answered by a redirect) and through htmx (answered by the live part of
the table, so that one also renders the table). ``durable_write_ms`` is one
committed one-row UPDATE: the disk flush every move pays and a read never does.

Prints JSON with absolute medians, p90s and ratios (of wall time, and of this process's CPU time, which
load on a shared machine disturbs far less), and the Python calls of a table page (``table.calls``, which
load does not change at all); target: the table page and the move each within 3x of the bare view.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import statistics
import sys
import time
from typing import Any
from urllib.parse import urlencode

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.decorators import login_required  # noqa: E402
from django.db import connection  # noqa: E402
from django.http import HttpRequest, HttpResponse  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import include, path  # noqa: E402

from bench._stack import throwaway_database  # noqa: E402

TARGET_RATIO = 3.0
WARMUP = 3  # the first rounds warm caches and are dropped
FORM = "application/x-www-form-urlencoded"


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
    match = match_create(
        game=game, players=module.MIN_PLAYERS, options={}, created_by=users[0], seats=[SeatSpec(user=u) for u in users]
    )
    clients = {}
    for number, user in enumerate(users):
        clients[number] = Client()
        clients[number].force_login(user)
    return match, clients


def _timed(call: Any, expect: int) -> tuple[float, float]:
    """Wall and CPU milliseconds of one request. The CPU time is this process's (client, Django, driver),
    not the database server's: on a loaded machine it is far steadier than the wall time."""
    started, cpu_started = time.perf_counter(), time.process_time()
    response = call()
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    if response.status_code != expect:
        raise SystemExit(f"expected {expect}, got {response.status_code}: {response.content[:300]!r}")
    return elapsed * 1000, cpu * 1000


def _summary(samples: list[tuple[float, float]], base: tuple[float, float] | None) -> dict[str, Any]:
    ordered = sorted(wall for wall, _cpu in samples)
    cpu = statistics.median(c for _wall, c in samples)
    entry: dict[str, Any] = {
        "median_ms": round(statistics.median(ordered), 2),
        "p90_ms": round(ordered[int(len(ordered) * 0.9)], 2),
        "cpu_ms": round(cpu, 2),
    }
    if base is not None:
        entry["ratio"] = round(entry["median_ms"] / base[0], 2)
        entry["cpu_ratio"] = round(cpu / base[1], 2)
        entry["meets_target"] = entry["ratio"] <= TARGET_RATIO
    return entry


def _submit(match: Any, client: Client, *, htmx: bool) -> tuple[float, float]:
    """One real move through the play view, posted as the page's form posts it (urlencoded)."""
    number = match.engine.to_act(match.state)[0]
    action = json.dumps(match.engine.legal_actions(match.state, number)[0])
    body = urlencode({"action": action, "version": match.version})
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    url = f"/m/{match.pk}/play/"
    return _timed(lambda: client.post(url, body, content_type=FORM, **headers), 200 if htmx else 302)


def measure(game: str, requests: int) -> dict[str, Any]:
    """Bare view, table page, a plain-form move (answered by a redirect) and an htmx move (answered by
    the live part of the table), interleaved on the same match so each sees the same load."""
    match, clients = _fresh_match(game)
    samples: dict[str, list[tuple[float, float]]] = {"bare": [], "table": [], "submit": [], "submit_htmx": []}
    for i in range(requests + WARMUP):
        times = {}
        for kind in ("bare", "table", "submit", "submit_htmx"):
            match.refresh_from_db()
            if match.is_over:
                match, clients = _fresh_match(game)
            client = clients[match.engine.to_act(match.state)[0]]
            if kind in ("bare", "table"):
                url = f"/bench/bare/{match.pk}/" if kind == "bare" else f"/m/{match.pk}/"
                times[kind] = _timed(lambda c=client, u=url: c.get(u), 200)
            else:
                times[kind] = _submit(match, client, htmx=kind == "submit_htmx")
        if i >= WARMUP:
            for kind, elapsed in times.items():
                samples[kind].append(elapsed)
    base = (statistics.median(w for w, _c in samples["bare"]), statistics.median(c for _w, c in samples["bare"]))
    result: dict[str, Any] = {"game": game, "requests": requests, "bare": _summary(samples["bare"], None)}
    for kind in ("table", "submit", "submit_htmx"):
        result[kind] = _summary(samples[kind], base)
    result["table"]["calls"] = table_calls(game, 10)
    # The target covers the table page and the move itself; the htmx move also renders the table.
    result["ok"] = result["table"]["meets_target"] and result["submit"]["meets_target"]
    return result


def table_calls(game: str, pages: int) -> int:
    """Python function calls of one table page (cProfile), median over ``pages`` pages of a fresh match, a
    move between each (so each is a page-cache miss, as timed above): unlike the times, load does not
    change it, so two versions of the code compare exactly."""
    match, clients = _fresh_match(game)
    counts = []
    for _ in range(pages):
        match.refresh_from_db()
        if match.is_over:
            break
        client = clients[match.engine.to_act(match.state)[0]]
        profile = cProfile.Profile()
        profile.enable()
        client.get(f"/m/{match.pk}/")
        profile.disable()
        counts.append(pstats.Stats(profile).total_calls)  # type: ignore[attr-defined]
        _submit(match, client, htmx=False)
    return int(statistics.median(counts))


def durable_write_ms(match_id: int, count: int) -> float:
    """The floor under any move: one committed one-row UPDATE, outside any view (a read never pays it)."""
    from django.db import transaction
    from django.db.models import F

    from games.models import Match

    samples = []
    for _ in range(count):
        started = time.perf_counter()
        with transaction.atomic():
            Match.objects.filter(pk=match_id).update(version=F("version"))
        samples.append((time.perf_counter() - started) * 1000)
    return round(statistics.median(samples), 2)


def main(argv: list[str] | None = None) -> int:
    from engine import GAMES

    parser = argparse.ArgumentParser(prog="python -m bench.web", description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=40, help="timed requests of each kind per game")
    parser.add_argument("--game", choices=sorted(GAMES), help="one game only")
    parser.add_argument(
        "--async-commit",
        action="store_true",
        help="GAMES_MOVE_SYNCHRONOUS_COMMIT = False: on PostgreSQL moves do not wait for the WAL flush",
    )
    args = parser.parse_args(argv)
    # Not setup_test_environment(): it instruments every template render to copy its context
    # for the test client, a cost no production server pays and the bare view never shows.
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    settings.ROOT_URLCONF = __name__
    settings.DEBUG = False
    if args.async_commit:
        settings.GAMES_MOVE_SYNCHRONOUS_COMMIT = False
    with throwaway_database():
        results = [measure(game, args.requests) for game in ([args.game] if args.game else sorted(GAMES))]
        floor = durable_write_ms(_fresh_match(sorted(GAMES)[0])[0].pk, args.requests)
    summary = {
        "database": connection.vendor,
        "python": sys.version.split()[0],
        "synchronous_commit": getattr(settings, "GAMES_MOVE_SYNCHRONOUS_COMMIT", True),
        "durable_write_ms": floor,
        "target_ratio": TARGET_RATIO,
        "results": results,
        "ok": all(r["ok"] for r in results),
    }
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
