"""``{% invitation_for_visitor as seat %}``: the open invitation this browser carries, for the sign-in pages."""

from __future__ import annotations

from typing import Any

from django import template

from games.invitations import invitation_in_session
from games.models import Seat

register = template.Library()


@register.simple_tag(takes_context=True)
def invitation_for_visitor(context: dict[str, Any]) -> Seat | None:
    request = context.get("request")
    return invitation_in_session(request) if request is not None else None
