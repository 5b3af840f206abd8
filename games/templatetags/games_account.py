"""The profile page's sections about matches, for ``accounts/profile.html`` without accounts importing games.

``{% load games_account %}{% profile_sections %}`` renders ``templates/games/_profile.html``: browser
notifications and the test notice, the vacation, the private calendar address.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils import timezone

from accounts.forms import VacationForm, vacation_form_for
from accounts.models import User
from games.push import push_enabled, push_endpoints_for, push_public_key

register = template.Library()


@register.inclusion_tag("games/_profile.html", takes_context=True)
def profile_sections(context: template.Context) -> dict[str, Any]:
    """The sections' data: one query (the player's browsers).

    A vacation form that failed (``games.views_account.vacation_on``) comes in the page's context, bound,
    and is shown with its errors; otherwise a fresh one. A visitor gets no sections.
    """
    request = context["request"]
    user = request.user
    if not isinstance(user, User):
        return {}
    failed = context.get("vacation_form")
    return {
        "user": user,
        "vacation_form": failed if isinstance(failed, VacationForm) else vacation_form_for(user=user),
        "days_left": user.vacation_budget(now=timezone.now()).days_left,
        "calendar_url": request.build_absolute_uri(
            reverse("games-calendar", args=[f"{user.pk}-{user.calendar_token}"])
        ),
        # Only a site that can send offers the switch; push.js tells whether this browser is one of these.
        "push_key": push_public_key() if push_enabled() else "",
        "push_endpoints": push_endpoints_for(user=user),
    }
