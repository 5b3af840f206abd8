"""Writes about a player's own account."""

from __future__ import annotations

from accounts.models import User, new_calendar_token


def calendar_token_reset(*, user: User) -> str:
    """A new secret for the private calendar URL: the old URL stops working at once."""
    user.calendar_token = new_calendar_token()
    user.save(update_fields=["calendar_token"])
    return user.calendar_token
