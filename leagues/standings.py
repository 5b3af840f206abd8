"""The arithmetic of the standings: what a result adds to a player's line, and who moves at a season's end. Pure.

No Django and no database: ``leagues.results`` reads and locks the rows and calls these on them, and
``tests/leagues/test_standings_rules.py`` checks each rule on plain objects (like ``leagues.tiebreaks``).

A result, as a fixture stores it, is per seat: ``places`` (1 = first), ``scores`` (the game's own),
``points`` (the league's), ``bot_moves`` and, once counted, ``opponents_rating``. A line takes a
result away as exactly as it adds one (``old`` then ``new``), so a corrected result changes the line
by the difference and nothing is recomputed.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, Protocol

from leagues.errors import LeagueRefused, NumbersRefused
from leagues.tiebreaks import points_for_place
from leagues.wording import plural

FORM_LENGTH = 5
# The line's columns a result changes: ``leagues.results`` writes back these after ``line_apply``.
LINE_COLUMNS = (
    *("played", "points", "wins", "game_score", "bot_moves", "timeouts", "moves"),
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
    timeouts: int
    moves: int
    opponents_rating_total: float
    opponents_met: int
    points_by_round: dict[str, float]
    meetings: dict[str, float]
    form: list[dict[str, Any]]


def place_points(place: int, places: Sequence[int], scheme: Sequence[float]) -> float:
    """Players sharing a place share the points of the places they cover (1, 1, 3: both get (4 + 2) / 2)."""
    return points_for_place(place, scheme, tied=sum(1 for p in places if p == place))


# --- the scoring policy: places among the seats, forfeits, absence -----------------
# Said in words for players on the league page (templates/leagues/_scoring_policy.html): keep both alike.

Groups = Sequence[Sequence[int]]


def seat_groups(size: int, partners: Groups | None) -> list[tuple[int, ...]]:
    """The sides of a table: the partnerships of a team game, else each seat alone."""
    return [tuple(g) for g in partners] if partners else [(i,) for i in range(size)]


def ranked_places(keys: Sequence[Sequence[float]], groups: Groups) -> list[int]:
    """Places among the seats (competition ranking, 1, 1, 3) from one key per side, lowest key best.

    A side covers as many places as it has seats, and its partners share them: Karnoffel's winning
    team holds places 1 and 2 (both are 1st), the losing team places 3 and 4 (both are 3rd).
    """
    places = [0] * sum(len(g) for g in groups)
    for group, key in zip(groups, keys, strict=True):
        ahead = sum(len(other) for other, k in zip(groups, keys, strict=True) if tuple(k) < tuple(key))
        for seat in group:
            places[seat] = ahead + 1
    return places


def result_places(
    places: Sequence[int],
    groups: Groups,
    *,
    behind: Collection[int] = (),
    absent: Collection[int] = (),
    people: Collection[int] | None = None,
) -> list[int] | None:
    """The places a table's result gives its seats, or None when nobody earned one.

    ``places`` are the game's own (a team game's 1, 2, 1, 2). A side with a seat in ``behind`` (it
    forfeited) comes after every side without one; then a side whose every seat is in ``absent`` (nobody
    of it made a move of their own) after the sides that played; within each, the game's order. None when
    no side with one of the ``people`` (the seats the standings count; all when not given) is left that
    neither forfeited nor stayed away: a table nobody played for is nobody's win.
    """
    people = range(len(places)) if people is None else people
    forfeit = [any(s in behind for s in g) for g in groups]
    away = [all(s in absent for s in g) for g in groups]
    if not any(any(s in people for s in g) and not (f or a) for g, f, a in zip(groups, forfeit, away, strict=True)):
        return None
    keys = [
        (float(f), float(a), float(min(places[s] for s in g))) for g, f, a in zip(groups, forfeit, away, strict=True)
    ]
    return ranked_places(keys, groups)


def nobody_places(size: int) -> list[int]:
    """A table nobody earned a result at: everyone is last, so nobody has a win."""
    return [size] * size


def result_points(places: Sequence[int], scheme: Sequence[float], *, nobody: bool = False) -> list[float]:
    """League points per seat for places among the seats; ``nobody``: each gets the last place's points alone."""
    size = len(places)
    if nobody:
        last = scheme[size - 1] if size - 1 < len(scheme) else 0.0
        return [float(last)] * size
    return [place_points(p, places, scheme) for p in places]


def forfeit_scores(scores: Sequence[float], behind: Collection[int]) -> list[float]:
    """With the game's own score as points, a seat that forfeited keeps at most the lowest score of those who
    played on: a bot's good play after the forfeit never lifts the forfeiter above anyone. All forfeited: 0."""
    stayed = [s for i, s in enumerate(scores) if i not in behind]
    if not stayed:
        return [0.0] * len(scores)
    low = min(stayed)
    return [min(s, low) if i in behind else float(s) for i, s in enumerate(scores)]


def check_ranking(places: Sequence[int], groups: Groups) -> list[int]:
    """An organizer's places as a ranking among the seats, or a refusal saying what a ranking is.

    A competition ranking: players level share a place and the places they cover are skipped (1, 1, 3
    is one; 1, 3, 3 and 2, 2, 2 are not). In a team game partners share their place, given among the
    seats (1, 3, 1, 3) or, as the game gives it, among the teams (1, 2, 1, 2).
    """
    size = len(places)
    if size != sum(len(g) for g in groups) or any(
        isinstance(p, bool) or not isinstance(p, int) or not 1 <= p <= size for p in places
    ):
        raise LeagueRefused(f"Give a place from 1 to {size} for each seat at the table.")
    split = next((g for g in groups if len({places[s] for s in g}) > 1), None)
    if split is not None:
        seats = " and ".join(f"seat {s + 1}" for s in split)
        raise LeagueRefused(f"Partners share their place: give {seats} the same place.")
    sides = [places[g[0]] for g in groups]
    as_sides = ranked_places([(p,) for p in sides], groups)
    if list(places) == as_sides:
        return list(places)
    if len(groups) < size and sides == ranked_places([(p,) for p in sides], [(i,) for i in range(len(groups))]):
        return as_sides  # the teams' places, as the game gives them
    shown = ", ".join(map(str, places))
    raise LeagueRefused(
        f"{shown} is not a ranking: players level share a place and the next places are skipped "
        "(1, 1, 3 is a ranking; 1, 3, 3 and 2, 2, 2 are not)."
    )


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
        # Results counted before the reliability columns existed have neither list: they add nothing there.
        row.timeouts += sign * result.get("timeouts", [0] * len(fixture.seats))[seat]
        row.moves += sign * result.get("moves", [0] * len(fixture.seats))[seat]
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
