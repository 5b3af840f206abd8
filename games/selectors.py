"""Reads: the matches a player is in, who may see what, and the table's context."""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Exists, Model, OuterRef, Prefetch, QuerySet
from django.http import Http404

from accounts.models import User
from games.models import Match, Seat

# The dashboard lists matches; the snapshots and logs stay in the database.
HEAVY_FIELDS = ("state", "recent_moves", "recent_chat", "outcome", "options")


def matches_awaiting(*, user: User) -> QuerySet[Match]:
    """Active matches where the engine waits for this user, longest waiting first."""
    return Match.objects.filter(
        status=Match.Status.ACTIVE, seats__user=user, seats__awaiting=True
    ).order_by("updated_at", "pk")


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
        Match.objects.filter(pk__in=matches).defer(*HEAVY_FIELDS).prefetch_related(seats_prefetch).order_by("-updated_at")
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


# The field names read of a match, its seats and their players, in that order.
Reads = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]
ALL_READS: Reads = (
    tuple(f.name for f in Match._meta.concrete_fields),
    tuple(f.name for f in Seat._meta.concrete_fields),
    tuple(f.name for f in User._meta.concrete_fields if f.name != "password"),  # never needed to show a table
)
_TABLES = {Match: "m", Seat: "s", User: "u"}
# Per model: where its columns sit in the row, their attribute names, and each column's converters.
_Plan = tuple[int, int, list[str], list[list[tuple[Any, Any]]]]


def match_and_seats(
    match_id: int, *, reads: Reads = ALL_READS, for_update: bool = False
) -> tuple[Match, list[Seat]] | None:
    """The match and its seats (by number) with their players, from one query; None if there is no such match.

    The table page and every move run this. The SQL is written out once per database and set of
    fields rather than built by the ORM on each call (building it cost more than running it), and the
    match is made once, not once per seat row with its snapshot, log and chat decoded each time.
    ``for_update`` locks the match row (not the seats or players) until the transaction ends.
    """
    sql, plans = _match_query(reads, for_update)
    with connection.cursor() as cursor:
        cursor.execute(sql, [match_id])
        rows = cursor.fetchall()
    if not rows:
        return None
    match, seats = _instance(Match, plans[0], rows[0]), []
    for row in rows:
        seat = _instance(Seat, plans[1], row)
        seat.match = match
        seat.user = _instance(User, plans[2], row) if seat.user_id is not None else None
        seats.append(seat)
    # Sorted here rather than by the database: an ORDER BY would only serve these few rows.
    return match, sorted(seats, key=attrgetter("number"))


def _match_query(reads: Reads, for_update: bool) -> tuple[str, list[_Plan]]:
    """Made once per connection (its converters are bound to it), then kept on the connection object."""
    db = connections[DEFAULT_DB_ALIAS]  # this thread's connection object, not the shared proxy
    made = db.__dict__.setdefault("_games_match_queries", {})
    if (reads, for_update) not in made:
        made[reads, for_update] = _match_query_make(db, reads, for_update)
    return made[reads, for_update]


def _match_query_make(db: BaseDatabaseWrapper, reads: Reads, for_update: bool) -> tuple[str, list[_Plan]]:
    quote, columns, plans, start = db.ops.quote_name, [], [], 0
    for (model, table), names in zip(_TABLES.items(), reads, strict=True):
        fields = [f for f in model._meta.concrete_fields if f.name in names]  # from_db wants the model's order
        columns += [f"{table}.{quote(f.column)}" for f in fields]
        converters = [
            [(c, f.get_col(table)) for c in db.ops.get_db_converters(f.get_col(table)) + f.get_db_converters(db)]
            for f in fields
        ]
        plans.append((start, start + len(fields), [f.attname for f in fields], converters))
        start += len(fields)
    on_match, on_user = (quote(Seat._meta.get_field(name).column) for name in ("match", "user"))
    sql = (
        f"SELECT {', '.join(columns)} FROM {quote(Seat._meta.db_table)} s "
        f"INNER JOIN {quote(Match._meta.db_table)} m ON s.{on_match} = m.{quote(Match._meta.pk.column)} "
        f"LEFT OUTER JOIN {quote(User._meta.db_table)} u ON s.{on_user} = u.{quote(User._meta.pk.column)} "
        f"WHERE s.{on_match} = %s"
    )
    if for_update and db.features.has_select_for_update:  # SQLite has none: its writers are serialized anyway
        sql += " FOR UPDATE OF m" if db.features.has_select_for_update_of else " FOR UPDATE"
    return sql, plans


def _instance(model: type[Model], plan: _Plan, row: tuple[Any, ...]) -> Any:
    """A model instance from its slice of a row, converted as the ORM converts (JSON, booleans, datetimes)."""
    start, end, attnames, converters = plan
    values = []
    for value, steps in zip(row[start:end], converters, strict=True):
        for convert, column in steps:
            value = convert(value, column, connection)
        values.append(value)
    return model.from_db(connection.alias, attnames, values)


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

    @property
    def names(self) -> list[str]:
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
    return table
