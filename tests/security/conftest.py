"""Shared setup for the security probes: a fresh burst-limit count for every test, their clients, and the
league world the league probes post into (tests/security/league_world.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from django.core.cache import cache
from django.test import Client

from accounts.models import User
from tests.security.league_world import World, build


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    """The probes send bursts no player would; burst limits (games/ratelimit.py) must not answer for the views."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def fuzz_login() -> Callable[[User], Client]:
    """Logs someone in on a client that answers a crash with the 500 page, so that a probe sees the status."""

    def login(user: User) -> Client:
        client = Client(raise_request_exception=False)
        client.force_login(user)
        return client

    return login


@pytest.fixture
def league_world() -> World:
    """A fresh league world (tests/security/league_world.py) for each test."""
    return build()
