"""Burst limits per player on what costs the server or the table: moves, chat, new matches and clubs.

A fixed-window counter in Django's cache: the key names the kind, the player and the window
(``time // seconds``), ``cache.add`` starts it at zero with the window's lifetime and ``cache.incr``
counts atomically (Redis in production, the database cache otherwise), so every web process
counts into the same number. The limits are ``settings.PARLOUR_RATE_LIMITS``: per kind, a list of
``(count, seconds)`` windows. A post past a limit changes nothing and gets a 429 with a sentence.
While the cache cannot be reached the limits are not counted (logged): a Redis outage must not stop
every move and every chat line; the database-side limits (invitations) still hold.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

log = logging.getLogger(__name__)

MESSAGES = {
    "move": "You are moving faster than anyone can play: wait a few seconds and try again.",
    "chat": "You are sending messages too quickly: wait a little and try again.",
    "match-create": "You have started many matches in a short time: wait a while before starting another.",
    "club-create": "You have started many clubs in a short time: wait a while before starting another.",
}


def limits_for(kind: str) -> list[tuple[int, int]]:
    return [(int(count), int(seconds)) for count, seconds in getattr(settings, "PARLOUR_RATE_LIMITS", {}).get(kind, [])]


def rate_hit(*, kind: str, user_id: int, now: float | None = None) -> int | None:
    """Count one post of ``kind`` by the player; the seconds to wait if it goes past a limit, else None.

    Every window counts the post, even when another window refuses it: a refused burst still
    uses up the longer window, so retrying at once does not help.
    """
    now = time.time() if now is None else now
    wait = None
    for count, seconds in limits_for(kind):
        window = int(now // seconds)
        key = f"ratelimit:{kind}:{user_id}:{seconds}:{window}"
        # The key outlives its window a little so that a slow clock between processes cannot reset it early.
        cache.add(key, 0, timeout=seconds + 5)
        try:
            used = cache.incr(key)
        except ValueError:  # evicted between add and incr: count from one again
            cache.set(key, 1, timeout=seconds + 5)
            used = 1
        if used > count:
            left = max(1, int((window + 1) * seconds - now))
            wait = max(wait or 0, left)
    return wait


def rate_limited(kind: str) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Refuse a signed-in player's POSTs of ``kind`` past its limits; GETs are never counted."""

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method == "POST" and request.user.is_authenticated:
                try:
                    wait = rate_hit(kind=kind, user_id=request.user.pk)
                except Exception:  # the cache is down: let the post through rather than fail it
                    log.warning("Could not count a %s post: the cache is unavailable", kind, exc_info=True)
                    wait = None
                if wait is not None:
                    response = HttpResponse(MESSAGES[kind], status=429, content_type="text/plain; charset=utf-8")
                    response["Retry-After"] = str(wait)
                    return response
            return view(request, *args, **kwargs)

        return wrapped

    return decorator
