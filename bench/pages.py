"""CPU per request of each main page in this process, beside a signed-in ``/healthz``; prints JSON.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/parlour_pages .venv/bin/python -m bench.pages [--requests 200]

The pages of ``bench.throughput`` (the 204 poll, a table, the dashboard, a league's standings), seeded the
same way (``bench._stack.seed``: 20 players, four matches per table of four, a league season) in a
throwaway test database made from ``DATABASE_URL``, and requested through Django's whole handler (every
middleware, the session, the login) by the test client, with DEBUG off and the page cache as configured
(Redis at ``REDIS_URL``, emptied first). Each page is warmed, then timed ``--requests`` times: the median of
this process's CPU time per request, and the Python function calls of one request (cProfile), which load
on the machine does not change. ``bench.throughput`` measures the same pages through gunicorn and the
network; this one says where the time goes without them, and runs on a busy machine.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import statistics
import time
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["DEBUG"] = "false"

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.core.cache import caches  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

from bench._stack import pages, seed, throwaway_database  # noqa: E402


def _cpu_ms(client: Client, url: str, headers: dict[str, str], requests: int, expect: int) -> float:
    samples = []
    for _ in range(requests):
        started = time.process_time()
        response = client.get(url, headers=headers)
        samples.append((time.process_time() - started) * 1000)
        if response.status_code != expect:
            raise SystemExit(f"{url}: expected {expect}, got {response.status_code}")
    return round(statistics.median(samples), 3)


def _calls(client: Client, url: str, headers: dict[str, str]) -> int:
    profile = cProfile.Profile()
    profile.enable()
    client.get(url, headers=headers)
    profile.disable()
    return pstats.Stats(profile).total_calls  # type: ignore[attr-defined]


def measure(requests: int) -> dict[str, Any]:
    seeded = seed(users=20, matches_per_group=4, leagues=True)
    player = seeded["players"][0]
    client = Client()
    client.login(username=player["email"], password=seeded["password"])
    urls = pages(player["email"])["urls"]
    result: dict[str, Any] = {}
    for page, url in urls.items():
        # The poll as htmx asks for it, answered 204 (nothing changed); the healthz here is a signed-in one.
        headers, expect = ({"HX-Request": "true"}, 204) if page == "poll" else ({}, 200)
        name = "healthz_signed_in" if page == "healthz" else page
        _cpu_ms(client, url, headers, 20, expect)  # warm: the page cache, the template loader, the ORM's caches
        result[name] = {"url": url, "cpu_ms": _cpu_ms(client, url, headers, requests, expect)}
        result[name]["calls"] = _calls(client, url, headers)
    floor = result["healthz_signed_in"]["cpu_ms"]
    for name in ("poll", "table", "dashboard", "standings"):
        result[name]["cpu_ratio_to_healthz"] = round(floor / result[name]["cpu_ms"], 2)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pages", description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200, help="timed requests of each page")
    args = parser.parse_args(argv)
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    with throwaway_database():
        caches["template_fragments"].clear()
        result = measure(args.requests)
    print(json.dumps({"database": connection.vendor, "requests": args.requests, "pages": result}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
