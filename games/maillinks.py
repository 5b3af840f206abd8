"""Moves from the mail: a turn mail's short view of the seat, and a signed link per legal move.

A link carries a token signed with ``django.core.signing`` (its own salt) that binds the match, the
seat, its player, the match version the mail was made for and the exact action (canonical JSON).
Changing any of it breaks the signature. A token is refused after ``GAMES_MAIL_LINK_MAX_AGE_DAYS``
and once its turn is over: the seat has moved, or the table has moved on in a way that a move made
at the table would be refused as stale (``move_submit`` decides, under the match's lock). The link
is the credential for that one move only: opening it (a GET) changes nothing, and the move is
played by a POST from the confirmation page, for the seat's own player, without any login.

Everything shown comes from the seat's own view (``engine.view``), never from the state.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core import signing
from django.urls import reverse

from engine.cards import action_in
from games.errors import Refused
from games.forms import TooDeep, json_loads_shallow
from games.models import Match, Move, Seat
from games.presenters import log_line, presenter_for

SALT = "games.mail-move"
# Up to this many moves are offered as links; more (a bid of any amount) and the mail links to the table.
MAX_LINKS = 15
# What "the others just did": at most this many log lines, the newest.
MAX_SINCE = 12
LINK_INVALID = "This link is not valid: it may have been copied incompletely. Open the table to play."
LINK_EXPIRED = "This link has expired. Open the table to play."
TURN_OVER = "The table has moved on since this mail was sent: this move can no longer be made from it."

_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical(action: dict[str, Any]) -> str:
    return _CANONICAL.encode(action)


def max_age() -> timedelta:
    return timedelta(days=getattr(settings, "GAMES_MAIL_LINK_MAX_AGE_DAYS", 7))


@dataclass(frozen=True)
class MoveLink:
    """What a valid token says: this seat's player may make this move at this version of this match."""

    match_id: int
    seat: int
    user_id: int
    version: int
    action: dict[str, Any]


def link_token(*, match_id: int, seat: int, user_id: int, version: int, action: dict[str, Any]) -> str:
    payload = {"m": match_id, "s": seat, "u": user_id, "v": version, "a": canonical(action)}
    return signing.dumps(payload, salt=SALT)


def link_read(token: str) -> MoveLink:
    """The link a token stands for; ``Refused`` with a sentence for a token altered, malformed or too old."""
    try:
        data = signing.loads(token, salt=SALT, max_age=max_age())
    except signing.SignatureExpired:
        raise Refused(LINK_EXPIRED) from None
    except signing.BadSignature:
        raise Refused(LINK_INVALID) from None
    # Signed by us, so well formed; checked all the same, as a bug must not become a crash or a wrong move.
    ids = [data.get(k) for k in ("m", "s", "u", "v")] if isinstance(data, dict) else []
    # Ids and numbers the database can hold (a signed 64-bit column): a larger one is no row of ours.
    numbers = [n for n in ids if type(n) is int and 0 <= n < 2**63]
    if len(numbers) != 4 or not isinstance(data.get("a"), str):
        raise Refused(LINK_INVALID)
    try:
        action = json_loads_shallow(data["a"])
    except (ValueError, TooDeep):  # not JSON, or nested deeper than any move
        raise Refused(LINK_INVALID) from None
    if not isinstance(action, dict):
        raise Refused(LINK_INVALID)
    return MoveLink(match_id=numbers[0], seat=numbers[1], user_id=numbers[2], version=numbers[3], action=action)


def link_url(token: str) -> str:
    return reverse("games-mail-move", args=[token])


# --- what a turn mail shows ------------------------------------------------


def _names(seats: list[Seat]) -> list[str]:
    from games.services import mail_safe  # games.services imports this module

    return [mail_safe(seat.name) for seat in seats]


def short_view(*, match: Match, seat: int, seats: list[Seat]) -> dict[str, Any]:
    """The seat's own view in short, as plain data: the hand, the trick or centre, the scores, what the others did."""
    presenter, names = presenter_for(match.game), _names(seats)
    view = match.engine.view(match.state, seat)
    scores = view.get("scores") or []
    short: dict[str, Any] = {
        "hand": presenter.cards(view.get("hand")),
        "card_sets": presenter.card_sets(view),
        "centre": presenter.cards(view.get("centre")),
        "trick": presenter.trick_board(view, names)["plays"] if isinstance(view.get("trick"), list) else [],
        "trump": presenter.suit_name(view["trump"]) if isinstance(view.get("trump"), str) and view["trump"] else "",
        "hand_title": presenter.hand_title(view),
        "scores": [
            {"name": name, "score": presenter.score_text(scores[n]) if n < len(scores) else "", "me": n == seat}
            for n, name in enumerate(names)
        ],
        "since": _since(match, seat, names),
    }
    return short


def _since(match: Match, seat: int, names: list[str]) -> list[dict[str, Any]]:
    """The log lines after the seat's own last move (of those kept with the snapshot), newest last."""
    moves = list(match.recent_moves)
    mine = [i for i, m in enumerate(moves) if m.get("seat") == seat and m.get("kind") != "forced"]
    later = moves[mine[-1] + 1 :] if mine else moves
    return [log_line(m, names, reader=seat, over=match.is_over) for m in later[-MAX_SINCE:]]


def move_choices(*, match: Match, seat: int) -> list[dict[str, Any]] | None:
    """Each legal move of the seat as ``{"label", "action"}``; None when they are too many or composed.

    Composed: what the table offers as a choice to put together (a suit order, what a wild card
    stands for), which a row of links would not show well. Moves that read the same are offered once.
    """
    game, presenter = match.engine, presenter_for(match.game)
    view = game.view(match.state, seat)
    legal = game.legal_actions(match.state, seat)
    if not legal:
        return None
    groups = presenter.action_groups(legal, view)
    if any(g["type"] == "wild" or presenter.group_widget(g["type"], []) == "select" for g in groups):
        return None
    choices = [{"label": c["label"], "action": json.loads(c["value"])} for g in groups for c in g["choices"]]
    return choices if len(choices) <= MAX_LINKS else None


def turn_mail_context(*, match: Match, seat: Seat, seats: list[Seat], absolute: Any) -> dict[str, Any]:
    """What ``games/mail/turn.*`` shows beyond the greeting: the short view and a link per move (or none)."""
    assert seat.user_id is not None  # a turn mail goes to a seat's player
    choices = move_choices(match=match, seat=seat.number)
    links = [
        {
            "label": choice["label"],
            "url": absolute(
                link_url(
                    link_token(
                        match_id=match.pk,
                        seat=seat.number,
                        user_id=seat.user_id,
                        version=match.version,
                        action=choice["action"],
                    )
                )
            ),
        }
        for choice in choices or []
    ]
    return {"short": short_view(match=match, seat=seat.number, seats=seats), "links": links}


# --- the link's state, read when it is opened -----------------------------------


def link_state(*, link: MoveLink) -> tuple[str, Match | None, list[Seat]]:
    """``open`` (the move can be made), ``done`` (it was made), ``gone`` (the turn is over) or ``invalid``.

    With the match and its seats (none for ``invalid``). Read without a lock: the POST asks
    ``move_submit``, which decides under the match's lock.
    """
    from games.selectors import match_and_seats
    from games.services import _simultaneous_ok  # the rule the table's own moves follow

    found = match_and_seats(link.match_id)
    if found is None:
        return "invalid", None, []
    match, seats = found
    seat = next((s for s in seats if s.number == link.seat), None)
    if seat is None or seat.user_id != link.user_id:
        return "invalid", None, []
    if _link_move_made(link):
        return "done", match, seats
    if match.status != Match.Status.ACTIVE or link.seat not in match.engine.to_act(match.state):
        return "gone", match, seats
    if link.version != match.version and not _simultaneous_ok(match, link.seat, link.version):
        return "gone", match, seats
    if not action_in(link.action, match.engine.legal_actions(match.state, link.seat)):
        return "gone", match, seats
    return "open", match, seats


def _link_move_made(link: MoveLink) -> bool:
    """Whether the seat's player made this very move on this turn (from the link or at the table)."""
    made = Move.objects.filter(match_id=link.match_id, seat=link.seat, ply__gte=link.version, kind=Move.Kind.PLAYER)
    first = made.order_by("ply").values_list("action", flat=True).first()
    return first is not None and canonical(first) == canonical(link.action)


def move_by_link(*, link: MoveLink) -> Move:
    """Play the link's move for its seat's player: ``move_submit`` checks seat, turn and version under the lock.

    Refused (``MoveRefused``, changing nothing) once the turn has moved on, including when the link was used.
    """
    from games.services import move_submit

    seat = Seat.objects.filter(match_id=link.match_id, number=link.seat).select_related("user").first()
    if seat is None or seat.user is None or seat.user_id != link.user_id:
        raise Refused(LINK_INVALID)
    try:
        return move_submit(
            match=Match(pk=link.match_id),
            user=seat.user,
            seat=link.seat,
            action=link.action,
            version=link.version,
            kind=Move.Kind.PLAYER,
        )
    except Refused as exc:
        raise Refused(TURN_OVER) from exc
