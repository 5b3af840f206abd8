"""A task with no side effects, for health checks and the broker round-trip tests."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="accounts.tasks.ping")
def ping(payload: str = "pong") -> str:
    return payload
