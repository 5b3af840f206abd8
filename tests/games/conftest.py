"""The games tests' setup: bounded waits on PostgreSQL, a signed-in client, the clock world
(tests/games/world.py) and the check that threads leave no database session behind
(tests/threads.py). Celery run inline (``eager``) is project-wide: tests/conftest.py."""

from __future__ import annotations

import time
from collections.abc import Iterator
from unittest import mock

import pytest
from celery import current_app
from django.db import connection
from django.db.backends.signals import connection_created
from django.dispatch import receiver
from django.test import Client

from tests.games.factories import PASSWORD
from tests.games.world import QUEUED_TASKS, World
from tests.inline_bots import InlineBots
from tests.threads import open_sessions, thread_pids

# A lock wait or a runaway statement fails the test with PostgreSQL's own message instead of
# holding the run until the CI job times out (a hang here once cost ten minutes).
PG_LOCK_TIMEOUT = "15s"
PG_STATEMENT_TIMEOUT = "60s"


@receiver(connection_created, dispatch_uid="tests.games.bounded_waits")
def _bounded_waits(sender, connection, **kwargs) -> None:
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(f"SET lock_timeout = '{PG_LOCK_TIMEOUT}'")
        cursor.execute(f"SET statement_timeout = '{PG_STATEMENT_TIMEOUT}'")


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def password() -> str:
    return PASSWORD


@pytest.fixture
def site(site: str, eager: InlineBots) -> str:
    """The live server (tests/conftest.py), with the bots' tasks run at once: the games' browser tests watch them reply."""
    return site


@pytest.fixture
def world() -> Iterator[World]:
    """The clock, the broker and beat at once (tests/games/world.py): queued tasks wait for the clock."""
    world = World()
    patches = [mock.patch("django.utils.timezone.now", world)]
    for name in QUEUED_TASKS:
        task = current_app.tasks[f"games.tasks.{name}"]
        patches.append(
            mock.patch.object(
                task, "apply_async", lambda args=(), kwargs=None, _n=name, **o: world.publish(_n, args, kwargs, **o)
            )
        )
    for patch in patches:
        patch.start()
    try:
        yield world
    finally:
        for patch in reversed(patches):
            patch.stop()


@pytest.fixture
def no_connection_left() -> Iterator[None]:
    """After the test, even a failed one: the pool is closed and the threads' sessions are gone."""
    thread_pids.clear()
    yield
    connection.close_pool()  # the threads' pooled connections would block the test database's teardown
    for _ in range(50):  # a closed client's server process takes a moment to go
        if open_sessions(thread_pids) == 0:
            return
        time.sleep(0.1)
    pytest.fail(f"{open_sessions(thread_pids)} database sessions of the threads are still open.")
