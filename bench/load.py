"""Simulated players against the whole local stack; prints JSON.

    .venv/bin/python -m bench.load --users 50 --seconds 60
    .venv/bin/python -m bench.load --users 200 --seconds 300            # the target: p95 < 150 ms, no errors
    .venv/bin/python -m bench.load --find-max --seconds 60              # the most players that still meet the p95
    .venv/bin/python -m bench.load --users 100 --seconds 120 --scale-out  # two gunicorns, two workers

Each simulated player logs in (allauth's form), then opens their dashboard, their tables (the page,
the 204 poll, the live fragment), their league standings, and plays: it reads the live fragment of
one of its matches, and when a move button (``name="action" value="<json>"``) is there, posts one
of them as the browser would with htmx. Every match is between four simulated players, so every
move is a real one. After the run ``bench._stack check`` replays every match's moves and compares
with the stored snapshot, and counts plies and mails (see docs/load.md).

bench/_stack.py starts gunicorn (4 workers), a Celery worker and beat, on PostgreSQL and Redis,
loopback only, on a fresh database ``parlour_load``.
"""

from __future__ import annotations

import argparse
import html
import itertools
import json
import random
import re
import sys
import time
from collections import Counter
from typing import Any

import gevent  # type: ignore[import-untyped]

# gevent patches the standard library as locust loads: nothing above imports ssl, socket users or threads.
import locust
from locust import FastHttpUser, between, task
from locust.contrib.fasthttp import LocustUserAgent
from locust.env import Environment
from locust.stats import StatsEntry

from bench._stack import Stack

P95_TARGET_MS = 150.0
# htmx's "stop polling" answer (a finished match's poll) is a success, as it was for python-requests.
LocustUserAgent.valid_response_codes = LocustUserAgent.valid_response_codes | {286}
BUTTON = re.compile(r'name="action" value="([^"]*)"')
SELECT = re.compile(r'<select name="action">(.*?)</select>', re.S)
OPTION = re.compile(r'<option value="([^"]*)"')
VERSION = re.compile(r'name="version" value="(\d+)"')
CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
MATCH_LINK = re.compile(r'href="/m/(\d+)/"')
REFUSAL = '<p class="error" role="alert">'

# Filled before the run: the players' logins, handed out one per simulated player.
PLAYERS: list[dict[str, Any]] = []
PASSWORD = ""
_next_player = itertools.count()
REFUSED: Counter[str] = Counter()
# How many simulated players have logged in and read their dashboard: the measured window starts after all have.
STARTED = [0]


def legal_moves(fragment: str) -> tuple[list[str], int | None]:
    """The actions the table offers (button values and select options, as JSON text) and the page's version."""
    actions = [html.unescape(v) for v in BUTTON.findall(fragment)]
    for block in SELECT.findall(fragment):
        actions += [html.unescape(v) for v in OPTION.findall(block)]
    version = VERSION.search(fragment)
    return actions, int(version.group(1)) if version else None


def _cookie(user: FastHttpUser, name: str) -> str | None:
    return next((c.value for c in user.client.cookiejar if c.name == name), None)


class Player(FastHttpUser):
    """One player. geventhttpclient (``FastHttpUser``), not python-requests: the load generator runs on the same
    two cores as the stack it measures, and requests costs several times the CPU per request."""

    abstract = True
    wait_time = between(1, 3)

    def on_start(self) -> None:
        me = PLAYERS[next(_next_player) % len(PLAYERS)]
        self.email, self.standings_url = me["email"], me.get("standings")
        self.matches: list[int] = []
        self.versions: dict[int, int] = {}
        page = self.client.get("/accounts/login/", name="login form")
        token = CSRF_INPUT.search(page.text or "")
        data = {"login": self.email, "password": PASSWORD, "csrfmiddlewaretoken": token.group(1) if token else ""}
        headers = {"Referer": f"{self.host}/accounts/login/"}
        with self.client.post("/accounts/login/", data=data, headers=headers, name="login", catch_response=True) as r:
            if _cookie(self, "sessionid") is None:
                r.failure(f"{self.email} was not logged in")
        self.dashboard()
        STARTED[0] += 1  # greenlets, not threads: no lock needed

    def _htmx(self) -> dict[str, str]:
        return {
            "HX-Request": "true",
            "X-CSRFToken": _cookie(self, "csrftoken") or "",
            "Referer": self.host or "",
        }

    @task(2)
    def dashboard(self) -> None:
        page = self.client.get("/", name="dashboard")
        if not self.matches:
            # The player's own matches: the dashboard lists them before the matches open to watch.
            own = (page.text or "").split("Open matches to watch")[0]
            self.matches = list(dict.fromkeys(int(m) for m in MATCH_LINK.findall(own)))[:12]

    @task(1)
    def standings(self) -> None:
        if self.standings_url:
            self.client.get(self.standings_url, name="standings")

    @task(3)
    def table(self) -> None:
        if self.matches:
            self.client.get(f"/m/{random.choice(self.matches)}/", name="table")

    @task(6)
    def poll(self) -> None:
        if not self.matches:
            return
        match_id = random.choice(self.matches)
        version = self.versions.get(match_id, 0)
        response = self.client.get(f"/m/{match_id}/poll/?v={version}&c=0", headers=self._htmx(), name="poll")
        if response.status_code == 200:  # the table changed: the fragment came instead of the 204; note its version
            found = VERSION.search(response.text or "")
            if found:
                self.versions[match_id] = int(found.group(1))

    @task(6)
    def move(self) -> None:
        """Read the live fragment of the player's matches in turn until one offers moves; play one."""
        for match_id in random.sample(self.matches, len(self.matches)):
            fragment = self.client.get(f"/m/{match_id}/poll/", headers=self._htmx(), name="live fragment")
            actions, version = legal_moves(fragment.text or "")
            if version is not None:
                self.versions[match_id] = version
            if not actions or version is None:
                continue
            data = {"action": random.choice(actions), "version": str(version)}
            with self.client.post(
                f"/m/{match_id}/play/", data=data, headers=self._htmx(), name="move", catch_response=True
            ) as response:
                if response.status_code == 200 and REFUSAL in (response.text or ""):
                    # A refusal is an answer, not an error: a sealed bid racing another, say. Counted apart.
                    REFUSED[(response.text or "").split(REFUSAL, 1)[1].split("<", 1)[0][:80]] += 1
                    response.success()
            return


def _player_classes(hosts: list[str]) -> list[type[locust.User]]:
    """One class per gunicorn: locust spreads the simulated players evenly over them."""
    return [type(f"Player{i}", (Player,), {"host": host, "abstract": False}) for i, host in enumerate(hosts)]


def _percentile(counts: dict[int, int], fraction: float) -> float:
    total = sum(counts.values())
    if not total:
        return 0.0
    seen = 0
    for value in sorted(counts):
        seen += counts[value]
        if seen >= fraction * total:
            return float(value)
    return float(max(counts))


def _summary(env: Environment, seconds: float) -> dict[str, Any]:
    pages: dict[str, Any] = {}
    merged: Counter[int] = Counter()
    requests = failures = 0
    for (name, method), entry in sorted(env.stats.entries.items()):
        assert isinstance(entry, StatsEntry)
        pages[f"{method} {name}"] = {
            "requests": entry.num_requests,
            "failures": entry.num_failures,
            "rps": round(entry.num_requests / seconds, 1),
            **{f"p{q}_ms": entry.get_response_time_percentile(q / 100) for q in (50, 95, 99)},
        }
        requests += entry.num_requests
        failures += entry.num_failures
        if not name.startswith("login"):
            merged.update(entry.response_times)
    p95 = _percentile(merged, 0.95)
    return {
        "seconds": round(seconds, 1),
        "requests": requests,
        "rps": round(requests / seconds, 1),
        "p95_ms_pages": p95,
        "p99_ms_pages": _percentile(merged, 0.99),
        "pages": pages,
        "errors": failures,
        "error_kinds": {str(e.error)[:160]: e.occurrences for e in env.stats.errors.values()},
        "refused_moves": dict(REFUSED),
        "meets_p95": p95 < P95_TARGET_MS and failures == 0,
    }


def run_locust(hosts: list[str], *, users: int, seconds: float, spawn_rate: float) -> dict[str, Any]:
    env = Environment(user_classes=_player_classes(hosts), events=locust.events)
    runner = env.create_local_runner()
    REFUSED.clear()
    runner.start(users, spawn_rate=spawn_rate)
    # The clock starts once every player has logged in (or after a minute): the figures are for the full load,
    # without the log-ins, which a real player makes once in weeks.
    STARTED[0] = 0
    waited = time.monotonic() + users / spawn_rate + 60
    while STARTED[0] < users and time.monotonic() < waited:
        gevent.sleep(0.5)
    env.stats.reset_all()
    started = time.monotonic()
    gevent.sleep(seconds)
    elapsed = time.monotonic() - started
    summary = _summary(env, elapsed)
    runner.quit()
    return {"users": users, **summary}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--spawn-rate", type=float, default=20)
    parser.add_argument("--find-max", action="store_true", help="step the players up until the p95 is missed")
    parser.add_argument("--steps", default="25,50,100,150,200,300,400", help="the player counts --find-max tries")
    parser.add_argument("--scale-out", action="store_true", help="two gunicorn instances and two Celery workers")
    parser.add_argument("--matches", type=int, default=3, help="matches per table of four players")
    args = parser.parse_args(argv)

    steps = [int(s) for s in args.steps.split(",")] if args.find_max else [args.users]
    ports = (8311, 8312) if args.scale_out else (8311,)
    result: dict[str, Any] = {"scale_out": args.scale_out, "gunicorn": len(ports), "web_workers_each": 4}
    # Scale-out: turn mails without the ten-minute grace, so that mail is sent within the run and counted.
    extra = "GAMES_TURN_MAIL_GRACE_SECONDS = 5\n" if args.scale_out else ""
    with Stack(ports=ports, celery_workers=2 if args.scale_out else 1, extra_settings=extra) as stack:
        seeded = stack.run_django("seed", "--users", str(max(steps)), "--matches", str(args.matches), "--leagues")
        global PASSWORD
        PASSWORD = seeded["password"]
        runs = []
        for users in steps:
            PLAYERS[:] = seeded["players"][:users]
            run = run_locust(stack.hosts, users=users, seconds=args.seconds, spawn_rate=args.spawn_rate)
            runs.append(run)
            print(json.dumps({k: v for k, v in run.items() if k != "pages"}), file=sys.stderr)
            if args.find_max and not run["meets_p95"]:
                break
        # Let the worker finish what the last moves queued before the snapshots are checked.
        time.sleep(5)
        result["check"] = stack.run_django("check")
    if args.find_max:
        passing = [r["users"] for r in runs if r["meets_p95"]]
        result["max_users_meeting_p95"] = max(passing) if passing else 0
        result["steps"] = runs
    else:
        result |= runs[0]
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
