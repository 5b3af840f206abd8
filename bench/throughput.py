"""Requests per second of each main page as a ratio of ``/healthz``'s, at a fixed concurrency; prints JSON.

    .venv/bin/python -m bench.throughput --seconds 15
    .venv/bin/python -m bench.throughput --seconds 15 --profile   # plus queries per request (DEBUG on)

One stack (bench/_stack.py: gunicorn with 4 workers on PostgreSQL and Redis), then for each page in
turn ``--connections`` locust users with no wait between requests, each logged in as the same
player, for ``--seconds``. ``/healthz`` is measured first and last, and the ratios use the mean of
the two, so that a machine whose load drifts during the run (other processes) skews them less.
``/healthz`` is measured anonymously (one ``SELECT 1``, as a load balancer asks) and with the
player's session (plus the session and user reads that every signed-in page pays); the ratios are
printed against both.
Pages: the 204 poll (nothing changed), a table page, the dashboard of a player with a handful of
matches, and a league standings page. Targets: poll >= 0.9, table >= 0.6, dashboard and standings >= 0.5.

``--profile`` runs the stack with DEBUG on, and a Django subprocess counts the queries and the time
of one request to each page through the test client, by ``connection.queries``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from typing import Any

import gevent  # type: ignore[import-untyped]
import locust  # gevent patches the standard library as it loads: only plain stdlib modules come before
from locust import FastHttpUser, constant, task
from locust.env import Environment

from bench._stack import Stack

TARGETS = {"poll": 0.9, "table": 0.6, "dashboard": 0.5, "standings": 0.5}
CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
LOGIN: dict[str, str] = {}


class PageUser(FastHttpUser):
    abstract = True
    wait_time = constant(0)
    path = "/healthz"
    login = True

    def on_start(self) -> None:
        if not self.login:
            return
        page = self.client.get("/accounts/login/", name="login")
        token = CSRF_INPUT.search(page.text or "")
        data = {"login": LOGIN["email"], "password": LOGIN["password"], "csrfmiddlewaretoken": token.group(1)}  # type: ignore[union-attr]
        self.client.post(
            "/accounts/login/", data=data, headers={"Referer": f"{self.host}/accounts/login/"}, name="login"
        )

    @task
    def page(self) -> None:
        self.client.get(self.path, name="page", headers={"HX-Request": "true"} if "/poll/" in self.path else {})


def measure(host: str, path: str, *, connections: int, seconds: float, login: bool) -> dict[str, Any]:
    user = type("Page", (PageUser,), {"host": host, "path": path, "login": login, "abstract": False})
    env = Environment(user_classes=[user], events=locust.events)
    runner = env.create_local_runner()
    runner.start(connections, spawn_rate=connections)
    gevent.sleep(3)  # every user logged in and warm
    env.stats.reset_all()
    started = time.monotonic()
    gevent.sleep(seconds)
    elapsed = time.monotonic() - started
    entry = env.stats.get("page", "GET")
    runner.quit()
    return {
        "path": path,
        "rps": round(entry.num_requests / elapsed, 1),
        "p50_ms": entry.get_response_time_percentile(0.5),
        "p95_ms": entry.get_response_time_percentile(0.95),
        "failures": entry.num_failures,
        "requests": entry.num_requests,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--profile", action="store_true", help="DEBUG on; queries per request of each page")
    args = parser.parse_args(argv)

    with Stack(database="parlour_throughput", redis_db=4, ports=(8321,), beat=False, debug=args.profile) as stack:
        seeded = stack.run_django("seed", "--users", "20", "--matches", "4", "--leagues")
        player = seeded["players"][0]
        LOGIN.update(email=player["email"], password=seeded["password"])
        pages = stack.run_django("pages", player["email"])
        if args.profile:
            print(json.dumps(stack.run_django("profile", player["email"]), indent=1))
            return
        host = stack.hosts[0]
        urls = pages["urls"]
        # /healthz twice each way: anonymous (what a load balancer sends: one SELECT 1) and with the
        # player's session (the session and user reads every page of a signed-in player pays first).
        plan = [
            ("healthz", "/healthz", False),
            ("healthz_signed_in", "/healthz", True),
            ("poll", urls["poll"], True),
            ("table", urls["table"], True),
            ("dashboard", urls["dashboard"], True),
            ("standings", urls["standings"], True),
            ("healthz_signed_in_again", "/healthz", True),
            ("healthz_again", "/healthz", False),
        ]
        runs = {}
        for name, path, login in plan:
            runs[name] = measure(host, path, connections=args.connections, seconds=args.seconds, login=login)
            print(json.dumps({name: runs[name]}), file=sys.stderr)
    base = (runs["healthz"]["rps"] + runs["healthz_again"]["rps"]) / 2
    signed_in = (runs["healthz_signed_in"]["rps"] + runs["healthz_signed_in_again"]["rps"]) / 2
    ratios = {name: round(runs[name]["rps"] / base, 2) for name in TARGETS}
    ratios_signed_in = {name: round(runs[name]["rps"] / signed_in, 2) for name in TARGETS}
    print(
        json.dumps(
            {
                "connections": args.connections,
                "seconds": args.seconds,
                "healthz_rps_mean": round(base, 1),
                "healthz_signed_in_rps_mean": round(signed_in, 1),
                "runs": runs,
                "ratios": ratios,
                "ratios_to_signed_in_healthz": ratios_signed_in,
                "targets": TARGETS,
                "meets": {name: ratios[name] >= target for name, target in TARGETS.items()},
                "meets_against_signed_in": {name: ratios_signed_in[name] >= t for name, t in TARGETS.items()},
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
