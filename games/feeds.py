"""A player's private calendar: one event per turn of theirs that has a deadline.

The feed is read by calendar apps without a login, through a secret URL (``games.views_account.calendar_feed``).
It lists only what the player's own dashboard shows them: their matches and their deadlines, never a card.
"""

from __future__ import annotations

from datetime import datetime
from urllib.parse import urlsplit

from django.conf import settings
from django.db.models import OuterRef, Subquery

from accounts.models import User
from games.calendar import CalendarEvent, ics_feed
from games.models import Match, Move, Seat


def calendar_events_for(*, user: User) -> list[CalendarEvent]:
    """The player's running deadlines, soonest first.

    A seat's turn is told apart by the last move that seat made before it: the UID stays the same
    while the turn lasts (a vacation or a day of auto vacation moves the deadline, and the calendar
    app moves the event) and changes with the next turn.
    """
    last_own_move = Move.objects.filter(match=OuterRef("match"), seat=OuterRef("number")).order_by("-ply")
    seats = (
        Seat.objects.filter(user=user, awaiting=True, deadline__isnull=False, match__status=Match.Status.ACTIVE)
        .select_related("match")
        .only("pk", "number", "deadline", "match__id", "match__game")
        .annotate(last_ply=Subquery(last_own_move.values("ply")[:1]))
        .order_by("deadline", "pk")
    )
    host = urlsplit(settings.SITE_URL).hostname or "parlour"
    events = []
    for seat in seats:
        assert seat.deadline is not None  # the filter says so; this tells the type checker
        turn = "start" if seat.last_ply is None else f"after-{seat.last_ply}"
        events.append(
            CalendarEvent(
                uid=f"seat-{seat.pk}-{turn}@{host}",
                summary=f"Your move at {seat.match}",
                url=settings.SITE_URL.rstrip("/") + seat.match.get_absolute_url(),
                starts=seat.deadline,
            )
        )
    return events


def calendar_feed_for(*, user: User, now: datetime | None = None) -> bytes:
    return ics_feed(name="Parlour: your deadlines", events=calendar_events_for(user=user), now=now)
