"""Turn views: the dashboard, the lobby, the table, moves, chat, replay and export."""

from __future__ import annotations

import re
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseStopPolling
from django_htmx.middleware import HtmxDetails

from accounts.models import User
from engine import GAMES, get_game
from engine.replay import make_log, state_at
from games.errors import NotSeated, Refused
from games.forms import ChatForm, GameChoiceForm, MatchCreateForm, PlayForm
from games.models import Match, Seat
from games.presenters import log_line, presenter_for
from games.ratelimit import rate_limited
from games.selectors import Table, dashboard_for, match_for_viewer, matches_awaiting, seat_for_player, table_for
from games.services import SeatSpec, chat_post, invite_accept, match_create, move_submit


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class AuthedRequest(HtmxHttpRequest):
    """A request that ``login_required`` let through: its user is a real account."""

    user: User  # narrower than HttpRequest's User | AnonymousUser


# --- dashboard -------------------------------------------------------------


def dashboard(request: HtmxHttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "games/landing.html")
    return render(request, "games/dashboard.html", dashboard_for(user=request.user))


@login_required
def next_match(request: AuthedRequest) -> HttpResponse:
    """Jump to the next match awaiting the player, after the one they are looking at."""
    awaiting = list(matches_awaiting(user=request.user).values_list("pk", flat=True)[:200])
    if not awaiting:
        messages.info(request, "No match is waiting for you. Well played!")
        return redirect("games-dashboard")
    current = _int_param(request.GET.get("after"))
    later = awaiting[awaiting.index(current) + 1 :] if current in awaiting else []
    return redirect("games-match", (later or awaiting)[0])


# --- lobby -----------------------------------------------------------------


@login_required
@rate_limited("match-create")
def create(request: AuthedRequest) -> HttpResponse:
    chooser = GameChoiceForm(request.GET or None)
    game = get_game(chooser.cleaned_data["game"]) if chooser.is_valid() else GAMES[sorted(GAMES)[0]]
    form = MatchCreateForm(request.POST or None, game=game)
    if request.method == "POST" and form.is_valid():
        seats = [SeatSpec(user=request.user), *form.cleaned_data["seat_specs"]]
        try:
            match = match_create(
                game=game.NAME, players=form.cleaned_data["players"], options=form.cleaned_data["options"],
                created_by=request.user, private=form.cleaned_data["private"], seats=seats,
            )
        except Refused as exc:
            form.add_error(None, str(exc))
        else:
            return redirect(match)
    return render(request, "games/create.html", {"form": form, "chooser": chooser, "game": game})


@login_required
def invite(request: AuthedRequest, token: str) -> HttpResponse:
    # Tokens are URL-safe base64 (secrets.token_urlsafe); anything else, a NUL byte say, which PostgreSQL
    # refuses in a query, is not one of ours.
    well_formed = re.fullmatch(r"[A-Za-z0-9_-]{1,64}", token) is not None
    seat = (
        Seat.objects.select_related("match", "match__created_by").filter(invite_token=token, joined=False).first()
        if well_formed
        else None
    )
    if seat is None:
        messages.error(request, "This invitation has already been used or does not exist.")
        return redirect("games-dashboard")
    if request.method == "POST":
        try:
            invite_accept(token=token, user=request.user)
        except Refused as exc:
            messages.error(request, str(exc))
            return redirect("games-dashboard")
        messages.success(request, "You have taken your seat.")
        return redirect(seat.match)
    return render(request, "games/invite.html", {"seat": seat, "match": seat.match})


# --- the table -------------------------------------------------------------


def _context(request: AuthedRequest, table: Table, **extra: Any) -> dict[str, Any]:
    """The table as the viewer may see it: the view, and the game's presenter's plain data beside it."""
    match = table.match
    return {
        "table": table,
        "match": match,
        "view": table.view,
        "seat": table.seat,
        "names": table.names,
        "game_name": match.game,
        "title": match.title,
        "chat_mark": match.chat_mark,
        "play_url": reverse("games-play", args=[match.pk]),
        **presenter_for(match.game).table_context(table, viewer_id=request.user.pk),
        **extra,
    }


@login_required
@require_GET
def match_detail(request: AuthedRequest, match_id: int) -> HttpResponse:
    match, seat = match_for_viewer(match_id=match_id, user=request.user)
    return render(request, "games/match.html", _context(request, table_for(match=match, seat=seat)))


@login_required
@require_GET
def poll(request: AuthedRequest, match_id: int) -> HttpResponse:
    """The live part of the table, or an empty 204 when nothing changed; polling stops at the end."""
    match, seat = match_for_viewer(match_id=match_id, user=request.user)
    if request.GET.get("v") == str(match.version) and request.GET.get("c") == str(match.chat_mark):
        return HttpResponse(status=204 if not match.is_over else HttpResponseStopPolling.status_code)
    response = render(request, "games/match.html#live", _context(request, table_for(match=match, seat=seat)))
    if match.is_over:
        response.status_code = HttpResponseStopPolling.status_code
    return response


@login_required
@require_POST
@rate_limited("move")
def play(request: AuthedRequest, match_id: int) -> HttpResponse:
    match = Match(pk=match_id)
    form = PlayForm(request.POST)
    error = None if form.is_valid() else str(next(iter(form.errors.values()))[0])
    try:
        if error is None:
            move_submit(match=match, user=request.user, seat=None, action=form.cleaned_data["action"],
                        version=form.cleaned_data["version"])
        else:
            seat_for_player(match_id=match_id, user=request.user)
    except NotSeated as exc:
        raise (Http404 if exc.private else PermissionDenied)(str(exc)) from None
    except Refused as exc:
        error = str(exc)
    return _after_post(request, match, error)


def _after_post(request: AuthedRequest, match: Match, error: str | None) -> HttpResponse:
    """Plain forms redirect back to the table (post/redirect/get); htmx gets the live part in place."""
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect(match)
    match, seat = match_for_viewer(match_id=match.pk, user=request.user)
    context = _context(request, table_for(match=match, seat=seat), error=error)
    return render(request, "games/match.html#live", context)


@login_required
@require_POST
@rate_limited("chat")
def chat(request: AuthedRequest, match_id: int) -> HttpResponse:
    seat_for_player(match_id=match_id, user=request.user)
    match = Match(pk=match_id)
    form = ChatForm(request.POST)
    error = None if form.is_valid() else "Write a message of at most 1000 characters."
    try:
        if error is None:
            chat_post(match=match, user=request.user, text=form.cleaned_data["text"])
    except Refused as exc:
        error = str(exc)
    return _after_post(request, match, error)


@login_required
@require_GET
def full_log(request: AuthedRequest, match_id: int) -> HttpResponse:
    match, seat = match_for_viewer(match_id=match_id, user=request.user)
    names, reader = [s.name for s in match.seat_list], seat.number if seat is not None else None
    moves = match.moves.values("ply", "seat", "kind", "text")
    log = [log_line(m, names, reader=reader, over=match.is_over) for m in moves]
    return render(request, "games/log.html", {"match": match, "log": log})


# --- after the end ---------------------------------------------------------


@login_required
@require_GET
def replay(request: AuthedRequest, match_id: int) -> HttpResponse:
    """Step through a finished match with every hand shown."""
    match, _seat = match_for_viewer(match_id=match_id, user=request.user)
    if not match.is_over:
        raise Http404("The replay opens when the match is over.")
    actions = list(match.moves.values("seat", "action", "text", "ply"))
    ply = _clamp(request.GET.get("ply"), len(actions))
    game = match.engine
    state = state_at(match.game, match.players, match.options, match.seed, actions, ply)
    names, presenter, public = [s.name for s in match.seat_list], presenter_for(match.game), game.view(state, None)
    hands = [{"name": name, "cards": presenter.cards(game.view(state, n).get("hand"))} for n, name in enumerate(names)]
    step = log_line(actions[ply - 1], names, reader=None, over=match.is_over) if ply else None
    return render(
        request,
        "games/replay.html",
        {
            "match": match,
            "ply": ply,
            "last": len(actions),
            "hands": hands,
            "names": names,
            "game_name": match.game,
            "step": step,
            "view": public,
            "seat": None,
            "board": presenter.board(public, names),
            "board_template": presenter.board_template,
            "details_template": presenter.details_template,
        },
    )


def _clamp(value: str | None, top: int) -> int:
    number = _int_param(value)
    return top if number is None else max(0, min(top, number))


def _int_param(value: str | None) -> int | None:
    """A query parameter as a whole number, or None: ASCII digits only (``str.isdigit`` accepts '²')."""
    return int(value) if value and re.fullmatch(r"-?[0-9]{1,12}", value) else None


@login_required
@require_GET
def export(request: AuthedRequest, match_id: int) -> HttpResponse:
    """The match log for ``python -m engine verify``: only after the end, when the seed may be shown."""
    match, _seat = match_for_viewer(match_id=match_id, user=request.user)
    if not match.is_over:
        return HttpResponse("The export opens when the match is over: until then it would reveal the deal.",
                            status=409, content_type="text/plain; charset=utf-8")
    actions = [{"seat": m["seat"], "action": m["action"]} for m in match.moves.values("seat", "action")]
    log = make_log(match.game, match.players, match.seed, match.options, actions, match.state)
    response = JsonResponse(log, json_dumps_params={"indent": 1, "ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="parlour-{match.game}-{match.pk}.json"'
    return response
