"""Project-wide test setup: markers for the services a test needs.

``@pytest.mark.postgres`` runs only when ``DATABASE_URL`` points at PostgreSQL and
``@pytest.mark.redis`` only when ``REDIS_URL`` is set; elsewhere they are skipped
with the reason, so a fresh laptop passes. Under ``CI=true`` a missing service is
an error instead: CI promises to run everything.
"""

from __future__ import annotations

import os

import pytest


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
