"""Views for notices away from the table: a move from a turn mail's link, browser push, the test notice.

A mail link needs no login: its signed token is the credential for one move (``games.maillinks``).
Opening it (GET) only shows the situation; the move is made by the confirmation form's POST. No
session is created on the way, so a link can never be turned into a login.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.cache import cache as django_cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.http import AuthedRequest
from games.errors import Refused
from games.maillinks import MoveLink, link_read, link_state
from games.models import Match, Seat
from games.notify import notice_test
from games.outbox import short_view
from games.presenters import presenter_for
from games.push import push_subscribe, push_unsubscribe
from games.ratelimit import MESSAGES, rate_hit
from games.services import move_by_link

# --- a move from a mail --------------------------------------------------------

# A policy under which browsers still send the page's own origin with a same-origin POST (the Fetch
# standard's "append a request Origin header"), yet no referrer at all to another site.
CONFIRM_REFERRER_POLICY = "same-origin"


@never_cache
@require_http_methods(["GET", "POST"])
def mail_move(request: HttpRequest, token: str) -> HttpResponse:
    """GET: the situation and one button; POST: play the move, then show what became of it (post/redirect/get)."""
    try:
        link = link_read(token)
    except Refused as exc:
        return _page(request, {"state": "invalid", "error": str(exc)}, status=404)
    state, match, seats = link_state(link=link)
    if state == "invalid" or match is None:
        return _page(request, {"state": "invalid", "error": "This link is not valid."}, status=404)
    if request.method == "POST":
        wait = rate_hit(kind="move", user_id=link.user_id)
        if wait is not None:
            return HttpResponse(MESSAGES["move"], status=429, content_type="text/plain; charset=utf-8")
        try:
            move_by_link(link=link)
        except Refused as exc:
            state, now, seats = link_state(link=link)
            return _page(request, _context(link, state, now or match, seats, error=str(exc)), status=409)
        return redirect(request.path)
    return _page(request, _context(link, state, match, seats))


def _context(link: MoveLink, state: str, match: Match, seats: list[Seat], error: str = "") -> dict[str, Any]:
    presenter = presenter_for(match.game)
    context = {
        "state": state,
        "match": match,
        "title": f"{match.title} #{match.pk}",
        "label": presenter.action_label(link.action, match.engine.view(match.state, link.seat)),
        "error": error,
    }
    if state == "open":  # the seat's own view, as the mail showed it; nothing once the turn is over
        context["short"] = short_view(match=match, seat=link.seat, seats=seats)
    return context


def _page(request: HttpRequest, context: dict[str, Any], *, status: int = 200) -> HttpResponse:
    response = render(request, "games/confirm_move.html", context, status=status)
    # The address is a credential: no search engine keeps it, no other site hears of it. Not "no-referrer":
    # under that policy a browser sends ``Origin: null`` with the confirmation's POST, which Django's CSRF
    # check refuses (tests/games/test_mail_move_browser.py). "same-origin" still tells no other site anything.
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Referrer-Policy"] = CONFIRM_REFERRER_POLICY
    return response


# --- browser push --------------------------------------------------------------


@require_GET
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """``static/sw.js`` served from the site's root, so that it may handle the whole site's notifications."""
    response = HttpResponse(_service_worker_source(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


@cache
def _service_worker_source() -> bytes:
    found = finders.find("sw.js")
    if isinstance(found, str):
        with open(found, "rb") as handle:
            return handle.read()
    with staticfiles_storage.open("sw.js") as handle:  # collected, without the source folder
        return bytes(handle.read())


# A browser's subscription is a little over a kilobyte at most (the endpoint is capped at 1,000 characters).
# A longer body is not read at all: json.loads would answer a number past Python's 4,300 digits with a
# plain ValueError and arrays nested thousands deep with a RecursionError, both a 500 rather than a refusal.
SUBSCRIPTION_BYTES = 4096


@login_required
@require_POST
def push_subscription(request: AuthedRequest) -> HttpResponse:
    """``push.js`` posts the browser's subscription (JSON); with ``"unsubscribe": true`` it is forgotten."""
    try:
        data = json.loads(request.body or b"{}") if len(request.body) <= SUBSCRIPTION_BYTES else None
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):  # RecursionError: deep nesting, some Pythons
        data = None
    if isinstance(data, dict) and data.get("unsubscribe"):
        push_unsubscribe(user=request.user, endpoint=str(data.get("endpoint", "")))
        return JsonResponse({"ok": True, "message": "Browser notifications are off in this browser."})
    try:
        push_subscribe(user=request.user, data=data)
    except Refused as exc:
        return JsonResponse({"ok": False, "message": str(exc)}, status=400)
    return JsonResponse({"ok": True, "message": "Browser notifications are on in this browser."})


@login_required
@require_POST
def test_notice(request: AuthedRequest) -> HttpResponse:
    """Send the player a notice the way they chose (mail, push or both), at most once per few minutes."""
    every = test_notice_every()
    if not django_cache.add(f"notice-test:{request.user.pk}", 1, timeout=every):
        messages.error(request, f"A test notice was sent a moment ago; try again in {every // 60 or 1} minutes.")
        return redirect("accounts-profile")
    messages.success(request, notice_test(user=request.user))
    return redirect("accounts-profile")


def test_notice_every() -> int:

    return int(getattr(settings, "GAMES_TEST_NOTICE_EVERY_SECONDS", 300))
