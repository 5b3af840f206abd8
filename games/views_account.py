"""The player's own match settings, on the profile's addresses (``/me/...``): vacation and the private calendar.

They are the profile page's sections about matches (``templates/games/_profile.html``, its data from the
``games_account`` template tags); a vacation form that fails is shown on the profile page with its errors.
Browser notifications and the test notice are in ``views_mail``.
"""

from __future__ import annotations

import secrets

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import dateformat, timezone
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_POST

from accounts.forms import vacation_form_for
from accounts.http import AuthedRequest
from accounts.models import User
from accounts.services import calendar_token_reset
from accounts.vacation_budget import vacation_days
from accounts.views import profile_page
from games.calendar import CONTENT_TYPE
from games.errors import Refused
from games.feeds import calendar_feed_for
from games.vacation import vacation_end, vacation_start

# As the profile page shows it: "Thursday 5 March, 09:00", in the player's time zone.
VACATION_DATE = "l j F, H:i"


@login_required
@require_POST
def vacation_on(request: AuthedRequest) -> HttpResponse:
    form = vacation_form_for(user=request.user, data=request.POST)
    if form.is_valid():
        try:
            vacation_start(user=request.user, days=form.cleaned_data["days"])
        except Refused as exc:
            form.add_error(None, str(exc))
    if not form.is_valid():
        return profile_page(request, vacation_form=form)
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
    messages.success(request, f"Welcome back. Your clocks run again; the vacation took {vacation_days(spent)}.")
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
