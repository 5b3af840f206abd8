"""The profile page: how a player is named, which clock they live by, when we write to them, their vacation.

The profile itself (name, clock, how and when we write) is one form with one Save; the vacation, the
calendar address and the browser notifications are actions of their own, each with its own button.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import dateformat, timezone
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_POST

from accounts.forms import ProfileForm, VacationForm
from accounts.models import User
from accounts.services import calendar_token_reset
from games.calendar import CONTENT_TYPE
from games.errors import Refused
from games.feeds import calendar_feed_for
from games.push import push_enabled, push_endpoints_for, push_public_key
from games.vacation import vacation_end, vacation_start

# As the profile page shows it: "Thursday 5 March, 09:00", in the player's time zone.
VACATION_DATE = "l j F, H:i"


class AuthedRequest(HttpRequest):
    """A request that ``login_required`` let through: its user is a real account."""

    user: User  # narrower than HttpRequest's User | AnonymousUser


@login_required
def profile(request: AuthedRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Your profile is saved.")
        return redirect("accounts-profile")
    return _page(request, form=form)


@login_required
@require_POST
def preferences(request: AuthedRequest) -> HttpResponse:
    """Where the reminders once posted on their own: a page from then, still open, saves them and only them."""
    form = ProfileForm(request.POST, instance=request.user)
    if not form.is_valid():
        return _page(request, form=form)
    form.save()
    messages.success(request, "Your reminder and mail choices are saved.")
    return redirect("accounts-profile")


@login_required
@require_POST
def vacation_on(request: AuthedRequest) -> HttpResponse:
    form = _vacation_form(request.user, request.POST)
    if form.is_valid():
        try:
            vacation_start(user=request.user, days=form.cleaned_data["days"])
        except Refused as exc:
            form.add_error(None, str(exc))
    if not form.is_valid():
        return _page(request, vacation_form=form)
    until = dateformat.format(timezone.localtime(request.user.vacation_until), VACATION_DATE)
    messages.success(request, f"Your clocks are stopped until {until}. Enjoy your vacation!")
    return redirect("accounts-profile")


@login_required
@require_POST
def vacation_off(request: AuthedRequest) -> HttpResponse:
    try:
        spent = vacation_end(user=request.user)
    except Refused as exc:
        messages.error(request, str(exc))
        return redirect("accounts-profile")
    days = "1 vacation day" if spent == 1 else f"{spent} vacation days"
    messages.success(request, f"Welcome back. Your clocks run again; the vacation took {days}.")
    return redirect("accounts-profile")


@login_required
@require_POST
def calendar_reset(request: AuthedRequest) -> HttpResponse:
    calendar_token_reset(user=request.user)
    messages.success(request, "Your calendar has a new address; the old one no longer works.")
    return redirect("accounts-profile")


@require_GET
@cache_control(private=True, no_cache=True)
def calendar_feed(request: HttpRequest, token: str) -> HttpResponse:
    """The private calendar: no login, the token in the address is the secret."""
    user_id, _, secret = token.partition("-")
    # Only a plain number that fits an id is looked up: anything else would be a database error, not a 404.
    valid_id = user_id.isascii() and user_id.isdigit() and len(user_id) <= 9
    user = User.objects.filter(pk=int(user_id), is_active=True).first() if valid_id else None
    # compare_digest takes the same time however much of the secret is right.
    if user is None or not secrets.compare_digest(secret.encode(), user.calendar_token.encode()):
        raise Http404("No such calendar.")
    response = HttpResponse(calendar_feed_for(user=user), content_type=CONTENT_TYPE)
    response["X-Robots-Tag"] = "noindex"
    return response


def calendar_url(request: HttpRequest, user: User) -> str:
    return request.build_absolute_uri(reverse("accounts-calendar", args=[f"{user.pk}-{user.calendar_token}"]))


def _vacation_form(user: User, data: Any = None) -> VacationForm:
    return VacationForm(data, days_left=user.vacation_budget(now=timezone.now()).days_left)


def _page(request: AuthedRequest, **forms: Any) -> HttpResponse:
    """The profile page with every form; a form that failed is passed in bound, with its errors."""
    user = request.user
    context = {
        "form": forms.get("form") or ProfileForm(instance=user),
        "vacation_form": forms.get("vacation_form") or _vacation_form(user),
        "days_left": user.vacation_budget(now=timezone.now()).days_left,
        "calendar_url": calendar_url(request, user),
        # Only a site that can send offers the switch; push.js tells whether this browser is one of these.
        "push_key": push_public_key() if push_enabled() else "",
        "push_endpoints": push_endpoints_for(user=user),
    }
    return render(request, "accounts/profile.html", context)
