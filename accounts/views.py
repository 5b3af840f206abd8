"""The profile page: how a player is named, which clock they live by, when we write to them.

The profile itself (name, clock, how and when we write) is one form with one Save. The page also shows
what other apps keep for the player (vacation, browser notifications, the calendar address, league
ratings): their templates add those sections (``{% include %}`` in ``accounts/profile.html``), each with
its own buttons posting to that app's views, so this module names none of them.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.forms import ProfileForm
from accounts.http import AuthedRequest


@login_required
def profile(request: AuthedRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Your profile is saved.")
        return redirect("accounts-profile")
    return profile_page(request, form=form)


@login_required
@require_POST
def preferences(request: AuthedRequest) -> HttpResponse:
    """Where the reminders once posted on their own: a page from then, still open, saves them and only them."""
    form = ProfileForm(request.POST, instance=request.user)
    if not form.is_valid():
        return profile_page(request, form=form)
    form.save()
    messages.success(request, "Your reminder and mail choices are saved.")
    return redirect("accounts-profile")


def profile_page(request: AuthedRequest, *, form: ProfileForm | None = None, **sections: Any) -> HttpResponse:
    """The profile page; a form that failed is passed in bound, with its errors.

    ``sections`` go to the templates other apps add to the page, unread here: a view of theirs whose form
    failed passes it this way (the vacation view passes ``vacation_form``) to show it with its errors.
    """
    context = {"form": form or ProfileForm(instance=request.user), **sections}
    return render(request, "accounts/profile.html", context)
