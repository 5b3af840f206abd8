"""Availability and substitutes on a season's pages: an entrant's rounds they cannot play, a member volunteering
for the substitute pool, an organizer adding or removing substitutes.

Each starts like every league view (``leagues.access``); every post ends back on the page it came from with a
message saying what happened or why nothing did.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.http import AuthedRequest, HtmxHttpRequest
from games.errors import Refused
from leagues import selectors, substitutes
from leagues.access import check_form, member_only, organizer_only, refused, season_access, season_url, user_of
from leagues.errors import LeagueRefused
from leagues.forms import AvailabilityForm, SubstituteForm


@login_required
@require_POST
def availability(request: AuthedRequest, club_slug: str, league_slug: str, number: int) -> HttpResponse:
    """An entrant ticks the rounds they cannot play; the rounds not yet open take the new answer."""
    season, role = season_access(request, club_slug, league_slug, number)
    member_only(role)
    form = AvailabilityForm(request.POST, rounds=season.rounds)
    try:
        check_form(form)
        chosen = substitutes.availability_set(season=season, user=request.user, unavailable=form.cleaned_data["rounds"])
    except Refused as exc:
        refused(request, exc)
    else:
        said = ", ".join(str(n) for n in sorted(chosen))
        messages.success(
            request, f"Saved: you cannot play round {said}." if chosen else "Saved: you can play every round."
        )
    return redirect(season_url(season))


@login_required
@require_POST
def volunteer(request: AuthedRequest, club_slug: str, league_slug: str, number: int) -> HttpResponse:
    """A member joins the season's substitute pool, or leaves it (``action=leave``)."""
    season, role = season_access(request, club_slug, league_slug, number)
    member_only(role)
    leave = request.POST.get("action") == "leave"
    try:
        if leave:
            substitutes.substitute_remove(season=season, actor=request.user, user=request.user)
        else:
            substitutes.substitute_add(season=season, actor=request.user, user=request.user)
    except Refused as exc:
        refused(request, exc)
    else:
        messages.success(
            request, "You have left the substitute pool." if leave else "You are in the substitute pool: thank you."
        )
    return redirect(season_url(season))


@login_required
@require_POST
def pool(request: AuthedRequest, club_slug: str, league_slug: str, number: int) -> HttpResponse:
    """An organizer adds a club member to the substitute pool or removes one."""
    season, role = season_access(request, club_slug, league_slug, number)
    organizer_only(role)
    form = SubstituteForm(request.POST)
    try:
        check_form(form)
        user = selectors.member_get(club=season.league.club, user_id=form.cleaned_data["user"])
        if user is None:
            raise LeagueRefused("Pick a member of the club.")
        change = substitutes.substitute_add if form.cleaned_data["action"] == "add" else substitutes.substitute_remove
        change(season=season, actor=request.user, user=user)
    except Refused as exc:
        refused(request, exc)
    else:
        done = "joined" if form.cleaned_data["action"] == "add" else "left"
        messages.success(request, f"{user.name} {done} the substitute pool.")
    return redirect(season_url(season, "leagues-season-organize"))


def seat_offer(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The link in a seat-offer mail: GET says whose seat and whether it is still free, POST takes it (after
    logging in) and goes to the table."""
    user = user_of(request)
    try:
        link = substitutes.offer_read(token)
    except Refused as exc:
        return render(request, "leagues/seat_offer.html", {"problem": str(exc)})
    if request.method == "POST":
        if user is None:
            return redirect_to_login(request.get_full_path())
        try:
            offer = substitutes.seat_offer_accept(token=token, user=user)
        except Refused as exc:
            messages.error(request, str(exc))
            return redirect(request.path)
        messages.success(request, f"The seat is yours: you play it from move {offer.from_move}.")
        return redirect("games-match", offer.fixture.match_id)
    problem = substitutes.offer_problem(link, user)
    return render(request, "leagues/seat_offer.html", {"offer": link.offer, "problem": problem})
