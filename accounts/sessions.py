"""Sessions read from the cache and kept in the database: what every signed-in request reads first.

Django's ``cached_db`` store: a session is read from the cache (Redis in production) and, on a miss, from the
database, which stays the truth; every write goes to both. Every signed-in request reads its session, and a
Redis read costs a fraction of a query. Used when Redis is configured (``config.settings``); without Redis the
cache is a table in the same database, and plain database sessions cost less.

Two changes to Django's store, both for a cache that fails:

- A failure while filling the cache after a database read, or while deleting (a logout), is logged and the
  request goes on, as Django already does for reads and saves; whether a new key is free is asked of the
  database alone. While Redis is down every page still works from the database, only slower.
- A session stays in the cache for at most ``SESSION_CACHE_SECONDS`` (five minutes), not for its whole life.
  A logout while Redis cannot be reached deletes the database row but cannot drop the cached copy; were Redis
  to come back with that copy, the session would live on until the copy expires: five minutes at most.
  A player active all day costs one database read per five minutes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.sessions.backends.cached_db import SessionStore as CachedDBStore
from django.contrib.sessions.backends.db import SessionStore as DBStore
from django.contrib.sessions.base_session import AbstractBaseSession
from django.core.cache.backends.base import BaseCache

log = logging.getLogger(__name__)


def _cache_seconds(expiry_age: int) -> int:
    return min(expiry_age, getattr(settings, "SESSION_CACHE_SECONDS", 300))


class SessionStore(CachedDBStore):
    # Django's own attributes, which its type stubs leave out.
    _cache: BaseCache
    _session: dict[str, Any]
    _get_session_from_db: Callable[[], AbstractBaseSession | None]

    def load(self) -> dict[str, Any]:
        try:
            data = self._cache.get(self.cache_key)
        except Exception:  # the cache is down or refuses the key: the database answers
            log.warning("Could not read a session from the cache", exc_info=True)
            data = None
        if data is not None:
            return data
        found = self._get_session_from_db()
        if not found:
            return {}
        data = self.decode(found.session_data)
        self._cache_set(data, self.get_expiry_age(expiry=found.expire_date))
        return data

    def exists(self, session_key: str | None) -> bool:
        """Asked of the database alone: it holds every session the cache does (a new key is rare; no cache call)."""
        return bool(session_key) and DBStore.exists(self, session_key or "")

    def save(self, must_create: bool = False) -> None:
        DBStore.save(self, must_create)
        self._cache_set(self._session, self.get_expiry_age())

    def delete(self, session_key: str | None = None) -> None:
        DBStore.delete(self, session_key)  # the truth first: a copy the cache keeps is then never written back
        key = session_key if session_key is not None else self.session_key
        if key is None:
            return
        try:
            self._cache.delete(self.cache_key_prefix + key)
        except Exception:
            log.warning("Could not drop a session from the cache", exc_info=True)

    def _cache_set(self, data: dict[str, Any], expiry_age: int) -> None:
        try:
            self._cache.set(self.cache_key, data, _cache_seconds(expiry_age))
        except Exception:
            log.warning("Could not keep a session in the cache", exc_info=True)
