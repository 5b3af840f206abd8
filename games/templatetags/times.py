"""``{% when some_datetime %}``: an absolute time in the reader's time zone, with "3 hours ago" beside it.

The reader's zone is the one ``accounts.middleware.TimezoneMiddleware`` activated; the markup is
``templates/games/_time.html``. ``{% when value ago=False %}`` leaves out the relative part.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django import template
from django.utils import timezone

register = template.Library()

# Beyond this the relative part adds nothing a date does not say.
RELATIVE_FOR = timedelta(days=30)


@register.inclusion_tag("games/_time.html")
def when(value: datetime | None, ago: bool = True) -> dict[str, Any]:
    if not isinstance(value, datetime):
        return {"value": None}
    now = timezone.now()
    recent = ago and timezone.is_aware(value) and abs(now - value) < RELATIVE_FOR
    return {
        "value": value,
        "iso": value.isoformat(),
        "just_now": recent and timedelta(0) <= now - value < timedelta(minutes=1),
        "ago": recent and value <= now,
        "ahead": recent and value > now,
        "same_year": timezone.localtime(value).year == timezone.localtime(now).year
        if timezone.is_aware(value)
        else True,
    }
