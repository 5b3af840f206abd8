"""The page cache: rendered parts of pages that every reader with the same key sees alike.

Keys name everything the part shows (a match's version, the viewer's seat, the rows it was read
from), so nothing is ever invalidated by time: a change makes a new key, and an old entry is only
memory until it expires or Redis evicts it. A page must render without the cache: when Redis is
down or slow, a read is a miss and a write is skipped (``PageCache``), and the page is rendered
from the database as before. ``RELEASE`` is in every key, so that a deploy never serves markup
that older templates or presenters rendered.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from django.core.cache.utils import make_template_fragment_key

log = logging.getLogger(__name__)

# The code that renders cached parts: a change to any of these files is a new release of the cache.
RENDERING_CODE = ("templates", "games", "leagues", "accounts", "engine", "config")


def release_digest(root: Path, parts: Iterable[str] = RENDERING_CODE) -> str:
    """A short digest of the project's templates and Python code, read once at start-up (a few ms)."""
    digest = hashlib.blake2b(digest_size=6)
    for part in parts:
        for path in sorted((root / part).rglob("*")):
            if path.suffix in {".py", ".html", ".txt"} and "migrations" not in path.parts:
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def part_key(*values: Any) -> str:
    """A stable key from plain values (ids, versions, names): the same in every process, unlike ``hash``."""
    return hashlib.blake2b(repr(values).encode(), digest_size=12).hexdigest()


class PageParts:
    """The cached parts of one page, read in one round trip before it renders and the missing ones kept in
    one after (``{% cachedpart %}`` takes them from here when the view puts this in the context).

    ``keys`` maps each part's name to its key (None: the part is rendered for this page alone). When every
    part was kept (``complete``) the view can skip working out what only the parts show.
    """

    def __init__(self, keys: dict[str, str | None]) -> None:
        self.cache = caches["template_fragments"]
        self.parts = {name: key for name, key in keys.items() if key is not None}
        self.keys = {name: make_template_fragment_key(name, [key]) for name, key in self.parts.items()}
        self.kept: dict[str, Any] = self.cache.get_many(list(self.keys.values())) if self.keys else {}
        self.rendered: dict[str, str] = {}

    @property
    def complete(self) -> bool:
        return bool(self.keys) and len(self.kept) == len(self.keys)

    def knows(self, name: str, key: str) -> bool:
        """Whether this page read the part (the same name and key), kept or not."""
        return self.parts.get(name) == key

    def kept_part(self, name: str) -> Any:
        return self.kept.get(self.keys[name])

    def keep(self, name: str, value: str) -> None:
        self.rendered[self.keys[name]] = value

    def save(self) -> None:
        """The parts rendered for this page, kept in one write."""
        if self.rendered:
            self.cache.set_many(self.rendered)
            self.rendered = {}


class PageCache(RedisCache):
    """Redis for page parts, where an unreachable Redis is a miss, never an error page."""

    def get(self, key: str, default: Any = None, version: int | None = None) -> Any:
        try:
            return super().get(key, default, version)
        except Exception:  # redis-py's ConnectionError, TimeoutError and friends: the page renders without
            log.warning("page cache unreachable: rendering without it", exc_info=True)
            return default

    def get_many(self, keys: Iterable[str], version: int | None = None) -> dict[str, Any]:
        try:
            return super().get_many(keys, version)
        except Exception:
            log.warning("page cache unreachable: rendering without it", exc_info=True)
            return {}

    def set(self, key: str, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> None:
        try:
            super().set(key, value, timeout, version)
        except Exception:
            log.warning("page cache unreachable: not kept", exc_info=True)

    def set_many(self, data: dict[str, Any], timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> list[str]:
        try:
            return super().set_many(data, timeout, version)
        except Exception:
            log.warning("page cache unreachable: not kept", exc_info=True)
            return list(data)
