"""The burst limits hold across gunicorn workers: a burst past a limit is refused with the sentence, and
nothing else is.

Three gunicorn workers run the project's own settings and limits, with the cache in Redis as in
production. One player fires moves and chat lines from many threads at once; the requests land on
different workers (the access log names each one's pid), and exactly the limit's count gets through
in all of them together. Another player chatting in the same moment is not refused.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

import pytest
import redis
from django.conf import settings
from django.test import Client

from accounts.models import User
from games.models import ChatMessage, Match, Move
from games.ratelimit import MESSAGES
from tests import faults
from tests.faults import ROOT, faults_redis_url, wait_until
from tests.games.factories import make_match

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow, pytest.mark.timeout(90)]

WORKERS = 3
MOVES, MOVE_LIMIT = 45, 30  # the project's move limit: 30 in any 10 seconds (config/settings.py)
CHATS, CHAT_LIMIT = 16, 10  # and chat: 10 in any 30 seconds
OTHER_CHATS = 4
WINDOW = 10  # seconds; a multiple of it starts a window of every limit fired here
THREADS = 12


@dataclass(frozen=True)
class Answer:
    who: str
    kind: str
    status: int
    body: str
    retry_after: str | None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def gunicorn(folder: Path) -> Iterator[tuple[int, Path]]:
    """gunicorn with three sync workers on config.settings; its port and its access log (status and pid)."""
    port, access = free_port(), folder / "access.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CELERY_", "EMAIL_", "PARLOUR_"))}
    env |= {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": faults.test_database_url(),
        "REDIS_URL": faults_redis_url(),
        # The session this test makes is signed with the test run's key.
        "SECRET_KEY": settings.SECRET_KEY,
        "DEBUG": "false",
        "PARLOUR_VAR_DIR": str(folder / "var"),
    }
    argv = [sys.executable, "-m", "gunicorn", "config.wsgi", "-w", str(WORKERS), "-b", f"127.0.0.1:{port}"]
    argv += ["--access-logfile", str(access), "--access-logformat", "%(s)s %(p)s %(U)s", "--timeout", "60"]
    log = (folder / "gunicorn.log").open("ab")
    process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        assert wait_until(lambda: _answers(port), timeout=30, every=0.3), (folder / "gunicorn.log").read_text()
        yield port, access
    finally:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=15)


def _answers(port: int) -> bool:
    try:
        return request(port, "GET", "/healthz", {})[0] == 200
    except OSError:
        return False


def request(
    port: int, method: str, path: str, headers: dict[str, str], body: str = ""
) -> tuple[int, str, http.client.HTTPResponse]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, body=body or None, headers=headers)
        response = connection.getresponse()
        return response.status, response.read().decode(), response
    finally:
        connection.close()


class Player:
    """A player's session (made here, as a login would) and CSRF token, taken from their table page."""

    def __init__(self, port: int, user: User, match: Match) -> None:
        client = Client()
        client.force_login(user)
        self.port, self.session = port, client.cookies["sessionid"].value
        status, _body, response = request(
            port, "GET", match.get_absolute_url(), {"Cookie": f"sessionid={self.session}"}
        )
        found = re.search(r"csrftoken=([A-Za-z0-9]+)", response.getheader("Set-Cookie") or "")
        assert status == 200 and found, f"precondition: the player sees their table ({status})"
        self.csrf = found.group(1)

    def post(self, path: str, data: dict[str, str]) -> tuple[int, str, str | None]:
        """A plain form post, as without JavaScript: the view redirects to the table, which is not fetched."""
        headers = {
            "Cookie": f"sessionid={self.session}; csrftoken={self.csrf}",
            "X-CSRFToken": self.csrf,
            "Content-Type": "application/x-www-form-urlencoded",
        }
        status, body, response = request(self.port, "POST", path, headers, urlencode(data))
        return status, body, response.getheader("Retry-After")


def at_the_start_of_a_window() -> None:
    """The limits count in fixed windows of wall-clock time: a burst that straddled two would get two counts."""
    time.sleep(WINDOW - time.time() % WINDOW + 0.05)


@pytest.mark.django_db(transaction=True)
def test_a_burst_past_the_limits_is_refused_across_workers_and_nobody_else_is(tmp_path: Path) -> None:
    # Each run's players get ids an earlier run may have used: counts still in Redis would be theirs.
    redis.Redis.from_url(faults_redis_url()).flushdb()
    match = make_match("karnoffel", players=4)
    match.refresh_from_db()
    seats = {s.number: s.user for s in match.seats.select_related("user")}
    burster_seat = match.engine.to_act(match.state)[0]
    other = seats[(burster_seat + 1) % 4]
    move = {
        "action": json.dumps(match.engine.legal_actions(match.state, burster_seat)[0]),
        "version": str(match.version),
    }
    play, chat = f"/m/{match.pk}/play/", f"/m/{match.pk}/chat/"
    taken = match.moves.filter(kind=Move.Kind.PLAYER).count()

    with gunicorn(tmp_path) as (port, access):
        burster, bystander = Player(port, seats[burster_seat], match), Player(port, other, match)
        jobs = [("burster", "move", burster, play, move)] * MOVES
        jobs += [("burster", "chat", burster, chat, {"text": f"burst {n}"}) for n in range(CHATS)]
        jobs += [("other", "chat", bystander, chat, {"text": f"meanwhile {n}"}) for n in range(OTHER_CHATS)]
        random.Random(14).shuffle(jobs)  # moves and both players' chat lines interleaved, in the same moment
        go = threading.Event()

        def fire(job: tuple[str, str, Player, str, dict[str, str]]) -> Answer:
            who, kind, player, path, data = job
            go.wait(timeout=30)  # the threads leave together; the later jobs follow as threads free up
            return Answer(who, kind, *player.post(path, data))

        at_the_start_of_a_window()
        began = time.monotonic()
        with ThreadPoolExecutor(THREADS) as pool:
            futures = [pool.submit(fire, job) for job in jobs]
            go.set()
            answers = [future.result() for future in futures]
        took = time.monotonic() - began
        # Give gunicorn a moment to flush its access log before it is read.
        assert wait_until(lambda: _logged(access) >= len(jobs), timeout=10, every=0.2)

    assert took < WINDOW - 1, f"the burst took {took:.1f} s, longer than one window of the limits"
    codes = {(a.who, a.kind, a.status) for a in answers}
    moves = [a for a in answers if a.kind == "move"]
    limited = [a for a in answers if a.status == 429]
    assert len([a for a in moves if a.status != 429]) == MOVE_LIMIT, codes
    assert len([a for a in answers if a.who == "burster" and a.kind == "chat" and a.status != 429]) == CHAT_LIMIT
    assert len(limited) == (MOVES - MOVE_LIMIT) + (CHATS - CHAT_LIMIT), codes
    assert all(a.who == "burster" and a.body == MESSAGES[a.kind] and int(a.retry_after or 0) >= 1 for a in limited)
    # Through the limit, the views answered as usual (back to the table): one move taken, the others stale.
    assert {a.status for a in answers if a.status != 429} == {302}, codes
    assert match.moves.filter(kind=Move.Kind.PLAYER).count() == taken + 1, "one move taken, not none and not twice"
    said = ChatMessage.objects.filter(match=match)
    assert said.filter(user=seats[burster_seat]).count() == CHAT_LIMIT
    assert said.filter(user=other).count() == OTHER_CHATS
    # The requests were shared out between the workers, which counted into the one number in Redis.
    pids = {pid for status, pid, path in _log_lines(access) if path in (play, chat)}
    assert len(pids) >= 2, f"one worker served the whole burst: {pids}"


def _log_lines(access: Path) -> list[tuple[str, str, str]]:
    """(status, <pid>, path) per request, as the access log format above writes them."""
    parts = [line.split(" ", 2) for line in access.read_text().splitlines()]
    return [(p[0], p[1], p[2]) for p in parts if len(p) == 3]


def _logged(access: Path) -> int:
    return len(_log_lines(access)) if access.exists() else 0
