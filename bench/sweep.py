"""Deadlines under load: overdue seats handled by the real sweep and a real Celery worker, each exactly once.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/parlour REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python -m bench.sweep [--matches 2500] [--due 200] [--history 50000]

On a throwaway copy of the ``DATABASE_URL`` database (``test_<name>``, made and dropped here) it builds
``--matches`` four-player Rapscallion matches in their sealed-bid step, every seat awaited and overdue
(10,000 deadlines by default), beside ``--history`` finished matches and a few hundred active ones whose
deadlines are still ahead, so the sweep reads a table shaped like production's: most seats have no
running clock. ``--due`` more deadlines fall due during the run; their tasks are scheduled (with an ETA)
as a turn change schedules them, half before the sweep starts and half while it works.

A real worker (``celery -A config worker --pool prefork --concurrency 2``) is started on a Redis
database of its own (``--redis-db``, which must be empty) and stopped at the end. Beat is replaced by
publishing the sweep task every ``--sweep-every`` seconds (60, as beat does), starting at once.

Prints JSON: seconds until every overdue deadline was handled, the timeout moves counted (each seat
exactly once, no two moves at one ply), the sweep query's plan, and the lateness of the deadlines due
during the run (deadline to the timeout move's ``created_at``). Targets (issue 25): all within 20 s; p95 lateness
under 2 s. Users here want no turn mail: the bench measures deadlines, not the outbox.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

TARGET_SECONDS = 20.0
TARGET_P95_LATENESS = 2.0
WORKER_READY_TIMEOUT = 60.0
ROOT = Path(__file__).resolve().parent.parent


def _with_path(url: str, path: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, parts.fragment))


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.sweep", description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2500, help="overdue matches, four overdue seats each")
    parser.add_argument("--due", type=int, default=200, help="deadlines falling due during the run (a multiple of 4)")
    parser.add_argument("--history", type=int, default=50_000, help="finished matches whose seats have no deadline")
    parser.add_argument("--ahead", type=int, default=500, help="active matches whose deadlines are hours ahead")
    parser.add_argument("--sweep-every", type=float, default=60.0, help="seconds between sweeps (beat: 60)")
    parser.add_argument("--redis-db", type=int, default=13, help="an empty Redis database for the bench's broker")
    parser.add_argument("--give-up", type=float, default=300.0, help="seconds before the run is declared failed")
    return parser.parse_args(argv)


def _environment(args: argparse.Namespace) -> tuple[str, str]:
    """Point this process at PostgreSQL and the bench's own Redis database, before Django loads settings."""
    database = os.environ.get("DATABASE_URL", "")
    redis = os.environ.get("REDIS_URL", "")
    if not database.startswith(("postgres://", "postgresql://")) or not redis.startswith("redis://"):
        raise SystemExit("Set DATABASE_URL=postgres://... and REDIS_URL=redis://... (see the module's docstring).")
    broker = _with_path(redis, f"/{args.redis_db}")
    os.environ.update({"DJANGO_SETTINGS_MODULE": "config.settings", "REDIS_URL": broker, "CELERY_BROKER_URL": broker})
    os.environ.pop("CELERY_TASK_ALWAYS_EAGER", None)
    return database, broker


# --- the data --------------------------------------------------------------


def build(args: argparse.Namespace, now: datetime) -> dict[str, Any]:
    """The matches, through the services once and then as bulk copies of that one; returns their ids."""
    from accounts.models import User
    from games.clocks import TimeControl
    from games.models import Match, Seat
    from games.services import SeatSpec, match_create

    users = [
        User.objects.create_user(f"sweep-bench-{n}@example.com", "bench", notify=User.Notify.NEVER) for n in range(4)
    ]
    day = timedelta(days=1)
    template = match_create(
        game="rapscallion",
        players=4,
        options={},
        created_by=users[0],
        seats=[SeatSpec(user=u) for u in users],
        time_control=TimeControl(initial=day, increment=day, cap=day),
    )
    assert template.engine.to_act(template.state) == [0, 1, 2, 3], "the copies need a sealed step"
    copy = {
        f: getattr(template, f)
        for f in ("game", "players", "options", "seed", "seed_hash", "state", "status", "time_control")
    }
    rng = random.Random(1)

    def matches(count: int, **fields: Any) -> list[int]:
        rows = Match.objects.bulk_create([Match(**{**copy, **fields}) for _ in range(count)], batch_size=1000)
        return [row.pk for row in rows]

    def seats(match_ids: list[int], deadline: Any, *, own_players: bool = True, **fields: Any) -> None:
        """Four seats a match; players of their own (a timeout locks nobody else's row), or the same four."""
        players = users * len(match_ids)
        if own_players:
            stamp = time.perf_counter_ns()
            fresh = [
                User(email=f"sweep-{stamp}-{i}@example.com", password="!", notify=User.Notify.NEVER)
                for i in range(4 * len(match_ids))
            ]
            players = User.objects.bulk_create(fresh, batch_size=4000)
        rows = [
            Seat(match_id=m, number=n, user=players[4 * i + n], joined=True, deadline=deadline(), **fields)
            for i, m in enumerate(match_ids)
            for n in range(4)
        ]
        Seat.objects.bulk_create(rows, batch_size=4000)

    history = matches(args.history, state={}, status=Match.Status.FINISHED)
    seats(history, lambda: None, own_players=False)
    ahead = matches(args.ahead)
    seats(ahead, lambda: now + timedelta(hours=rng.uniform(1, 20)), awaiting=True)
    overdue = matches(args.matches)
    seats(overdue, lambda: now - timedelta(seconds=rng.uniform(1, 600)), awaiting=True)
    due = matches(args.due // 4)
    seats(due, lambda: now + timedelta(days=1), awaiting=True)  # set for real when the run starts
    return {"overdue": overdue, "due": due, "template": template.pk}


def plan() -> str:
    """The sweep's query as PostgreSQL runs it on the loaded table."""
    from django.db import connection
    from django.utils import timezone

    from games.tasks import overdue_seats

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_seat")
        cursor.execute("ANALYZE games_match")
    query = overdue_seats(now=timezone.now()).values_list("match_id", flat=True)[:20_000]
    return query.explain(analyze=True)


DueSeat = tuple[int, int, int, datetime]  # seat id, match id, seat number, deadline


def schedule_due(due: list[int], start: datetime, *, spread: float) -> tuple[list[DueSeat], list[DueSeat]]:
    """Deadlines falling due during the run; the first half's tasks are scheduled now, as a turn change
    schedules them. Returns all of them, and the half whose tasks are left to schedule during the run."""
    from games.followups import deadline_schedule
    from games.models import Seat

    rng = random.Random(2)
    result: list[DueSeat] = []
    for seat in Seat.objects.filter(match_id__in=due).order_by("pk"):
        deadline = start + timedelta(seconds=rng.uniform(2, spread))
        Seat.objects.filter(pk=seat.pk).update(deadline=deadline)
        result.append((seat.pk, seat.match_id, seat.number, deadline))
    rng.shuffle(result)
    first, second = result[: len(result) // 2], result[len(result) // 2 :]
    for seat_id, _match, _number, deadline in first:
        deadline_schedule(seat_id=seat_id, deadline=deadline)
    return result, second


# --- the worker ------------------------------------------------------------


def start_worker(database: str, broker: str, log: Any) -> subprocess.Popen[bytes]:
    env = {**os.environ, "DATABASE_URL": database, "REDIS_URL": broker, "CELERY_BROKER_URL": broker}
    command = [
        str(Path(sys.executable).parent / "celery"),
        "-A",
        "config",
        "worker",
        "--pool",
        "prefork",
        "--concurrency",
        "2",
        "--loglevel",
        "WARNING",
        "--without-gossip",
        "--without-mingle",
    ]
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def wait_ready(worker: subprocess.Popen[bytes]) -> float:
    from config.celery import app

    started = time.perf_counter()
    while time.perf_counter() - started < WORKER_READY_TIMEOUT:
        if worker.poll() is not None:
            raise RuntimeError("The worker stopped while starting.")
        if app.control.ping(timeout=0.5):
            return time.perf_counter() - started
    raise RuntimeError("The worker did not answer within a minute.")


def stop_worker(worker: subprocess.Popen[bytes]) -> None:
    """A warm shutdown (SIGTERM to the worker's own process group), then SIGKILL if it lingers."""
    if worker.poll() is not None:
        return
    os.killpg(worker.pid, signal.SIGTERM)
    try:
        worker.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait(timeout=10)


# --- the run ---------------------------------------------------------------


def run(args: argparse.Namespace, ids: dict[str, Any]) -> dict[str, Any]:
    from django.db.models import Count
    from django.utils import timezone

    from games.followups import deadline_schedule
    from games.models import Move
    from games.tasks import deadline_sweep

    overdue_expected = 4 * len(ids["overdue"])
    start = timezone.now()
    due_seats, late_published = schedule_due(ids["due"], start, spread=40.0)
    timeouts = Move.objects.filter(kind=Move.Kind.TIMEOUT)
    # The copies were made in one bulk INSERT each: their ids are ranges, cheap to count by.
    overdue_moves = timeouts.filter(match_id__gte=min(ids["overdue"]), match_id__lte=max(ids["overdue"]))
    due_moves = timeouts.filter(match_id__gte=min(ids["due"]), match_id__lte=max(ids["due"]))
    began = time.perf_counter()
    deadline_sweep.apply_async()
    sweeps, last_sweep, handled_at, published_rest = [0.0], began, None, False
    progress: list[tuple[float, int]] = []
    while time.perf_counter() - began < args.give_up:
        time.sleep(0.5)
        elapsed = time.perf_counter() - began
        if not published_rest and elapsed > 1.0:  # turn changes while the backlog is worked through
            for seat_id, _match, _number, deadline in late_published:
                deadline_schedule(seat_id=seat_id, deadline=deadline)
            published_rest = True
        done = overdue_moves.count()
        if not progress or elapsed - progress[-1][0] >= 5.0:
            progress.append((round(elapsed, 1), done))
        if handled_at is None and done >= overdue_expected:
            handled_at = elapsed
        if handled_at is not None and due_moves.count() >= len(due_seats):
            break
        if elapsed - (last_sweep - began) >= args.sweep_every:
            deadline_sweep.apply_async()
            sweeps, last_sweep = [*sweeps, round(elapsed, 1)], time.perf_counter()
    time.sleep(2.0)  # anything still running would show up as a duplicate
    per_seat = timeouts.values("match_id", "seat").annotate(n=Count("id"))
    moved = {(m["match_id"], m["seat"]): m["created_at"] for m in timeouts.values("match_id", "seat", "created_at")}
    lateness = sorted(
        (moved[(match, number)] - deadline).total_seconds()
        for _seat, match, number, deadline in due_seats
        if (match, number) in moved
    )
    overdue_count = overdue_moves.count()
    duplicates = per_seat.filter(n__gt=1).count()
    ply_duplicates = Move.objects.values("match_id", "ply").annotate(n=Count("id")).filter(n__gt=1).count()
    p95 = lateness[max(0, round(len(lateness) * 0.95) - 1)] if lateness else None
    return {
        "overdue_deadlines": overdue_expected,
        "seconds_until_all_handled": round(handled_at, 2) if handled_at is not None else None,
        "timeout_moves_for_overdue": overdue_count,
        "seats_timed_out_more_than_once": duplicates,
        "duplicate_match_ply": ply_duplicates,
        "sweeps_published_at": sweeps,
        "progress_seconds_moves": progress,
        "due_during_run": len(due_seats),
        "due_handled": len(lateness),
        "lateness_seconds": {
            "median": round(statistics.median(lateness), 3) if lateness else None,
            "p95": round(p95, 3) if p95 is not None else None,
            "max": round(lateness[-1], 3) if lateness else None,
        },
        "ok": (
            handled_at is not None
            and handled_at <= TARGET_SECONDS
            and overdue_count == overdue_expected
            and duplicates == 0
            and ply_duplicates == 0
            and len(lateness) == len(due_seats)
            and p95 is not None
            and p95 <= TARGET_P95_LATENESS
        ),
    }


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    database, broker = _environment(args)
    import django

    django.setup()
    import redis
    from django.conf import settings
    from django.db import connection
    from django.utils import timezone

    from bench._stack import throwaway_database

    client = redis.Redis.from_url(broker)
    if client.dbsize():
        raise SystemExit(f"Redis database {args.redis_db} is not empty; pick another with --redis-db.")
    with throwaway_database() as test_name:
        worker_database = _with_path(database, f"/{test_name}")
        log = tempfile.NamedTemporaryFile(prefix="bench-sweep-worker-", suffix=".log", delete=False)  # noqa: SIM115
        worker = None
        try:
            built = time.perf_counter()
            ids = build(args, timezone.now())
            build_seconds = time.perf_counter() - built
            query_plan = plan()
            worker = start_worker(worker_database, broker, log)
            ready = wait_ready(worker)
            result = run(args, ids)
        finally:
            if worker is not None:
                stop_worker(worker)
            client.flushdb()
            connection.close()
            getattr(connection, "close_pool", lambda: None)()  # PostgreSQL's pool: its sessions would block the drop
    summary = {
        "database": f"PostgreSQL {getattr(connection, 'pg_version', 0) // 10000}",
        "broker": "redis",
        "worker": "prefork, concurrency 2",
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "matches": {
            "overdue": len(ids["overdue"]),
            "due": len(ids["due"]),
            "history": args.history,
            "ahead": args.ahead,
        },
        "build_seconds": round(build_seconds, 1),
        "worker_ready_seconds": round(ready, 1),
        "batch_matches": getattr(settings, "GAMES_DEADLINE_SWEEP_BATCH", 25),
        "targets": {"seconds": TARGET_SECONDS, "p95_lateness_seconds": TARGET_P95_LATENESS},
        **result,
        "sweep_plan": query_plan.splitlines(),
        "uses_partial_index": "seat_deadline_running" in query_plan and "Seq Scan" not in query_plan,
        "worker_log": log.name,
    }
    summary["ok"] = summary["ok"] and summary["uses_partial_index"]
    print(json.dumps(summary, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
