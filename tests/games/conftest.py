from __future__ import annotations

import logging
from collections.abc import Iterator
from unittest import mock

import pytest
from django.db.backends.signals import connection_created
from django.dispatch import receiver
from django.test import Client

from tests.games.factories import PASSWORD

# A lock wait or a runaway statement fails the test with PostgreSQL's own message instead of
# holding the run until the CI job times out (a hang here once cost ten minutes).
PG_LOCK_TIMEOUT = "15s"
PG_STATEMENT_TIMEOUT = "60s"


@receiver(connection_created, dispatch_uid="tests.games.bounded_waits")
def _bounded_waits(sender, connection, **kwargs) -> None:  # noqa: ANN001, ANN003 - Django's signal signature
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(f"SET lock_timeout = '{PG_LOCK_TIMEOUT}'")
        cursor.execute(f"SET statement_timeout = '{PG_STATEMENT_TIMEOUT}'")


# An inline bot chain stops after this many moves (a worker's queue has no such bound): a bug cannot hang the run.
MAX_INLINE_BOT_MOVES = 5000

log = logging.getLogger(__name__)


class InlineBots:
    """Stands in for queueing ``games.tasks.bot_move``: the queued moves are played here, one after another.

    Production always queues each bot move as a task of its own. Run eagerly instead, a bot move that
    commits would run the next one inside its own on-commit callback, a recursion as deep as the
    match. So a move queued while others are being played waits its turn in ``queue``, and the first
    call plays them all in a loop bounded by ``limit``.
    """

    def __init__(self, limit: int = MAX_INLINE_BOT_MOVES) -> None:
        self.limit = limit
        self.queue: list[tuple[int, int, int]] = []
        self.played = 0
        self._playing = False

    def apply_async(self, args: tuple[int, int, int], kwargs: object = None, **options: object) -> None:
        from games import tasks

        self.queue.append(tuple(args))
        if self._playing:
            return
        self._playing, moves = True, 0
        try:
            while self.queue:
                if moves >= self.limit:
                    log.warning("Stopped an inline bot chain after %s moves at match %s", moves, self.queue[0][0])
                    self.queue.clear()
                    break
                tasks.bot_move.apply(args=self.queue.pop(0))
                moves += 1
                self.played += 1
        finally:
            self._playing = False


@pytest.fixture
def eager(settings) -> Iterator[InlineBots]:  # noqa: ANN001 - pytest-django's settings fixture
    """Celery tasks run inline as soon as they are queued; bot moves in a bounded loop (see ``InlineBots``).

    Set ``eager.limit`` to stop a chain sooner.
    """
    from config.celery import app

    settings.CELERY_TASK_ALWAYS_EAGER = True
    was = app.conf.task_always_eager
    app.conf.task_always_eager = True
    bots = InlineBots()
    try:
        with mock.patch.object(app.tasks["games.tasks.bot_move"], "apply_async", bots.apply_async):
            yield bots
    finally:
        app.conf.task_always_eager = was


def login(user) -> Client:  # noqa: ANN001
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
