"""Template context: how many matches await the signed-in player (the header's "your turn" slot)."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from games.selectors import awaiting_count


def your_turn(request: HttpRequest) -> dict[str, object]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"your_turn_count": 0}
    # Lazy: pages that do not render the header (htmx fragments) cost no query, nor does a view that puts
    # its own ``your_turn_count`` in its context (the dashboard counts the matches it read): the view's wins.
    return {"your_turn_count": SimpleLazyObject(lambda: awaiting_count(user=user))}
