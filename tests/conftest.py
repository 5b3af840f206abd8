"""Project-wide test setup: markers for the services a test needs, Celery run inline (``eager``), and
the browser tests' chromium and live server.

``@pytest.mark.postgres`` runs only when ``DATABASE_URL`` points at PostgreSQL and
``@pytest.mark.redis`` only when ``REDIS_URL`` is set; elsewhere they are skipped
with the reason, so a fresh laptop passes. Under ``CI=true`` a missing service is
an error instead: CI promises to run everything.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest

from tests.inline_bots import InlineBots


def _database_is_postgres() -> bool:
    return os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://", "pgsql://"))


def _redis_configured() -> bool:
    return os.environ.get("REDIS_URL", "").startswith(("redis://", "rediss://"))


SERVICE_MARKERS = {
    "postgres": (_database_is_postgres, "needs PostgreSQL: set DATABASE_URL=postgres://..."),
    "redis": (_redis_configured, "needs Redis: set REDIS_URL=redis://..."),
}


def _running_in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for marker, (available, reason) in SERVICE_MARKERS.items():
        if available():
            continue
        if _running_in_ci() and any(item.get_closest_marker(marker) is not None for item in items):
            raise pytest.UsageError(f"CI must run the {marker} tests, but the service is missing: {reason}")
        for item in items:
            if item.get_closest_marker(marker) is not None:
                item.add_marker(pytest.mark.skip(reason=reason))


# --- Celery tasks run inline -------------------------------------------------------------------------


@pytest.fixture
def eager(settings) -> Iterator[InlineBots]:
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


# --- the browser tests' shared fixtures ---------------------------------------------------------------


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Debian's chromium through Playwright (tests/games/browser_helpers.py), closed after the test.

    Without chromium a browser test is skipped, except in CI, which promises to run them: there it fails.
    """
    playwright_sync = pytest.importorskip("playwright.sync_api", reason="the browser tests need the playwright package")
    from tests.games.browser_helpers import CHROMIUM, MISSING_CHROMIUM, launch

    # Playwright's sync API runs an event loop in this thread; Django refuses ORM calls there unless told it is fine.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    if not CHROMIUM.exists():
        if _running_in_ci():
            pytest.fail(f"CI must run the browser tests, but chromium is missing: {MISSING_CHROMIUM}")
        pytest.skip(MISSING_CHROMIUM)
    with playwright_sync.sync_playwright() as playwright:
        chromium = launch(playwright)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def site(live_server: Any, transactional_db: Any) -> str:
    """The live server's address, on a database the browser's requests can see."""
    return str(live_server.url)


# --- caches ---------------------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _empty_caches() -> Iterator[None]:
    """Every test starts with empty caches: ids and versions repeat from test to test (rolled back), and a
    page part cached by one test must not stand in for another test's rows."""
    from django.core.cache import caches

    for alias in ("default", "template_fragments"):
        caches[alias].clear()
    yield
