"""The request types the views of every app are typed with: one home, so that no app defines them again."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

from accounts.models import User


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it: ``request.htmx`` says whether htmx sent it."""

    htmx: HtmxDetails


class AuthedRequest(HtmxHttpRequest):
    """A request that ``login_required`` let through: its user is a real account."""

    user: User  # narrower than HttpRequest's User | AnonymousUser
