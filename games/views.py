"""Turn views: the dashboard, the lobby, the table, moves, chat, replay and export."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import caches
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseStopPolling

from accounts.http import AuthedRequest, HtmxHttpRequest
from config.cache import PageParts, part_key
from engine import GAMES, get_game
from engine.replay import make_log, state_at
from games.errors import NotSeated, Refused
from games.forms import ChatForm, GameChoiceForm, MatchCreateForm, PlayForm, SeatInviteForm
from games.invitations import invitation_by_token, invitation_forget, invitation_remember, invitations_for
from games.models import Match, Seat
from games.notify import seat_seen
from games.presenters import presenter_for
from games.ratelimit import rate_limited
from games.rules import rules_page
from games.selectors import (
    DashboardRow,
    Table,
    dashboard_for,
    match_for_viewer,
    match_rows,
    matches_awaiting,
    poll_marks,
    seat_for_player,
    table_for,
)
from games.services import (
    SeatSpec,
    chat_post,
    invite_accept,
    invite_cancel,
    invite_resend,
    match_create,
    move_submit,
    seat_bot_put,
    seat_invite,
    seat_reclaim,
)
from games.services import invite_decline as invite_decline_service

# --- dashboard -------------------------------------------------------------


def dashboard(request: HtmxHttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "games/landing.html", {"rules_games": _rules_games()})
    context = dashboard_for(user=request.user)
    # Invitations go to addresses, not accounts: every open one to a verified address of the player.
    context["invitations"] = invitations_for(user=request.user)
    _row_parts([*context["awaiting"], *context["active"], *context["waiting"], *context["finished"], *context["watch"]])
    if context["complete"]:
        # The header's "your turn" count, from the matches read above: the context processor's own
        # count (games.context_processors) then never runs.
        context["your_turn_count"] = len(context["awaiting"])
    context["rules_games"] = _rules_games()
    return render(request, "games/dashboard.html", context)


def _row_parts(rows: list[DashboardRow]) -> None:
    """Each row's part (its link, players and result) from the page cache; the missing ones rendered and kept.

    All the parts in one cache read; the matches of the missing ones in one query (``match_rows``).
    """
    cache = caches["template_fragments"]
    kept = cache.get_many([row.key for row in rows])
    missing = {row.pk: row for row in rows if row.key not in kept}
    rendered: dict[str, str] = {}
    for match in match_rows(list(missing)) if missing else []:
        row = missing[match.pk]
        mine = next((s for s in match.seat_list if s.number == row.mine), None)
        result = None
        if mine is not None and match.is_over:
            names = [s.name for s in match.seat_list]
            summary = presenter_for(match.game).result_summary(match.outcome, names, mine.number)
            result = summary if summary["winners"] else None
        rendered[row.key] = render_to_string("games/dashboard.html#row-part", {"m": match, "result": result})
    if rendered:
        cache.set_many(rendered)
    for row in rows:
        part = kept.get(row.key)
        row.part = part if isinstance(part, str) else rendered.get(row.key, "")  # markup a template rendered (safe)


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
    """The new-match form for the game the page names: a post is checked against the game it posts."""
    chooser = GameChoiceForm({"game": request.POST.get("game") or request.GET.get("game") or sorted(GAMES)[0]})
    game = get_game(chooser.cleaned_data["game"]) if chooser.is_valid() else GAMES[sorted(GAMES)[0]]
    form = MatchCreateForm(request.POST or None, game=game)
    if request.method == "POST" and form.is_valid():
        seats = [SeatSpec(user=request.user), *form.cleaned_data["seat_specs"]]
        try:
            match = match_create(
                game=game.NAME,
                players=form.cleaned_data["players"],
                options=form.cleaned_data["options"],
                created_by=request.user,
                private=form.cleaned_data["private"],
                seats=seats,
                time_control=form.cleaned_data["clock"],
            )
        except Refused as exc:
            form.add_error(None, str(exc))
        else:
            return redirect(match)
    template = "games/create.html#options" if request.htmx and request.method == "GET" else "games/create.html"
    return render(request, template, {"form": form, "game": game})


# Said for a link that matches no open invitation: a mistyped one as much as one used, withdrawn or expired.
NO_INVITATION = "This invitation does not exist or is no longer valid: it has been used, withdrawn, or has expired."


def invite(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The invitation: who invites whom to what. A visitor without an account keeps it through sign-up and login."""
    seat = invitation_by_token(token)
    if seat is None:
        messages.error(request, NO_INVITATION)
        return redirect("games-dashboard")
    if not request.user.is_authenticated:
        invitation_remember(request, token)
        if request.method == "POST":
            return redirect(f"{reverse('account_login')}?{urlencode({'next': request.path})}")
        return render(request, "games/invite.html", _invite_context(request, seat))
    if request.method == "POST":
        try:
            invite_accept(token=token, user=request.user)
        except Refused as exc:
            messages.error(request, str(exc))
            return redirect("games-dashboard")
        invitation_forget(request)
        messages.success(request, "You have taken your seat.")
        return redirect(seat.match)
    return render(request, "games/invite.html", _invite_context(request, seat))


def _invite_context(request: HtmxHttpRequest, seat: Seat) -> dict[str, Any]:
    next_query = urlencode({"next": request.path})
    return {
        "seat": seat,
        "match": seat.match,
        "others": [s for s in seat.match.seats.select_related("user") if s.pk != seat.pk],
        "signup_url": f"{reverse('account_signup')}?{urlencode({'next': request.path, 'email': seat.invite_email})}",
        "login_url": f"{reverse('account_login')}?{next_query}",
    }


@require_POST
def invite_decline(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The invitee says no, with or without an account: the token in the link is what entitles them."""
    seat = invitation_by_token(token)
    if seat is None:
        messages.error(request, NO_INVITATION)
        return redirect("games-dashboard")
    try:
        invite_decline_service(token=token)
    except Refused as exc:
        messages.error(request, str(exc))
    else:
        invitation_forget(request)
        messages.info(request, f"You have declined the seat at {seat.match.title} #{seat.match.pk}.")
    return redirect("games-dashboard")


@login_required
@require_POST
def seat_manage(request: AuthedRequest, match_id: int, number: int, action: str) -> HttpResponse:
    """The creator's controls for a seat of a waiting match: cancel or resend its invitation, invite, or a bot."""
    match, _seat = match_for_viewer(match_id=match_id, user=request.user)
    try:
        if action == "cancel":
            invite_cancel(match_id=match.pk, number=number, by=request.user)
            messages.info(request, f"The invitation to seat {number + 1} is cancelled.")
        elif action == "resend":
            invite_resend(match_id=match.pk, number=number, by=request.user)
            messages.info(request, f"The invitation to seat {number + 1} is on its way again.")
        elif action == "bot":
            seat_bot_put(match_id=match.pk, number=number, level=request.POST.get("level", "basic"), by=request.user)
            messages.info(request, f"A bot takes seat {number + 1}.")
        elif action == "invite":
            form = SeatInviteForm(request.POST)
            if not form.is_valid():
                raise Refused("Give the email address to invite.")
            seat_invite(match_id=match.pk, number=number, email=form.cleaned_data["email"], by=request.user)
            messages.info(request, f"{form.cleaned_data['email']} is invited to seat {number + 1}.")
        else:
            raise Http404("No such action.")
    except Refused as exc:
        messages.error(request, str(exc))
    return redirect(match)


# --- the rules -------------------------------------------------------------


@require_GET
def rules(request: HtmxHttpRequest, game: str) -> HttpResponse:
    """A game's rules, from the project's own rules page; open to visitors too."""
    page = rules_page(game)
    if page is None:
        raise Http404("There is no such game.")
    context = {"page": page, "game": game, "game_title": GAMES[game].TITLE, "games": _rules_games()}
    return render(request, "games/rules.html", context)


def _rules_games() -> list[tuple[str, str]]:
    return [(name, module.TITLE) for name, module in sorted(GAMES.items())]


# --- the table -------------------------------------------------------------


def _context(request: AuthedRequest, table: Table, **extra: Any) -> dict[str, Any]:
    """The table as the viewer may see it: the view, and the game's presenter's plain data beside it.

    The page's cached parts are read first, at once (``PageParts``): when both were kept, what only they
    show (the presenter's board, log, seats and moves) is not worked out at all.
    """
    match = table.match
    keys = _part_keys(request, table, extra)
    parts = PageParts({"table-seats": keys["table_key"], "table-play": keys["turn_key"]})
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
        **keys,
        "page_parts": parts,
        **({} if parts.complete else presenter_for(match.game).table_context(table, viewer_id=request.user.pk)),
        # The header's count, when it came with the table's read (a player at the table); else the context
        # processor counts it, lazily.
        **({"your_turn_count": match.viewer_awaiting} if getattr(match, "viewer_awaiting", None) is not None else {}),
        **extra,
    }


def _part_keys(request: AuthedRequest, table: Table, extra: dict[str, Any]) -> dict[str, str | None]:
    """The page cache's keys for the table's parts (templates/games/match.html), None where a part may not be kept.

    A page with anything of its own (an error, the reference values) is rendered whole. The part with the
    move forms carries the session's CSRF token, so a seated player's is also keyed by the session's
    CSRF secret (hashed in the key): a player's other browser, or the next login, has a key of its own.
    """
    public = None if extra else table.public_key(viewer_id=request.user.pk)
    turn = public
    if public is not None and table.seat is not None and table.match.status == Match.Status.ACTIVE:
        get_token(request)  # makes sure the session has its secret
        turn = part_key(public, request.META["CSRF_COOKIE"])
    return {"table_key": public, "turn_key": turn}


def _table_page(request: AuthedRequest, template: str, context: dict[str, Any]) -> HttpResponse:
    """The table (or its live part) rendered, then the parts it rendered kept in one write."""
    response = render(request, template, context)
    context["page_parts"].save()
    return response


@login_required
@require_GET
def match_detail(request: AuthedRequest, match_id: int) -> HttpResponse:
    match, seat = match_for_viewer(match_id=match_id, user=request.user)
    if seat is not None:
        seat_seen(seat=seat)  # a player at the table gets no turn mail
    table = table_for(match=match, seat=seat)
    presenter = presenter_for(match.game)
    if request.GET.get("values") == "1" and presenter.reference_template is not None:
        # The game's reference table, asked for: alone for htmx, else inside the page (no JavaScript).
        values = presenter.reference(table.view)
        if request.htmx:
            return render(request, presenter.reference_template, {"values": values})
        return _table_page(request, "games/match.html", _context(request, table, values=values))
    return _table_page(request, "games/match.html", _context(request, table))


@login_required
@require_GET
def poll(request: AuthedRequest, match_id: int) -> HttpResponse:
    """The live part of the table, or an empty 204 when nothing changed; polling stops at the end.

    Most polls find nothing new: they read one narrow row (``poll_marks``), not the table.
    """
    if "v" in request.GET:  # the table's own polls say which version they show: compare first
        marks = poll_marks(match_id=match_id, user=request.user)
        if marks.seat is not None:
            seat_seen(seat=marks.seat)  # polling is how a player at the table is seen there
        if request.GET["v"] == str(marks.version) and request.GET.get("c") == str(marks.chat_mark):
            return HttpResponse(status=204 if not marks.is_over else HttpResponseStopPolling.status_code)
        match, seat = match_for_viewer(match_id=match_id, user=request.user)
    else:  # no version to compare: the live part is what is asked for
        match, seat = match_for_viewer(match_id=match_id, user=request.user)
        if seat is not None:
            seat_seen(seat=seat)
    response = _table_page(request, "games/match.html#live", _context(request, table_for(match=match, seat=seat)))
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
            move_submit(
                match=match,
                user=request.user,
                seat=None,
                action=form.cleaned_data["action"],
                version=form.cleaned_data["version"],
            )
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
    seats = getattr(match, "seat_list", None)
    if seats is None:  # nothing changed, or not a move: read the table
        match, seat = match_for_viewer(match_id=match.pk, user=request.user)
    else:  # the mover's table as the move left it, from the rows the move locked and wrote
        seat = next((s for s in seats if s.user_id == request.user.pk and s.joined), None)
    context = _context(request, table_for(match=match, seat=seat), error=error)
    return _table_page(request, "games/match.html#live", context)


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
@require_POST
def reclaim(request: AuthedRequest, match_id: int) -> HttpResponse:
    """The player takes back the seat the bot played while they were absent."""
    match = Match(pk=match_id)
    try:
        seat_reclaim(match=match, user=request.user)
    except NotSeated as exc:
        raise (Http404 if exc.private else PermissionDenied)(str(exc)) from None
    messages.success(request, "Your seat is yours again: the bot has stopped playing for you.")
    return _after_post(request, match, None)


@login_required
@require_GET
def full_log(request: AuthedRequest, match_id: int) -> HttpResponse:
    match, seat = match_for_viewer(match_id=match_id, user=request.user)
    names, reader = [s.name for s in match.seat_list], seat.number if seat is not None else None
    moves = match.moves.values("ply", "seat", "kind", "text", "reasons")
    presenter = presenter_for(match.game)
    log = [presenter.log_entry(m, names, reader=reader, over=match.is_over) for m in moves]
    return render(request, "games/log.html", {"match": match, "log": log})


# --- after the end ---------------------------------------------------------


@login_required
@require_GET
def replay(request: AuthedRequest, match_id: int) -> HttpResponse:
    """Step through a finished match with every hand shown."""
    match, _seat = match_for_viewer(match_id=match_id, user=request.user)
    if not match.is_over:
        raise Http404("The replay opens when the match is over.")
    actions = list(match.moves.values("seat", "action", "text", "ply", "kind", "reasons"))
    ply = _clamp(request.GET.get("ply"), len(actions))
    game = match.engine
    state = state_at(match.game, match.players, match.options, match.seed, actions, ply)
    names, presenter, public = [s.name for s in match.seat_list], presenter_for(match.game), game.view(state, None)
    hands = [{"name": name, "cards": presenter.cards(game.view(state, n).get("hand"))} for n, name in enumerate(names)]
    # The step shown, with why it went so where it settled something (the log's why lines and hand summaries).
    step = presenter.log_entry(actions[ply - 1], names, reader=None, over=match.is_over) if ply else None
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
        return HttpResponse(
            "The export opens when the match is over: until then it would reveal the deal.",
            status=409,
            content_type="text/plain; charset=utf-8",
        )
    actions = [{"seat": m["seat"], "action": m["action"]} for m in match.moves.values("seat", "action")]
    log = make_log(match.game, match.players, match.seed, match.options, actions, match.state)
    # The engine counts seats from 0 and `python -m engine verify` reads them so; the table says "seat 1" for
    # seat 0. Say so, and name each seat, beside the log (verify ignores keys it does not know).
    log["seat_numbers"] = "0-based: seat 0 here is seat 1 at the table"
    log["seats"] = [{"seat": s.number, "table_seat": s.number + 1, "name": s.name} for s in match.seat_list]
    response = JsonResponse(log, json_dumps_params={"indent": 1, "ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="parlour-{match.game}-{match.pk}.json"'
    return response
