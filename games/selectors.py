"""Reads: the matches a player is in, who may see what, and the table's context."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from operator import attrgetter
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, Prefetch, QuerySet
from django.http import Http404
from django.utils import timezone

from accounts.models import User
from games.models import Match, Seat

# The dashboard lists matches; the snapshots and logs stay in the database.
HEAVY_FIELDS = ("state", "recent_moves", "recent_chat", "outcome", "options")


def matches_awaiting(*, user: User) -> QuerySet[Match]:
    """Active matches where the engine waits for this user, longest waiting first."""
    return Match.objects.filter(status=Match.Status.ACTIVE, seats__user=user, seats__awaiting=True).order_by(
        "updated_at", "pk"
    )


def awaiting_count(*, user: User) -> int:
    """For the header badge on every page: one indexed count, no join.

    ``awaiting`` is only ever true in active matches (it is cleared when a match ends).
    """
    return Seat.objects.filter(user=user, awaiting=True).count()


def dashboard_for(*, user: User) -> dict[str, Any]:
    """The player's matches, those awaiting them first; then invitations, open matches to watch."""
    mine = Seat.objects.filter(user=user).order_by("-match__updated_at")[:100]
    seats_prefetch = Prefetch("seats", queryset=Seat.objects.select_related("user"))
    matches = {s.match_id: s for s in mine}
    rows = list(
        Match.objects.filter(pk__in=matches)
        .defer(*HEAVY_FIELDS)
        .prefetch_related(seats_prefetch)
        .order_by("-updated_at")
    )
    for match in rows:
        match.my_seat = matches[match.pk]
        match.my_seat.match = match
    awaiting = [m for m in rows if m.status == Match.Status.ACTIVE and m.my_seat.awaiting]
    awaiting.sort(key=lambda m: m.updated_at)
    return {
        "invitations": [m.my_seat for m in rows if not m.my_seat.joined and m.status == Match.Status.WAITING],
        "awaiting": awaiting,
        "active": [m for m in rows if m.status == Match.Status.ACTIVE and not m.my_seat.awaiting],
        "waiting": [m for m in rows if m.status == Match.Status.WAITING and m.my_seat.joined],
        "finished": [m for m in rows if m.is_over][:20],
        "watch": list(
            Match.objects.filter(status=Match.Status.ACTIVE, private=False)
            .defer(*HEAVY_FIELDS)
            .exclude(Exists(Seat.objects.filter(match=OuterRef("pk"), user=user)))
            .prefetch_related(seats_prefetch)
            .order_by("-updated_at")[:10]
        ),
    }


# --- access ----------------------------------------------------------------


def match_for_viewer(*, match_id: int, user: User) -> tuple[Match, Seat | None]:
    """The match and the viewer's seat; 404 for a private match the viewer has no seat at.

    One query: the seats with their players and the match joined in (see ``match_and_seats``).
    """
    found = match_and_seats(match_id)
    if found is None:
        raise Http404("No such match.")
    match, seats = found
    match.seat_list = seats
    seat = next((s for s in seats if s.user_id == user.pk and s.joined), None)
    if seat is None and match.private:
        raise Http404("No such match.")
    return match, seat


def match_and_seats(match_id: int) -> tuple[Match, list[Seat]] | None:
    """The match and its seats (by number) with their players, from one query; None if there is no such match.

    The table page runs this on every load and poll. Every seat row carries the match; the first
    one is kept, so that ``seat.match`` is the same object for every seat. Sorted here rather than
    by the database: building the ORDER BY costs more than sorting these few rows.
    """
    query = Seat.objects.filter(match_id=match_id).select_related("match", "user").defer("user__password")
    seats = sorted(query.order_by(), key=attrgetter("number"))
    if not seats:
        return None
    match = seats[0].match
    for seat in seats:
        seat.match = match
    return match, seats


# What a move reads: the chat tail and the players' private fields stay in the database.
MOVE_SEAT_FIELDS = (
    *("id", "match", "number", "user", "bot_level", "joined", "awaiting", "notified_at", "deadline"),
    *("bank", "timeouts_in_row", "absent", "bot_moves"),
    "last_seen",  # a player at the table when the match ends sees the result there (notify.match_over_mails)
    *("user__id", "user__email", "user__display_name", "user__notify", "user__auto_forced_moves"),
    "user__vacation_started_at",  # a player on vacation gets no deadline (services.seat_clock_paused)
    "user__auto_vacation",  # asked before a timeout, so that only those who chose it cost a query
)


def match_locked(match_id: int) -> tuple[Match, list[Seat]] | None:
    """The match row, locked until the transaction ends, then its seats with their players; None if no such match.

    Two queries, in this order on purpose: the seats are read once the lock is held, so a move that
    waited for another one sees the seats as that one left them. (One join locking only the match
    would hand back, after the wait, the seat rows as they were before it: PostgreSQL re-reads only
    the locked row.) Only the match row is locked; the seats change only under that lock.
    """
    locked = Match.objects.select_for_update(of=("self",)).defer("recent_chat").filter(pk=match_id)
    match = next(iter(locked), None)  # not first(): its ORDER BY would only cost time
    if match is None:
        return None
    query = Seat.objects.filter(match_id=match_id).select_related("user").only(*MOVE_SEAT_FIELDS)
    seats = sorted(query.order_by(), key=attrgetter("number"))
    for seat in seats:
        seat.match = match
    return match, seats


def seat_for_player(*, match_id: int, user: User) -> Seat:
    """The user's seat, cheaply, for views that change something: 404 if hidden, 403 if not seated."""
    seat = Seat.objects.filter(match_id=match_id, user=user, joined=True).only("pk", "number", "match_id").first()
    if seat is not None:
        return seat
    if not Match.objects.filter(pk=match_id, private=False).exists():
        raise Http404("No such match.")
    raise PermissionDenied("You do not have a seat at this table.")


# --- the table -------------------------------------------------------------


@dataclass
class Table:
    """What the table page renders: the viewer's view of the state, never the state itself."""

    match: Match
    seat: Seat | None
    view: dict[str, Any]
    seats: list[Seat]
    legal: list[dict[str, Any]] = field(default_factory=list)
    moves: list[dict[str, Any]] = field(default_factory=list)
    more_moves: bool = False
    chat: list[dict[str, Any]] = field(default_factory=list)
    clocks: dict[str, Any] = field(default_factory=dict)

    @cached_property
    def names(self) -> list[str]:
        """Once per page: a player's name is checked each time it is read (``User.name``)."""
        return [s.name for s in self.seats]


def table_for(*, match: Match, seat: Seat | None) -> Table:
    """Built from the match row alone: the log and chat tails travel with the snapshot."""
    game = match.engine
    number = seat.number if seat is not None else None
    seats = getattr(match, "seat_list", None) or list(match.seats.select_related("user"))
    table = Table(match=match, seat=seat, view=game.view(match.state, number), seats=seats)
    if number is not None and match.status == Match.Status.ACTIVE:
        table.legal = game.legal_actions(match.state, number)
    table.moves = match.recent_moves
    table.more_moves = match.version > len(match.recent_moves)
    table.chat = match.recent_chat
    table.clocks = clocks_for(match=match, seats=seats, reader=seat)
    return table


def clocks_for(*, match: Match, seats: list[Seat], reader: Seat | None) -> dict[str, Any]:
    """Each seat's clock for ``templates/games/_clocks.html``, from the seats and players already read.

    An awaited seat with a running clock has its deadline (every awaited seat in a simultaneous step);
    any other seat the time its clock holds (``left_until``: now plus its bank, for ``timeuntil``). A
    seat whose player is on vacation says until when; an absent seat that the bot plays it, and the
    reader's own absent seat offers to take it back.
    """
    clock = match.clock
    active = match.status == Match.Status.ACTIVE
    now = timezone.now()
    rows = []
    for seat in seats:
        user = seat.user if not seat.is_bot else None
        bank = None if clock is None else (clock.initial if seat.bank is None else seat.bank)
        rows.append(
            {
                "number": seat.number,
                "name": seat.name,
                "awaited": active and seat.awaiting,
                "deadline": seat.deadline if active else None,
                "left_until": now + bank if active and bank is not None and seat.deadline is None else None,
                "vacation_until": user.vacation_until if user is not None and user.on_vacation else None,
                "absent": active and seat.absent and not seat.is_bot,
                "mine": reader is not None and seat.pk == reader.pk,
            }
        )
    return {
        "active": active,
        "description": clock.describe() if clock is not None else "",
        "now": now,
        "seats": rows,
    }
