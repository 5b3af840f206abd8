"""The organizer's season pages beyond the watch list: a round opened or settled now (each confirmed on a page
of its own first), the season's name and dates edited, the divisions seeded in one step.

Each starts like every league view (``leagues.access``): a 404 for a private club to those outside it, a
403 for anyone but its organizers before any form is read; the services check the organizer again.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.http import AuthedRequest
from games.errors import Refused
from leagues import rollover, rounds, seasons, selectors
from leagues.access import check_form, found, organizer_only, refused, season_access, season_context, season_url
from leagues.forms import SeasonEditForm, SeedForm
from leagues.models import Round, Season
from leagues.wording import round_name

# The two round actions, as their confirmation pages ask them.
ROUND_ACTIONS = {
    "open": "Open {round} now",
    "settle": "Settle {round} now",
}


def _round_action(
    request: AuthedRequest, club_slug: str, league_slug: str, number: int, round_id: int, action: str
) -> HttpResponse:
    """GET: the confirmation page, saying what will happen. POST: done, and back to the organize page."""
    season, role = season_access(request, club_slug, league_slug, number)
    organizer_only(role)
    round_ = found(selectors.round_get(season=season, round_id=round_id))
    name = round_name(round_, season)
    if request.method == "POST":
        try:
            if action == "open":
                rounds.round_open(round=round_, actor=request.user)
            else:
                rollover.round_settle_now(round=round_, actor=request.user)
        except Refused as exc:
            refused(request, exc)
        else:
            messages.success(request, f"{name} is {'open' if action == 'open' else 'settled'}.")
        return redirect(season_url(season, "leagues-season-organize"))
    context = {
        **season_context(season, role),
        "round": round_,
        "action": action,
        "title": ROUND_ACTIONS[action].format(round=name),
        "tables": round_.fixtures.count(),
        "later": _later_round(season, round_),
    }
    return render(request, "leagues/round_confirm.html", context)


def _later_round(season: Season, round_: Round) -> bool:
    """Whether a round of the division follows, which a sequential season opens once this one is all counted."""
    following = season.round_set.filter(division=round_.division, number=round_.number + 1)
    return season.round_mode == Season.RoundMode.SEQUENTIAL and following.exists()


@login_required
def round_open(request: AuthedRequest, club_slug: str, league_slug: str, number: int, round_id: int) -> HttpResponse:
    return _round_action(request, club_slug, league_slug, number, round_id, "open")


@login_required
def round_settle(request: AuthedRequest, club_slug: str, league_slug: str, number: int, round_id: int) -> HttpResponse:
    return _round_action(request, club_slug, league_slug, number, round_id, "settle")


@login_required
def season_edit(request: AuthedRequest, club_slug: str, league_slug: str, number: int) -> HttpResponse:
    """The season's name and dates (the organize page carries the form); a refusal is said beside it."""
    season, role = season_access(request, club_slug, league_slug, number)
    organizer_only(role)
    initial = {"name": season.name, "starts_on": season.starts_on, "ends_on": season.ends_on}
    data = request.POST if request.method == "POST" else None  # an empty post is a post: nothing to change
    form = SeasonEditForm(data, initial=initial, started=season.status == Season.Status.RUNNING)
    if request.method == "POST" and form.is_valid():
        try:
            seasons.season_update(season=season, actor=request.user, **form.cleaned_data)
        except Refused as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, "The season's name and dates are saved.")
            return redirect(season_url(season, "leagues-season-organize"))
    context = {**season_context(season, role), "form": form, "editing": True}
    return render(request, "leagues/season_form.html", context)


@login_required
@require_POST
def divisions_seed(request: AuthedRequest, club_slug: str, league_slug: str, number: int) -> HttpResponse:
    """Every registrant into a division in one step; the organizer moves anyone afterwards."""
    season, role = season_access(request, club_slug, league_slug, number)
    organizer_only(role)
    form = SeedForm(request.POST)
    try:
        check_form(form)
        seasons.divisions_seed(season=season, actor=request.user, by=form.cleaned_data["by"])
    except Refused as exc:
        refused(request, exc)
    else:
        messages.success(request, "The divisions are seeded: move anyone who belongs elsewhere.")
    return redirect(season_url(season))
