"""Shared setup for the security probes: a fresh burst-limit count for every test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    """The probes send bursts no player would; burst limits (games/ratelimit.py) must not answer for the views."""
    cache.clear()
    yield
    cache.clear()
