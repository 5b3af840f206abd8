"""Sessions from the cache, with the database as the truth (accounts/sessions.py), and a cache that fails."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.sessions import SessionStore
from tests.accounts.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

CACHED = {"SESSION_ENGINE": "accounts.sessions"}
PAGES = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "sessions-test-pages"}
LOCMEM = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "sessions-test"},
    "template_fragments": PAGES,
}
DOWN = {"default": {"BACKEND": "tests.accounts.test_sessions.DownCache"}, "template_fragments": PAGES}


class DownCache(BaseCache):
    """A cache that cannot be reached: every call fails, as Redis's client does while Redis is down."""

    def __init__(self, location: str, params: dict[str, Any]) -> None:
        super().__init__(params)

    def _down(self, *args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    add = get = set = touch = delete = clear = incr = has_key = _down  # type: ignore[assignment]


def _sign_in(client: Client, email: str) -> None:
    response = client.post(reverse("account_login"), {"login": email, "password": PASSWORD})
    assert response.status_code == 302, response.content[:500]


def _session_reads(queries: CaptureQueriesContext) -> int:
    return sum('FROM "django_session"' in q["sql"] for q in queries.captured_queries)


@override_settings(**CACHED, CACHES=LOCMEM)
def test_a_signed_in_page_reads_its_session_from_the_cache_not_the_database() -> None:
    caches["default"].clear()
    user = UserFactory()
    client = Client()
    _sign_in(client, user.email)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("games-dashboard")).status_code == 200
    assert _session_reads(queries) == 0
    caches["default"].clear()  # Redis emptied: the database answers, and fills the cache again
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("games-dashboard")).context["user"] == user
    assert _session_reads(queries) == 1
    with CaptureQueriesContext(connection) as queries:
        client.get(reverse("games-dashboard"))
    assert _session_reads(queries) == 0


@override_settings(**CACHED, CACHES=LOCMEM, SESSION_CACHE_SECONDS=300)
def test_a_session_stays_in_the_cache_five_minutes_at_most() -> None:
    cache = caches["default"]
    cache.clear()
    store = SessionStore()
    store["player"] = 1
    store.save()
    expires = cache._expire_info[cache.make_and_validate_key(store.cache_key)]  # type: ignore[attr-defined]
    assert 290 < expires - time.time() <= 300  # not the session's two weeks
    assert store.get_expiry_age() > 300


@override_settings(**CACHED, CACHES=LOCMEM)
def test_logging_out_drops_the_session_from_the_database_and_the_cache() -> None:
    caches["default"].clear()
    user = UserFactory()
    client = Client()
    _sign_in(client, user.email)
    key = client.session.session_key
    assert caches["default"].get(SessionStore.cache_key_prefix + key) is not None
    assert client.post(reverse("account_logout")).status_code == 302
    assert not Session.objects.filter(session_key=key).exists()
    assert caches["default"].get(SessionStore.cache_key_prefix + key) is None
    assert client.get(reverse("games-dashboard")).context["user"].is_anonymous


@override_settings(**CACHED, CACHES=DOWN)
def test_with_the_cache_down_players_sign_in_play_on_and_sign_out_from_the_database() -> None:
    user = UserFactory()
    client = Client()
    _sign_in(client, user.email)
    page = client.get(reverse("games-dashboard"))
    assert page.status_code == 200 and page.context["user"] == user
    key = client.session.session_key
    assert Session.objects.filter(session_key=key).exists()
    assert client.post(reverse("account_logout")).status_code == 302
    assert not Session.objects.filter(session_key=key).exists()
    assert client.get(reverse("games-dashboard")).context["user"].is_anonymous
