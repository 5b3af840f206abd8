"""League pages: clubs and their members, leagues, seasons from registration to the last round, standings.

Every page starts with an access helper: a private club is a 404 to anyone outside it, and what only
an organizer may do is a 403 before any form is read. Services check again and raise ``Refused``;
its message is shown as a form error or a message.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from accounts.http import AuthedRequest, HtmxHttpRequest
from accounts.models import User
from games.clocks import TimeControl
from games.errors import Refused
from games.forms import game_choices
from games.presenters.base import ordinal
from games.ratelimit import rate_limited
from games.spreadsheets import write_csv
from leagues import clubs as club_services
from leagues import fixtures as schedules
from leagues import formats, results, rollover, rounds, seasons, selectors, standings_page, tiebreaks
from leagues.access import (
    ORGANIZER,
    check_form,
    club_access,
    found,
    league_access,
    member_only,
    organizer_only,
    refused,
    season_access,
    season_context,
    season_url,
    user_of,
)
from leagues.errors import LeagueRefused, NumbersRefused
from leagues.forms import (
    AdjustForm,
    ClubForm,
    DivisionForm,
    FinishForm,
    ForfeitForm,
    InviteForm,
    LeagueForm,
    RoleForm,
    RoundDatesForm,
    SeasonEditForm,
    SeasonForm,
    game_for,
    league_initial,
)
from leagues.invitations import club_invitation_forget, club_invitation_remember
from leagues.models import Fixture, League, Membership, Season
from leagues.presenters import (
    ASCENDING,
    COLUMN_LABELS,
    PAGE_ROWS,
    export_rows,
    standings_table,
)
from leagues.substitutes import UPCOMING

# --- clubs -----------------------------------------------------------------------


@require_GET
def clubs(request: HtmxHttpRequest) -> HttpResponse:
    user = user_of(request)
    listed = list(selectors.clubs_for(user=user))
    mine = selectors.club_ids_for(user=user) if user else set()
    return render(
        request,
        "leagues/clubs.html",
        {"mine": [c for c in listed if c.pk in mine], "others": [c for c in listed if c.pk not in mine]},
    )


@login_required
@rate_limited("club-create")
def club_create(request: AuthedRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = club_services.club_create(created_by=request.user, **form.cleaned_data)
        except Refused as exc:
            form.add_error(None, str(exc))
        else:
            return redirect("leagues-club", club.slug)
    return render(request, "leagues/club_form.html", {"form": form})


@require_GET
def club_detail(request: HtmxHttpRequest, club_slug: str) -> HttpResponse:
    club, role = club_access(request, club_slug)
    members = selectors.memberships_of(club=club) if role else None
    return render(
        request,
        "leagues/club.html",
        {
            "club": club,
            "role": role,
            "leagues": club.leagues.all(),
            "members": members,
            "is_organizer": role == ORGANIZER,
        },
    )


@login_required
@require_POST
def club_join(request: AuthedRequest, club_slug: str) -> HttpResponse:
    club, _role = club_access(request, club_slug)
    try:
        club_services.club_join(user=request.user, club=club)
    except Refused as exc:
        refused(request, exc)
    else:
        messages.success(request, f"Welcome to {club.name}.")
    return redirect("leagues-club", club.slug)


@login_required
def club_invite(request: AuthedRequest, club_slug: str) -> HttpResponse:
    club, role = club_access(request, club_slug)
    organizer_only(role)
    form = InviteForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club_services.club_invite(club=club, actor=request.user, **form.cleaned_data)
        except Refused as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, f"An invitation is on its way to {form.cleaned_data['email']}.")
            return redirect("leagues-members", club.slug)
    return render(request, "leagues/invite_form.html", {"club": club, "form": form})


def invite(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The link in an invitation mail: shows the club and joins it on a post (after logging in)."""
    invitation = selectors.invitation_for(token=token)
    user = user_of(request)
    if invitation is not None and user is not None and invitation.accepted_by_id == user.pk:
        # Accepted at the login that brought them back here (leagues.account_adapter): on to the club.
        club_invitation_forget(request)
        return redirect("leagues-club", invitation.club.slug)
    usable = invitation is not None and invitation.is_open()
    if usable and user is None:
        club_invitation_remember(request, token)  # kept through sign-up, the address check and the login
    if request.method == "POST":
        if user is None:
            return redirect_to_login(request.get_full_path())
        try:
            membership = club_services.club_join(user=user, token=token)
        except Refused as exc:
            messages.error(request, str(exc))
        else:
            club_invitation_forget(request)
            messages.success(request, f"Welcome to {membership.club.name}.")
            return redirect("leagues-club", membership.club.slug)
    return render(request, "leagues/invite.html", {"invitation": invitation, "usable": usable})


@login_required
@require_GET
def members(request: AuthedRequest, club_slug: str) -> HttpResponse:
    club, role = club_access(request, club_slug)
    organizer_only(role)
    memberships = selectors.memberships_of(club=club)
    pending = selectors.invitations_pending(club=club)
    context = {"club": club, "memberships": memberships, "pending": pending, "roles": Membership.Role.choices}
    return render(request, "leagues/members.html", context | {"record": selectors.club_record(club=club)})


@login_required
@require_POST
def member_role(request: AuthedRequest, club_slug: str, user_id: int) -> HttpResponse:
    club, role = club_access(request, club_slug)
    organizer_only(role)
    member = found(selectors.member_get(club=club, user_id=user_id))
    form = RoleForm(request.POST)
    try:
        if not form.is_valid():
            raise LeagueRefused("A member is either an organizer or a player.")
        club_services.member_set_role(club=club, actor=request.user, user=member, role=form.cleaned_data["role"])
    except Refused as exc:
        refused(request, exc)
    return redirect("leagues-members", club.slug)


@login_required
def member_remove(request: AuthedRequest, club_slug: str, user_id: int) -> HttpResponse:
    """An organizer removes a member; a member may remove themself (leave the club). The page asks first and
    says what becomes of their seats in the club's seasons (``clubs.member_remove``); the post removes."""
    club, role = club_access(request, club_slug)
    leaving = user_id == request.user.pk
    if not leaving:
        organizer_only(role)
    member = found(selectors.member_get(club=club, user_id=user_id))
    if request.method != "POST":
        entries = selectors.member_entries(club=club, user=member)
        context = {"club": club, "member": member, "leaving": leaving, "entries": entries}
        context |= {"seat_to_bot": club_services.SEAT_TO_BOT, "withdrawn": club_services.REGISTRATION_WITHDRAWN}
        return render(request, "leagues/member_remove.html", context)
    try:
        club_services.member_remove(club=club, actor=request.user, user=member)
    except Refused as exc:
        refused(request, exc)
        return redirect("leagues-club", club.slug)
    if leaving:
        messages.success(request, f"You have left {club.name}.")
        return redirect("leagues-clubs")
    messages.success(request, f"{member.name} is no longer a member of {club.name}.")
    return redirect("leagues-members", club.slug)


@login_required
@require_POST
def invitation_change(request: AuthedRequest, club_slug: str, invitation_id: int, action: str) -> HttpResponse:
    """The organizer mails an invitation again (a new link) or cancels it; either way the old link stops working."""
    club, role = club_access(request, club_slug)
    organizer_only(role)
    invitation = found(selectors.invitation_get(club=club, invitation_id=invitation_id))
    change = club_services.club_invitation_resend if action == "resend" else club_services.club_invitation_cancel
    try:
        change(invitation=invitation, actor=request.user)
    except Refused as exc:
        refused(request, exc)
    else:
        done = "A new invitation is on its way to" if action == "resend" else "The invitation is cancelled for"
        messages.success(request, f"{done} {invitation.email}; the old link no longer works.")
    return redirect("leagues-members", club.slug)


# --- leagues ---------------------------------------------------------------------


@login_required
def league_create(request: AuthedRequest, club_slug: str) -> HttpResponse:
    club, role = club_access(request, club_slug)
    organizer_only(role)
    game = game_for(request.POST.get("game") or request.GET.get("game"))
    form = LeagueForm(request.POST or None, game=game)
    if request.method == "POST" and form.is_valid():
        try:
            league = seasons.league_create(club=club, actor=request.user, **form.service_arguments())
        except Refused as exc:
            form.add_error(None, str(exc))
        else:
            return redirect("leagues-league", club.slug, league.slug)
    return render(
        request, "leagues/league_form.html", {"club": club, "form": form, "game": game, "games": game_choices()}
    )


@login_required
def league_edit(request: AuthedRequest, club_slug: str, league_slug: str) -> HttpResponse:
    league, role = league_access(request, club_slug, league_slug)
    organizer_only(role)
    game = game_for(request.POST.get("game") or request.GET.get("game") or league.game)
    clock = TimeControl.from_json(league.time_control)
    form = LeagueForm(request.POST or None, game=game, initial=league_initial(league), clock=clock)
    if request.method == "POST" and form.is_valid():
        try:
            seasons.league_update(league=league, actor=request.user, **form.service_arguments())
        except Refused as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, f"{league.name}'s settings are saved.")
            return redirect("leagues-league", league.club.slug, league.slug)
    context = {"club": league.club, "league": league, "form": form, "game": game, "games": game_choices()}
    return render(request, "leagues/league_form.html", context)


@require_GET
def league_detail(request: HtmxHttpRequest, club_slug: str, league_slug: str) -> HttpResponse:
    league, role = league_access(request, club_slug, league_slug)
    context = {
        "league": league,
        "club": league.club,
        "role": role,
        "is_organizer": role == ORGANIZER,
        "seasons": league.seasons.all(),
        "summary": league_summary(league),
    }
    return render(request, "leagues/league.html", context)


def league_summary(league: League) -> dict[str, Any]:
    """The league's settings in words, for its page."""
    game = game_for(league.game)
    usual = game.validate_options(league.table_size, {})  # the defaults as this table size resolves them
    control = TimeControl.from_json(league.time_control)
    return {
        "game": game.TITLE,
        "options": [
            (entry.get("label", entry["name"]), _option_words(league.options.get(entry["name"])))
            for entry in game.OPTIONS
            if league.options.get(entry["name"]) != usual.get(entry["name"])
        ],
        "time_control": control.describe() if control else "No clock: players take the time they need.",
        "scoring": (
            "Points per place: " + ", ".join(f"{ordinal(n)} {p:g}" for n, p in enumerate(league.place_points, start=1))
            if league.scoring == League.Scoring.PLACES
            else "The game's own score"
        ),
        "tiebreaks": [tiebreaks.TIEBREAKS.get(k, k) for k in league.tiebreaks],
        "bot_level": league.get_timeout_bot_level_display(),
    }


def _option_words(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict):
        return "custom"
    return str(value)


# --- seasons ---------------------------------------------------------------------


@login_required
def season_create(request: AuthedRequest, club_slug: str, league_slug: str) -> HttpResponse:
    league, role = league_access(request, club_slug, league_slug)
    organizer_only(role)
    # A Swiss, knockout or ladder league draws each round from the round before: its rounds open one after another.
    initial = {"round_mode": Season.RoundMode.SEQUENTIAL} if league.draws_each_round else {}
    form = SeasonForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            season = seasons.season_create(league=league, actor=request.user, **form.cleaned_data)
        except Refused as exc:
            form.add_error(None, str(exc))
        else:
            return redirect(season_url(season))
    return render(request, "leagues/season_form.html", {"league": league, "club": league.club, "form": form})


@require_GET
def season_detail(request: HtmxHttpRequest, club_slug: str, league_slug: str, number: int) -> HttpResponse:
    season, role = season_access(request, club_slug, league_slug, number)
    user = user_of(request)
    entrants = selectors.entrants_of(season=season)
    waiting = selectors.waiting_list(season=season) if season.status == Season.Status.REGISTRATION else []
    context = {
        **season_context(season, role),
        "entrants": entrants,
        "waiting": waiting,
        "waiting_ids": {e.pk for e in waiting},
        "entered": user is not None and any(e.user_id == user.pk for e in entrants),
        "rounds": season.round_set.all(),
        "audit": selectors.season_audit(season=season, limit=100),
        "next_seasons": season.next.all(),
        **_substitute_context(season, user, entrants),
    }
    return render(request, "leagues/season.html", context)


def _substitute_context(season: Season, user: User | None, entrants: Any) -> dict[str, Any]:
    """The reader's availability form (an entrant's) and whether they are a substitute, while the season is to be
    played."""
    if season.status not in UPCOMING:
        return {}
    mine = next((e for e in entrants if user is not None and e.user_id == user.pk), None)
    return {
        "my_rounds": selectors.availability_of(season=season, entrant=mine) if mine is not None else None,
        "in_pool": bool(getattr(season, "reader_substitute", False)),
    }


def _season_action(request: AuthedRequest, season: Season, act: Callable[[], object], done: str = "") -> HttpResponse:
    """A post that changes the season: ``act`` runs the service; a refusal is a message, success ``done``; back to
    the season's page either way."""
    try:
        act()
    except Refused as exc:
        refused(request, exc)
    else:
        if done:
            messages.success(request, done)
    return redirect(season_url(season))


@login_required
@require_POST
def season_registration(request: AuthedRequest, club_slug: str, league_slug: str, number: int) -> HttpResponse:
    """Open or close registration (the post's ``action``)."""
    season, role = season_access(request, club_slug, league_slug, number)
    organizer_only(role)
    change = (
        seasons.season_close_registration if request.POST.get("action") == "close" else seasons.season_open_registration
    )
    return _season_action(request, season, lambda: change(season=season, actor=request.user))


@login_required
@require_POST
def season_register(request: AuthedRequest, club_slug: str, league_slug: str, number: int) -> HttpResponse:
    season, role = season_access(request, club_slug, league_slug, number)
    member_only(role)
    try:
        seasons.season_register(season=season, user=request.user)
    except Refused as exc:
        refused(request, exc)
        return redirect(season_url(season))
    place = selectors.waiting_place(season=season, user=request.user)
    if place is None:
        messages.success(request, f"You are registered for {season.name}.")
    else:
        messages.success(
            request, f"{season.name} is full: you are number {place} on its waiting list, and get the next free place."
        )
    return redirect(season_url(season))


@login_required
@require_POST
def season_withdraw(request: AuthedRequest, club_slug: str, league_slug: str, number: int) -> HttpResponse:
    season, role = season_access(request, club_slug, league_slug, number)
    member_only(role)
    withdraw = partial(seasons.season_withdraw, season=season, user=request.user)
    return _season_action(request, season, withdraw, done=f"You have withdrawn from {season.name}.")


@require_GET
def fixtures(request: HtmxHttpRequest, club_slug: str, league_slug: str, number: int) -> HttpResponse:
    """The rounds and their tables with the play-by dates, bots and byes, and how many pairs meet again."""
    season, role = season_access(request, club_slug, league_slug, number)
    drawn = selectors.rounds_with_tables(season=season)
    names = selectors.entrant_names(season=season)
    context = {
        **season_context(season, role),
        "rounds": [_round_view(r, names) for r in drawn],
        "repeated": _repeated_pairs(drawn),
    }
    return render(request, "leagues/fixtures.html", context)


@login_required
@require_POST
def fixtures_generate(request: AuthedRequest, club_slug: str, league_slug: str, number: int) -> HttpResponse:
    season, role = season_access(request, club_slug, league_slug, number)
    organizer_only(role)
    try:
        seasons.fixtures_generate(season=season, actor=request.user)
    except Refused as exc:
        refused(request, exc)
    return redirect(season_url(season, "leagues-fixtures"))


@login_required
@require_POST
def round_dates(request: AuthedRequest, club_slug: str, league_slug: str, number: int, round_id: int) -> HttpResponse:
    """The organizer moves a round's play-by (or opening) date."""
    season, role = season_access(request, club_slug, league_slug, number)
    organizer_only(role)
    round_ = found(selectors.round_get(season=season, round_id=round_id))
    form = RoundDatesForm(request.POST)
    try:
        check_form(form)
        rounds.round_update(round=round_, actor=request.user, **form.cleaned_data)
    except Refused as exc:
        refused(request, exc)
    else:
        messages.success(request, f"Round {round_.number}'s dates are changed.")
    if request.POST.get("back") == "organize":  # the form on the organize page
        return redirect(season_url(season, "leagues-season-organize") + f"#round-{round_.division}-{round_.number}")
    return redirect(season_url(season, "leagues-fixtures") + f"#round-{round_.division}-{round_.number}")


@login_required
@require_POST
def entrant_division(
    request: AuthedRequest, club_slug: str, league_slug: str, number: int, entrant_id: int
) -> HttpResponse:
    """The organizer puts an entrant in a division before the draw."""
    season, role = season_access(request, club_slug, league_slug, number)
    organizer_only(role)
    entrant = found(selectors.entrant_get(season=season, entrant_id=entrant_id))
    form = DivisionForm(request.POST)
    try:
        if not form.is_valid():
            raise LeagueRefused(f"This season has divisions 1 to {season.divisions}.")
        seasons.entrant_set_division(entrant=entrant, actor=request.user, division=form.cleaned_data["division"])
    except Refused as exc:
        refused(request, exc)
    return redirect(season_url(season))


def _seat_names(seats: list[int | None], names: dict[int, str]) -> list[str]:
    return [names.get(e, "?") if e is not None else "Bot" for e in seats]


def _round_view(round_: Any, names: dict[int, str]) -> dict[str, Any]:
    tables = [{"fixture": f, "names": _seat_names(f.seats, names)} for f in round_.fixtures.all()]
    return {"round": round_, "tables": tables, "byes": [names.get(e, "?") for e in round_.byes]}


def _repeated_pairs(rounds: list[Any]) -> int:
    """Pairs who share a table more than once, counted per division as the draw was made."""
    by_division: dict[int, list[schedules.Round]] = {}
    for r in rounds:
        tables = tuple(schedules.Table(seats=tuple(f.seats)) for f in r.fixtures.all())
        by_division.setdefault(r.division, []).append(schedules.Round(tables=tables, byes=tuple(r.byes)))
    return sum(schedules.repeated_pairs(drawn) for drawn in by_division.values())


@login_required
@require_POST
def season_start(request: AuthedRequest, club_slug: str, league_slug: str, number: int) -> HttpResponse:
    season, role = season_access(request, club_slug, league_slug, number)
    organizer_only(role)
    start = partial(seasons.season_start, season=season, actor=request.user)
    done = f"{season.name} has started: the players find their matches on their dashboard."
    return _season_action(request, season, start, done=done)


@login_required
@require_GET
def season_organize(request: AuthedRequest, club_slug: str, league_slug: str, number: int) -> HttpResponse:
    """The organizer's page: the season's name and dates, each round opened or settled now, matches past their
    play-by date and matches bots played in."""
    season, role = season_access(request, club_slug, league_slug, number)
    organizer_only(role)
    names = selectors.entrant_names(season=season)
    initial = {"name": season.name, "starts_on": season.starts_on, "ends_on": season.ends_on}
    context = {
        **season_context(season, role),
        "overdue": _tables(selectors.overdue_fixtures(season=season), names),
        "bot_played": _tables(selectors.bot_played_fixtures(season=season), names),
        "rounds": season.round_set.all(),
        "edit_form": SeasonEditForm(initial=initial, started=season.status == Season.Status.RUNNING),
        **_pool_context(season),
    }
    return render(request, "leagues/organize.html", context)


def _pool_context(season: Season) -> dict[str, Any]:
    """The substitute pool and the members who could join it, while the season is to be played."""
    if season.status not in UPCOMING:
        return {}
    pool, candidates = selectors.substitute_pool(season=season)
    return {"substitutes": pool, "candidates": candidates}


def _tables(found: Any, names: dict[int, str]) -> list[dict[str, Any]]:
    return [{"fixture": f, "names": _seat_names(f.seats, names)} for f in found]


@login_required
def result(request: AuthedRequest, club_slug: str, league_slug: str, number: int, fixture_id: int) -> HttpResponse:
    """Record a forfeit or adjust a table's result, with a reason for the season's record."""
    season, role = season_access(request, club_slug, league_slug, number)
    organizer_only(role)
    fixture = found(selectors.fixture_get(season=season, fixture_id=fixture_id))
    names = _seat_names(fixture.seats, selectors.entrant_names(season=season))
    action = request.POST.get("action")
    data = request.POST or None
    forfeit = ForfeitForm(data if action == "forfeit" else None, seats=_seat_choices(fixture, names), prefix="forfeit")
    adjust = AdjustForm(data if action == "adjust" else None, names=names, prefix="adjust")
    if request.method == "POST" and (done := _result_post(request, fixture, action, forfeit, adjust)):
        return done
    context = {
        **season_context(season, role),
        "fixture": fixture,
        "names": names,
        "forfeit": forfeit,
        "adjust": adjust,
    }
    return render(request, "leagues/result.html", context)


def _seat_choices(fixture: Fixture, names: list[str]) -> list[tuple[int, str]]:
    return [(e, names[i]) for i, e in enumerate(fixture.seats) if e is not None]


def _result_post(
    request: AuthedRequest, fixture: Fixture, action: str | None, forfeit: ForfeitForm, adjust: AdjustForm
) -> HttpResponse | None:
    if action not in ("forfeit", "adjust"):  # each form names its action: only a crafted post lacks one
        messages.error(request, "Choose between recording a forfeit and adjusting the result.")
        return None
    form = forfeit if action == "forfeit" else adjust
    if not form.is_valid():
        return None
    try:
        if action == "forfeit":
            fixture = results.result_forfeit(
                fixture=fixture,
                actor=request.user,
                entrants=forfeit.cleaned_data["entrants"],
                reason=forfeit.cleaned_data["reason"],
            )
        else:
            results.result_adjust(
                fixture=fixture, actor=request.user, places=adjust.places, reason=adjust.cleaned_data["reason"]
            )
    except Refused as exc:
        form.add_error(None, str(exc))
        return None
    if fixture.counted_at is None:  # a forfeit at a table still playing: a bot plays the seat on
        messages.success(
            request, "The forfeit is recorded: a bot plays the seat on, and the result counts when the match ends."
        )
    else:
        messages.success(request, "The result is recorded; the season's record says why.")
    return redirect(season_url(fixture.round.season))


@login_required
def season_finish(request: AuthedRequest, club_slug: str, league_slug: str, number: int) -> HttpResponse:
    """The organizer ends the season: the numbers to promote and relegate, then the standings are frozen."""
    season, role = season_access(request, club_slug, league_slug, number)
    organizer_only(role)
    # Bound on every POST, even an empty one (a season without divisions has no fields to send, and any
    # numbers sent for one are not read: the page shows no field their errors could be shown beside).
    data = (request.POST if season.divisions > 1 else {}) if request.method == "POST" else None
    form = FinishForm(data, initial={"promote": season.promote, "relegate": season.relegate})
    if request.method == "POST" and form.is_valid():
        numbers = form.cleaned_data
        try:
            nxt = rollover.season_finish(
                season=season, actor=request.user, promote=numbers["promote"], relegate=numbers["relegate"]
            )
        except NumbersRefused as exc:  # the numbers on this form: said beside them
            form.add_error(None, str(exc))
        except Refused as exc:
            refused(request, exc)
            return redirect(season_url(season))
        else:
            messages.success(
                request, f"{season.name} is finished and its standings are final. {nxt.name} is ready to open."
            )
            return redirect(season_url(nxt))
    sizes = sorted(selectors.division_sizes(season=season).items()) if season.divisions > 1 else []
    return render(request, "leagues/season_finish.html", {**season_context(season, role), "form": form, "sizes": sizes})


# --- standings -------------------------------------------------------------------


@require_GET
def standings(request: HtmxHttpRequest, club_slug: str, league_slug: str, number: int) -> HttpResponse:
    # Whether any table is void, asked with the season (a season without one reads no fixtures); a fragment
    # shows no void tables and does not ask. The tables come from the page cache (leagues.standings_page).
    season, role = season_access(
        request, club_slug, league_slug, number, with_void=not request.htmx, with_standings=True
    )
    sort, show_all, user = request.GET.get("sort", ""), request.GET.get("all") == "1", user_of(request)
    limit, reader_id = None if show_all else PAGE_ROWS, user.pk if user else None
    viewer = reader_id if getattr(season, "reader_entrant", False) else None  # nobody else has a line to mark
    key = standings_page.tables_key(
        season=season, path=request.path, sort=sort, show_all=show_all, limit=limit, viewer=viewer
    )
    tables = standings_page.tables_html(
        key=key, render=partial(_standings_tables, season, sort=sort, show_all=show_all, limit=limit, reader_id=viewer)
    )
    if request.htmx:
        return HttpResponse(tables)
    context = {
        **season_context(season, role),
        "tables_html": tables,
        "void_tables": _void_tables(season) if getattr(season, "has_void", False) else [],
        "stints": selectors.stints_of(season=season) if getattr(season, "has_stints", False) else [],
        "format_tables": formats.format_standings(season=season),  # a knockout's progress or the ladder; else None
    }
    return render(request, "leagues/standings.html", context)


def _standings_tables(season: Season, *, sort: str, show_all: bool, limit: int | None, reader_id: int | None) -> str:
    """The standings tables of every division, with their headings and charts, as the page shows them."""
    league = season.league
    keys = [k for k in league.tiebreaks if k != "points"]
    player_url = reverse("leagues-player", args=[league.club.slug, league.slug, season.number, 1])
    player_url = player_url.removesuffix("1/") + "{}/"
    tables = [
        standings_table(d, rows, season, sort=sort, limit=limit, keys=keys, player_url=player_url, reader_id=reader_id)
        for d, rows in _divisions(season)
    ]
    columns = [("rank", "#"), ("name", "Player"), ("played", "Played"), ("points", "Points")]
    columns += [(k, COLUMN_LABELS.get(k, k)) for k in keys] + [("rating", "Rating")]
    context = {
        "tables": tables,
        "sort": sort,
        "show_all": show_all,
        "page_rows": str(PAGE_ROWS),
        "columns": _headings(columns, sort=sort, show_all=show_all),
        "width": str(len(columns) + 2),  # the columns, reliability and form
    }
    return render_to_string("leagues/standings.html#standings-tables", context)


def _headings(columns: list[tuple[str, str]], *, sort: str, show_all: bool) -> list[dict[str, str]]:
    """The column headings as the template shows them: each a link that sorts by it, the sorted one marked."""
    more, marked = "&all=1" if show_all else "", sort or "rank"
    return [
        {
            "label": label,
            "query": f"?sort={key}{more}",
            "order": "" if key != marked else "ascending" if key in ASCENDING else "descending",
        }
        for key, label in columns
    ]


def _void_tables(season: Season) -> list[dict[str, Any]]:
    """The void tables with their players' names."""
    names = selectors.entrant_names(season=season)
    return [
        {"fixture": f, "round": f.round, "names": _seat_names(f.seats, names)}
        for f in selectors.void_fixtures(season=season)
    ]


def _divisions(season: Season) -> list[tuple[int | None, list[selectors.StandingRow]]]:
    if season.divisions <= 1:
        return [(None, selectors.standings_for(season=season))]
    return [(d, selectors.standings_for(season=season, division=d)) for d in range(1, season.divisions + 1)]


@require_GET
def standings_export(request: HtmxHttpRequest, club_slug: str, league_slug: str, number: int, fmt: str) -> HttpResponse:
    season, _role = season_access(request, club_slug, league_slug, number)
    rows = export_rows([row for _d, found in _divisions(season) for row in found], season.league.tiebreaks)
    filename = f"{season.league.slug}-season-{season.number}.{fmt}"
    if fmt == "json":
        body = json.dumps({"league": season.league.name, "season": season.name, "standings": rows}, indent=2)
        response = HttpResponse(body, content_type="application/json")
    else:
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        # Names are the players' own text: write_csv keeps a spreadsheet from running one as a formula.
        write_csv(response, fieldnames=list(rows[0]) if rows else ["rank", "player"], rows=rows)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_GET
def player(request: HtmxHttpRequest, club_slug: str, league_slug: str, number: int, user_id: int) -> HttpResponse:
    season, role = season_access(request, club_slug, league_slug, number)
    user = found(selectors.player_get(user_id=user_id))
    entered = selectors.player_season(season=season, user=user)
    if entered is None:
        raise Http404("That player did not enter this season.")
    context = {**season_context(season, role), "player": user, "found": entered}
    return render(request, "leagues/player.html", context)
