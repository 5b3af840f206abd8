from __future__ import annotations

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


@pytest.fixture
def eager(settings):  # noqa: ANN001, ANN201 - pytest-django's settings fixture
    """Celery tasks run inline, as soon as they are queued."""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    from config.celery import app

    app.conf.task_always_eager = True
    yield settings
    app.conf.task_always_eager = False


def login(user) -> Client:  # noqa: ANN001
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def password() -> str:
    return PASSWORD
