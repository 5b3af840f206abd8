"""Moves from the mail: the signed link per legal move that a turn mail carries, and what a link says when opened.

A link carries a token signed with ``django.core.signing`` (its own salt) that binds the match, the
seat, its player, the match version the mail was made for and the exact action (canonical JSON).
Changing any of it breaks the signature. A token is refused after ``GAMES_MAIL_LINK_MAX_AGE_DAYS``
and once its turn is over: the seat has moved, or the table has moved on in a way that a move made
at the table would be refused as stale (``move_submit`` decides, under the match's lock). The link
is the credential for that one move only: opening it (a GET) changes nothing, and the move is
played by a POST from the confirmation page, for the seat's own player, without any login
(``services.move_by_link``). The turn mail itself, with its short view of the seat and the links
this module signs, is written by ``games.outbox``.
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
from games.selectors import match_and_seats

SALT = "games.mail-move"
# Up to this many moves are offered as links; more (a bid of any amount) and the mail links to the table.
MAX_LINKS = 15
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


# --- the link's state, read when it is opened -----------------------------------


def link_state(*, link: MoveLink) -> tuple[str, Match | None, list[Seat]]:
    """``open`` (the move can be made), ``done`` (it was made), ``gone`` (the turn is over) or ``invalid``.

    With the match and its seats (none for ``invalid``). Read without a lock: the POST asks
    ``move_submit``, which decides under the match's lock.
    """
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
    if link.version != match.version and not match.simultaneous_ok(link.seat, link.version):  # as at the table
        return "gone", match, seats
    if not action_in(link.action, match.engine.legal_actions(match.state, link.seat)):
        return "gone", match, seats
    return "open", match, seats


def _link_move_made(link: MoveLink) -> bool:
    """Whether the seat's player made this very move on this turn (from the link or at the table)."""
    made = Move.objects.filter(match_id=link.match_id, seat=link.seat, ply__gte=link.version, kind=Move.Kind.PLAYER)
    first = made.order_by("ply").values_list("action", flat=True).first()
    return first is not None and canonical(first) == canonical(link.action)
