"""Fault tests: real Celery workers (and beat) against the test database and Redis, with parts failing.

The worker runs the project's settings plus a generated module in the test's temporary folder: the
test database by name (pytest-django's ``test_...`` copy, committed rows only: the tests use
``transactional_db``), a Redis database of its own (``FAULTS_REDIS_DB``, emptied by the Redis test)
and a queue of its own, so that it never takes work from another test or from ``make run``. Every
process is started in its own process group and ended in ``finally``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from celery import Celery
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
# Apart from the db the other Redis tests use: the Redis fault test empties this one.
FAULTS_REDIS_DB = 14


def faults_redis_url() -> str:
    parts = urlsplit(os.environ["REDIS_URL"])
    return urlunsplit((parts.scheme, parts.netloc, f"/{FAULTS_REDIS_DB}", "", ""))


def test_database_url() -> str:
    """The database pytest-django made for this test run (a ``test_`` name), as a URL for a subprocess."""
    db = settings.DATABASES["default"]
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


class Stack:
    """Workers and beat for one test, with their queue, settings and logs under ``folder``."""

    def __init__(self, folder: Path, *, extra_settings: str = "", beat_every: float | None = None) -> None:
        self.folder, self.queue = folder, f"faults-{uuid.uuid4().hex[:10]}"
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        schedule = ""
        if beat_every is not None:
            tasks = ("deadline_sweep", "bot_sweep", "mail_sweep")
            entries = ", ".join(f'"{t}": {{"task": "games.tasks.{t}", "schedule": {beat_every}}}' for t in tasks)
            schedule = f"CELERY_BEAT_SCHEDULE = {{{entries}}}\n"
        (folder / "faults_settings.py").write_text(
            "from config.settings import *  # noqa: F403\n"
            f"CELERY_TASK_DEFAULT_QUEUE = {self.queue!r}\n"
            "BOT_MOVE_DELAY_SECONDS = 0\n"
            "GAMES_TURN_MAIL_GRACE_SECONDS = 0\n"
            "PARLOUR_RATE_LIMITS = {}\n"
            f"{schedule}{extra_settings}\n"
        )
        self.app = Celery("faults", broker=faults_redis_url(), set_as_current=False)
        self.app.conf.task_default_queue = self.queue

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CELERY_", "EMAIL_"))}
        return env | {
            "DJANGO_SETTINGS_MODULE": "faults_settings",
            "PYTHONPATH": os.pathsep.join([str(self.folder), str(ROOT)]),
            "DATABASE_URL": test_database_url(),
            "REDIS_URL": faults_redis_url(),
            "PARLOUR_VAR_DIR": str(self.folder / "var"),
            "DEBUG": "false",
        }

    def start(self, name: str) -> None:
        """``worker-*``: a prefork worker with two processes; ``beat``: the generated schedule."""
        command = [sys.executable, "-m", "celery", "-A", "config"]
        if name == "beat":
            command += ["beat", "-s", str(self.folder / "beat-schedule"), "--loglevel=INFO"]
        else:
            command += ["worker", "--pool=prefork", "--concurrency=2", f"--hostname={name}-{self.queue}@%h"]
            command += ["--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=INFO"]
        log = (self.folder / f"{name}.log").open("ab")
        self.processes[name] = subprocess.Popen(
            command, cwd=ROOT, env=self.env(), stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        process = self.processes.pop(name)
        with suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=15)

    def stop(self) -> None:
        for name in list(self.processes):
            self.kill(name, signal.SIGTERM)

    def send(self, task: str, *args: Any) -> None:
        self.app.send_task(f"games.tasks.{task}", args=args)

    def logs(self) -> str:
        return "\n".join(f"--- {p.name}\n{p.read_text()[-3000:]}" for p in sorted(self.folder.glob("*.log")))


@contextmanager
def running(folder: Path, *names: str, **options: Any) -> Iterator[Stack]:
    stack = Stack(folder, **options)
    try:
        for name in names:
            stack.start(name)
        yield stack
    finally:
        stack.stop()
        stack.app.close()


def wait_until(
    predicate: Callable[[], bool], *, timeout: float, every: float = 0.5, between: Callable[[], None] | None = None
) -> bool:
    """True once ``predicate`` holds; False after ``timeout`` seconds. ``between`` runs after each miss."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        if between is not None:
            between()
        time.sleep(every)
    return predicate()


def replay_problems(match_ids: list[int]) -> list[str]:
    """What is wrong with these matches' records: a ply missing or doubled, or a replay unlike the snapshot."""
    from engine.replay import state_at
    from games.models import Match, Move

    problems = []
    for match in Match.objects.filter(pk__in=match_ids):
        actions = list(Move.objects.filter(match=match).order_by("ply").values("ply", "seat", "action"))
        if [a["ply"] for a in actions] != list(range(match.version)):
            problems.append(f"match {match.pk}: plies {[a['ply'] for a in actions]} for version {match.version}")
        elif state_at(match.game, match.players, match.options, match.seed, actions) != match.state:
            problems.append(f"match {match.pk}: the moves do not replay to the stored state")
    return problems
