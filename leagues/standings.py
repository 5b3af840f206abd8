"""The arithmetic of the standings: what a result adds to a player's line, and who moves at a season's end. Pure.

No Django and no database: ``leagues.results`` reads and locks the rows and calls these on them, and
``tests/leagues/test_standings_rules.py`` checks each rule on plain objects (like ``leagues.tiebreaks``).

A result, as a fixture stores it, is per seat: ``places`` (1 = first), ``scores`` (the game's own),
``points`` (the league's), ``bot_moves`` and, once counted, ``opponents_rating``. A line takes a
result away as exactly as it adds one (``old`` then ``new``), so a corrected result changes the line
by the difference and nothing is recomputed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from leagues.errors import NumbersRefused
from leagues.tiebreaks import points_for_place
from leagues.wording import plural

FORM_LENGTH = 5
# The line's columns a result changes: ``leagues.results`` writes back these after ``line_apply``.
LINE_COLUMNS = (
    *("played", "points", "wins", "game_score", "bot_moves"),
    *("opponents_rating_total", "opponents_met", "form", "points_by_round", "meetings"),
)


class Table(Protocol):
    """What the rules read of a fixture: its id and who sits in each seat (an entrant's id, None for a bot)."""

    @property
    def pk(self) -> Any: ...

    @property
    def seats(self) -> Sequence[int | None]: ...


class StandingLine(Protocol):
    """A player's line in the standings (a ``Standing`` row), the sums a result changes."""

    played: int
    points: float
    wins: int
    game_score: float
    bot_moves: int
    opponents_rating_total: float
    opponents_met: int
    points_by_round: dict[str, float]
    meetings: dict[str, float]
    form: list[dict[str, Any]]


def place_points(place: int, places: Sequence[int], scheme: Sequence[float]) -> float:
    """Players sharing a place share the points of the places they cover (1, 1, 3: both get (4 + 2) / 2)."""
    return points_for_place(place, scheme, tied=sum(1 for p in places if p == place))


def line_apply(
    row: StandingLine, fixture: Table, seat: int, old: dict[str, Any] | None, new: dict[str, Any] | None, key: str
) -> None:
    """Take ``old`` away from the line of the player in ``seat`` and add ``new`` (either may be None).

    ``key`` is the round's number as text, the key of ``points_by_round``.
    """
    others = sum(1 for i, e in enumerate(fixture.seats) if e is not None and i != seat)
    for result, sign in ((old, -1), (new, 1)):
        if result is None:
            continue
        points = result["points"][seat]
        row.played += sign
        row.points += sign * points
        row.wins += sign * (result["places"][seat] == 1)
        row.game_score += sign * result["scores"][seat]
        row.bot_moves += sign * result["bot_moves"][seat]
        row.opponents_rating_total += sign * result.get("opponents_rating", [0.0] * len(fixture.seats))[seat]
        row.opponents_met += sign * others
        row.points_by_round = {**row.points_by_round, key: row.points_by_round.get(key, 0.0) + sign * points}
        meetings = dict(row.meetings)
        for other, opponent in enumerate(fixture.seats):
            if opponent is not None and other != seat:
                versus = str(opponent)
                meetings[versus] = meetings.get(versus, 0.0) + sign * against(result["places"], seat, other)
        # Only what was won is kept: an opponent never finished ahead of reads as 0, and the row stays small.
        row.meetings = {k: v for k, v in meetings.items() if v}
    row.form = form_apply(row.form, fixture, None if new is None else new["places"][seat], old is None)


def form_apply(form: list[dict[str, Any]], fixture: Table, place: int | None, fresh: bool) -> list[dict[str, Any]]:
    """The last five places, oldest first; a corrected result changes its entry where it stands."""
    entry = {"fixture": fixture.pk, "place": place, "of": len(fixture.seats)}
    if place is None:
        return [f for f in form if f["fixture"] != fixture.pk]
    if any(f["fixture"] == fixture.pk for f in form):
        return [entry if f["fixture"] == fixture.pk else f for f in form]
    return [*form, entry][-FORM_LENGTH:] if fresh else form


def against(places: Sequence[int], seat: int, other: int) -> float:
    """Head-to-head at one table: 1 for finishing ahead of the other, a half for level, 0 behind."""
    return 1.0 if places[seat] < places[other] else 0.5 if places[seat] == places[other] else 0.0


# --- the season's end: who moves between divisions --------------------------------


def division_moves(*, size: int, division: int, divisions: int, promote: int, relegate: int) -> tuple[int, int]:
    """How many of a division's ``size`` players go up and how many go down at the season's end.

    The top division promotes nobody and the bottom one relegates nobody; and never more move than
    there are, nor anyone twice: promotion is served first, relegation takes from those left.
    """
    up = min(promote, size) if division > 1 else 0
    down = min(relegate, size - up) if division < divisions else 0
    return up, down


def check_promotion_fits(*, sizes: dict[int, int], divisions: int, promote: int, relegate: int) -> None:
    """Refuse numbers that would move every player of a division, or more than it holds: at least one stays.

    ``sizes`` are the players per division (a division missing from it has none).
    """
    for division in range(1, divisions + 1):
        size = sizes.get(division, 0)
        up = promote if division > 1 else 0
        down = relegate if division < divisions else 0
        if up + down == 0 or up + down < size:
            continue
        moving = " and ".join(part for part in (up and f"{up} up", down and f"{down} down") if part)
        held = f"has only {plural(size, 'player')}" if size else "has no players"
        most = f"at most {size - 1} can move, so that one stays" if size > 1 else "nobody can move out of it"
        raise NumbersRefused(
            f"Division {division} {held}: it cannot send {moving} ({most}). Change the numbers of players "
            "promoted and relegated."
        )
