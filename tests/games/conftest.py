from __future__ import annotations

import pytest
from django.test import Client

from tests.games.factories import PASSWORD


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
