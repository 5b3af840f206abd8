"""Reads: the matches a player is in, who may see what, and the table's context."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from operator import attrgetter
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import Count, Exists, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.http import Http404
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from config.cache import part_key
from games.models import Match, Seat


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


DASHBOARD_MATCHES = 100  # the player's newest matches the dashboard reads
DASHBOARD_WATCH = 10
# What a dashboard row shows, and no more: every column read is a column to compile into the query and to
# convert on every seat row. The match's game (its title), status, last change and outcome (a finished row
# shows the result); each seat's number, its player's name or what stands in for one (``Seat.name``), and
# whether it is awaited (the player's own seat sorts the row).
_ROW_FIELDS = (
    *("id", "match", "number", "user", "bot_level", "joined", "invite_token", "awaiting", "deadline"),
    *("match__id", "match__game", "match__status", "match__updated_at", "match__outcome"),
    *("user__id", "user__email", "user__display_name"),
)


# What the dashboard's index read takes of each seat row: enough to sort the rows, to show their times and to
# key each row's cached part (the match at its version, the reader's seat, every seat's player or stand-in),
# as plain tuples: no model object is built for a row whose part is in the page cache.
_INDEX_FIELDS = (
    *("match_id", "number", "user_id", "bot_level", "joined", "invite_token", "awaiting", "deadline"),
    *("match__game", "match__version", "match__status", "match__updated_at"),
    *("user__display_name", "user__email"),
)


@dataclass
class DashboardRow:
    """One match on the dashboard: what the row shows that time changes, and the key of the rest of it.

    ``part`` is the row's cached markup (the view fills it from the page cache, or renders it from
    ``match_rows`` on a miss); ``key`` names everything that part shows.
    """

    pk: int
    game: str
    status: str
    updated_at: Any
    key: str
    mine: int | None  # the reader's seat number; None for a match to watch
    awaiting: bool = False
    joined: bool = False
    deadline: Any = None
    part: str = ""

    @property
    def is_over(self) -> bool:
        return self.status in (Match.Status.FINISHED, Match.Status.ABANDONED)

    def get_absolute_url(self) -> str:
        return reverse("games-match", args=[self.pk])

    @property
    def status_label(self) -> str:
        return str(Match.Status(self.status).label)


def dashboard_for(*, user: User) -> dict[str, Any]:
    """The player's matches, those awaiting them first, then the open matches to watch: one narrow query.

    The player's newest matches and the open matches they have no seat at are two subqueries of one read
    of seats, as tuples (``DashboardRow``); ``match_rows`` reads the matches whose cached row part is
    missing. ``complete`` says whether every match of the player was read (fewer than ``DASHBOARD_MATCHES``),
    so that a count taken from these rows is the player's whole count.
    """
    newest = Seat.objects.filter(user=user).order_by("-match__updated_at").values("match_id")[:DASHBOARD_MATCHES]
    watched = (
        Match.objects.filter(status=Match.Status.ACTIVE, private=False)
        .exclude(Exists(Seat.objects.filter(match=OuterRef("pk"), user=user)))
        .order_by("-updated_at")
        .values("pk")[:DASHBOARD_WATCH]
    )
    found: dict[int, list[Any]] = {}
    index = Seat.objects.filter(Q(match__in=newest) | Q(match__in=watched)).values_list(*_INDEX_FIELDS, named=True)
    for seat in index.order_by():
        found.setdefault(seat.match_id, []).append(seat)
    rows, watch = [], []
    for match_id, seats in found.items():
        seats.sort(key=attrgetter("number"))
        mine = next((s for s in seats if s.user_id == user.pk), None)
        first = seats[0]
        people = tuple(
            (s.number, s.user_id, s.bot_level, s.joined, bool(s.invite_token), s.user__display_name, s.user__email)
            for s in seats
        )
        number = mine.number if mine is not None else None
        key = part_key(
            "dashboard-row", match_id, first.match__game, first.match__version, first.match__status, number, people
        )
        row = DashboardRow(
            pk=match_id,
            game=first.match__game,
            status=first.match__status,
            updated_at=first.match__updated_at,
            mine=number,
            key=key,
        )
        if mine is None:  # a watched match: the player has no seat there
            watch.append(row)
        else:
            row.awaiting, row.joined, row.deadline = mine.awaiting, mine.joined, mine.deadline
            rows.append(row)
    rows.sort(key=attrgetter("updated_at", "pk"), reverse=True)
    watch.sort(key=attrgetter("updated_at", "pk"), reverse=True)
    awaiting = [m for m in rows if m.status == Match.Status.ACTIVE and m.awaiting]
    awaiting.sort(key=attrgetter("updated_at"))
    return {
        "awaiting": awaiting,
        "active": [m for m in rows if m.status == Match.Status.ACTIVE and not m.awaiting],
        "waiting": [m for m in rows if m.status == Match.Status.WAITING and m.joined],
        "finished": [m for m in rows if m.is_over][:20],
        "watch": watch,
        "complete": len(rows) < DASHBOARD_MATCHES,
    }


def match_rows(match_ids: list[int]) -> list[Match]:
    """The matches a dashboard renders rows of, each with ``seat_list`` (their seats and players): one query."""
    return _matches_with_seats(Q(match__in=match_ids))


def _matches_with_seats(matches: Q) -> list[Match]:
    """The matches that ``matches`` (a condition on seats) selects, newest first, each with ``seat_list``.

    One query. Every seat row carries its match and player; the first row of a match gives the match
    object that all its seats share.
    """
    seats = Seat.objects.filter(matches).select_related("match", "user").only(*_ROW_FIELDS)
    found: dict[int, Match] = {}
    for seat in seats.order_by():
        if seat.match_id not in found:
            found[seat.match_id] = seat.match
            seat.match.seat_list = []
        match = seat.match = found[seat.match_id]
        match.seat_list.append(seat)
    for match in found.values():
        match.seat_list.sort(key=attrgetter("number"))
    return sorted(found.values(), key=attrgetter("updated_at", "pk"), reverse=True)


# --- access ----------------------------------------------------------------


@dataclass(frozen=True)
class PollMarks:
    """What a poll compares with the page it came from, and the viewer's seat for ``notify.seat_seen``."""

    version: int
    chat_mark: int
    is_over: bool
    seat: Seat | None


# A poll's two narrow reads, built once (as the table's read below): a request only adds its ids. A player
# has one seat at a match at most (``seat_one_per_user``), and a match one row: no ORDER BY or LIMIT needed.
_POLL_SEAT_READ = (
    Seat.objects.filter(joined=True)
    .values_list("pk", "number", "last_seen", "match__version", "match__recent_chat", "match__status")
    .order_by()
)
_POLL_MATCH_READ = Match.objects.values_list("version", "recent_chat", "status", "private").order_by()


def poll_marks(*, match_id: int, user: User) -> PollMarks:
    """The match's version and chat mark and the viewer's seat, from one narrow row: most polls end here.

    A player at the table (most polls) is answered by their seat joined to the match; anyone else by the
    match alone, a second narrow read. 404 for no such match, or a private one the viewer has no seat at
    (as ``match_for_viewer``).
    """
    mine = next(iter(_POLL_SEAT_READ.filter(match_id=match_id, user_id=user.pk)), None)
    if mine is not None:
        seat_id, number, last_seen, version, chat, status = mine
        seat = Seat(pk=seat_id, match_id=match_id, number=number, user_id=user.pk, joined=True, last_seen=last_seen)
    else:
        row = next(iter(_POLL_MATCH_READ.filter(pk=match_id)), None)
        if row is None or row[3]:
            raise Http404("No such match.")
        version, chat, status, _private = row
        seat = None
    over = status in (Match.Status.FINISHED, Match.Status.ABANDONED)
    return PollMarks(version=version, chat_mark=chat[-1]["id"] if chat else 0, is_over=over, seat=seat)


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
    # The header's count for a player at the table came with the seats (``AWAITING_OF_PLAYER``).
    match.viewer_awaiting = (getattr(seat, "player_awaiting", None) or 0) if seat is not None else None
    return match, seat


SEAT_FIELDS = tuple(f.name for f in Seat._meta.concrete_fields)
MATCH_FIELDS = tuple(f"match__{f.name}" for f in Match._meta.concrete_fields)
# What the table shows of a seated player: the name, the vacation (the clocks). Every other column of
# the wide user row costs time to select and to load on every page and poll.
TABLE_USER_FIELDS = (
    "user__id",
    "user__email",
    "user__display_name",
    "user__vacation_started_at",
    "user__vacation_until",
)


# On each seat row of the table's read: how many matches await that seat's player (the header's "your turn"
# count, read with the table instead of by a query of its own). Built once: a correlated subquery has no
# parameter of its own to change between requests.
AWAITING_OF_PLAYER = Subquery(
    Seat.objects.filter(user_id=OuterRef("user_id"), awaiting=True)
    .order_by()
    .values("user_id")
    .annotate(n=Count("pk"))
    .values("n"),
    output_field=IntegerField(),
)


def match_and_seats(match_id: int, *, whole_users: bool = False) -> tuple[Match, list[Seat]] | None:
    """The match and its seats (by number) with their players, from one query; None if there is no such match.

    The table page runs this on every load and poll. Every seat row carries the match; the first
    one is kept, so that ``seat.match`` is the same object for every seat. Sorted here rather than
    by the database: building the ORDER BY costs more than sorting these few rows. The players
    carry only what the table shows (``TABLE_USER_FIELDS``) unless ``whole_users`` (the mails).
    """
    return _match_of_seats((_WHOLE_USERS_READ if whole_users else _TABLE_READ).filter(match_id=match_id))


# What a move reads: what the move needs, and what the table an htmx move answers with shows (the view
# renders it from these rows, not from a second read). The players' other fields stay in the database.
MOVE_SEAT_FIELDS = (
    *("id", "match", "number", "user", "bot_level", "joined", "awaiting", "notified_at", "deadline"),
    *("bank", "timeouts_in_row", "absent", "bot_moves", "invite_email", "invite_token"),
    "last_seen",  # a player at the table when the match ends sees the result there (notify.match_over_mails)
    *("user__id", "user__email", "user__display_name", "user__notify", "user__auto_forced_moves"),
    "user__vacation_started_at",  # a player on vacation gets no deadline (Seat.clock_paused)
    "user__vacation_until",  # the table's clocks say until when
    "user__auto_vacation",  # asked before a timeout, so that only those who chose it cost a query
)


def _match_of_seats(query: QuerySet[Seat]) -> tuple[Match, list[Seat]] | None:
    """The seats of one match (by number) with the match joined in, all sharing the first row's match object."""
    seats = sorted(query, key=attrgetter("number"))
    if not seats:
        return None
    match = seats[0].match
    for seat in seats:
        seat.match = match
    return match, seats


# The reads above, built once: only the match's id changes between requests, and building a query's
# columns, joins and subquery anew (``only``, ``select_related``, ``annotate``) costs a table page or a
# move about a quarter of a millisecond. ``filter`` copies them; nothing here is ever evaluated itself.
_TABLE_READ = (
    Seat.objects.select_related("match", "user")
    .only(*SEAT_FIELDS, *MATCH_FIELDS, *TABLE_USER_FIELDS)
    .annotate(player_awaiting=AWAITING_OF_PLAYER)
    .order_by()
)
_WHOLE_USERS_READ = Seat.objects.select_related("match", "user").defer("user__password").order_by()
_LOCKED_READ = (
    Seat.objects.select_for_update(of=("match", "self"))
    .select_related("match", "user")
    .only(*MOVE_SEAT_FIELDS, *MATCH_FIELDS)
    .order_by()
)
_LOCKED_SKIPPING_READ = (
    Seat.objects.select_for_update(of=("match", "self"), skip_locked=True)
    .select_related("match", "user")
    .only(*MOVE_SEAT_FIELDS, *MATCH_FIELDS)
    .order_by()
)


def match_locked(match_id: int) -> tuple[Match, list[Seat]] | None:
    """The match and its seats with their players, the match row and the seat rows locked until the
    transaction ends, from one query; None if there is no such match.

    ``FOR UPDATE OF match, seat``: PostgreSQL takes the locks of each joined row in that order, so the
    match is locked before its seats, as every other path that locks both takes them (the timeout's
    claim, the vacation pause, an invitation's acceptance). Because the seat rows are locked too, a move
    that waited for another one gets them back as that one left them (PostgreSQL re-reads the rows it
    locks after a wait; a join locking only the match would hand back the seats as they were before it).
    The players are read, not locked. SQLite ignores the clause and serialises writers itself.
    """
    return _match_of_seats(_LOCKED_READ.filter(match_id=match_id))


def matches_locked(match_ids: list[int]) -> tuple[list[tuple[Match, list[Seat]]], list[int]]:
    """The matches of a batch with their seats and players, each match row and its seat rows locked until the
    transaction ends, from one query; and the ids it did not lock, in the order given.

    As ``match_locked`` for one match, but ``SKIP LOCKED``: a match that another transaction holds (a
    player moving, its own deadline task), or one of whose seats it holds, is left out rather than
    waited for, so that a batch never waits while holding the others, and two batches never wait
    for each other. A match that lost some seats this way is left out too: the caller plays the
    left-out matches one by one with ``match_locked``, which waits (and finds no match that does not exist).
    """
    rows: dict[int, list[Seat]] = {}
    for seat in _LOCKED_SKIPPING_READ.filter(match_id__in=match_ids):
        rows.setdefault(seat.match_id, []).append(seat)
    found, left = [], []
    for match_id in dict.fromkeys(match_ids):
        seats = rows.get(match_id)
        if seats is None or len(seats) != seats[0].match.players:
            left.append(match_id)
            continue
        seats.sort(key=attrgetter("number"))
        match = seats[0].match
        for seat in seats:
            seat.match = match
        found.append((match, seats))
    return found, left


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

    def public_key(self, *, viewer_id: int | None) -> str | None:
        """The key of the table's parts that every viewer in this seat sees alike, from the rows already read.

        The seats list, the board, the details, the log and the chat show the match at its version (the
        state, the log and the outcome change only with it, the chat with its mark) as the viewer's seat
        may see it (a spectator: no hand), with the players' names and kinds; the match's creator also
        sees the addresses of open invitations. Every one of these is in the key, so a cached part can
        never show another seat's cards or an older table. A waiting match is not cached (its page says
        when invitations expire, which time changes).
        """
        match = self.match
        if match.status == Match.Status.WAITING:
            return None
        seats = tuple((s.number, s.user_id, s.name, s.bot_level, s.joined, s.invite_email) for s in self.seats)
        viewer = self.seat.number if self.seat is not None else "watching"
        creator = viewer_id is not None and match.created_by_id == viewer_id
        return part_key(match.pk, match.game, match.version, match.status, match.chat_mark, viewer, creator, seats)


def table_for(*, match: Match, seat: Seat | None) -> Table:
    """Built from the match row alone: the log and chat tails travel with the snapshot."""
    game = match.engine
    number = seat.number if seat is not None else None
    seats = getattr(match, "seat_list", None) or list(match.seats.select_related("user"))
    table = Table(match=match, seat=seat, view=game.view(match.state, number), seats=seats)
    if number is not None and match.status == Match.Status.ACTIVE:
        table.legal = game.legal_actions(match.state, number)
    table.moves = match.recent_moves
    # Earlier moves than the log's oldest line exist (the log also holds notes that are not moves).
    oldest = next((m.get("ply") for m in match.recent_moves if isinstance(m.get("ply"), int)), None)
    table.more_moves = match.version > 0 and (oldest is None or oldest > 0)
    table.chat = match.recent_chat
    table.clocks = clocks_for(match=match, seats=seats, reader=seat)
    return table


def clocks_for(*, match: Match, seats: list[Seat], reader: Seat | None) -> dict[str, Any]:
    """Each seat's clock for ``templates/games/_clocks.html``, from the seats and players already read.

    An awaited seat with a running clock has its deadline (every awaited seat in a simultaneous step);
    any other seat the time its clock holds (``left_until``: now plus its bank, for ``timeuntil``). A
    seat whose player is on vacation says until when; an absent seat that the bot plays it, and the
    reader's own absent seat offers to take it back. A bot has no clock: it plays at once.
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
                "bot": seat.is_bot,
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
