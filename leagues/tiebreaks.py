"""Standings order: points first, then the organizer's tie-breaks in their order. Pure, no Django.

Entrants equal on points and on every tie-break share a rank (1, 2, 2, 4). Head-to-head looks only
at the entrants still tied when it is its turn: in a three-way tie it is the mini-table of the
points those three scored against each other, not against the rest of the division.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

TIEBREAKS: dict[str, str] = {
    "points": "Points",
    "wins": "Wins",
    "head_to_head": "Head-to-head among the tied",
    "game_score": "Sum of game scores",
    "opponents_rating": "Average opponents' rating",
    "fewest_bot_moves": "Fewest moves played by a bot",
    # Reliability, apart from skill: who kept the table waiting least.
    "fewest_timeouts": "Fewest timeouts",
    "lowest_bot_share": "Smallest share of moves played by a bot",
}


@dataclass
class Line:
    player: int
    points: float
    wins: int
    game_score: float
    opponents_rating: float
    bot_moves: int
    played: int
    timeouts: int = 0
    moves: int = 0  # all the moves at the player's seats: theirs, their bot's, the forced ones

    @property
    def bot_share(self) -> float:
        """The share of the moves at the player's seats that a bot made; 0 before any move."""
        return self.bot_moves / self.moves if self.moves else 0.0


# How good a line is under each tie-break, higher is better; head_to_head depends on the group.
_VALUES: dict[str, Callable[[Line], float]] = {
    "points": lambda line: line.points,
    "wins": lambda line: line.wins,
    "game_score": lambda line: line.game_score,
    "opponents_rating": lambda line: line.opponents_rating,
    "fewest_bot_moves": lambda line: -line.bot_moves,
    "fewest_timeouts": lambda line: -line.timeouts,
    "lowest_bot_share": lambda line: -line.bot_share,
}


def rank(
    lines: Sequence[Line], order: Sequence[str], meetings: Mapping[tuple[int, int], float]
) -> list[tuple[int, Line]]:
    """(rank, line) best first. ``meetings[(a, b)]``: points a scored against b where both sat."""
    unknown = [key for key in order if key not in TIEBREAKS]
    if unknown:
        raise ValueError(f"Unknown tie-break: {', '.join(unknown)}.")
    keys = ["points", *(key for key in order if key != "points")]
    ranked: list[tuple[int, Line]] = []
    for group in _split(list(lines), keys, meetings):
        place = len(ranked) + 1
        ranked += [(place, line) for line in sorted(group, key=lambda line: line.player)]
    return ranked


def head_to_head(players: Sequence[int], meetings: Mapping[tuple[int, int], float]) -> dict[int, float]:
    """Each tied player's points against the others of the group, where they sat together."""
    return {a: sum(meetings.get((a, b), 0.0) for b in players if b != a) for a in players}


def _split(group: list[Line], keys: list[str], meetings: Mapping[tuple[int, int], float]) -> list[list[Line]]:
    """The group cut into tied groups, best first, by the first key and then the rest within each."""
    if len(group) < 2 or not keys:
        return [group]
    if keys[0] == "head_to_head":
        value = head_to_head([line.player for line in group], meetings)
    else:
        value = {line.player: _VALUES[keys[0]](line) for line in group}
    # Rounded so that sums of halves and thirds compare equal however they were added up. One pass into
    # buckets (not a scan of the group per level): a division of hundreds has about as many levels.
    buckets: dict[float, list[Line]] = {}
    for line in group:
        buckets.setdefault(round(value[line.player], 9), []).append(line)
    result: list[list[Line]] = []
    for level in sorted(buckets, reverse=True):
        result += _split(buckets[level], keys[1:], meetings)
    return result


def points_for_place(place: int, scheme: Sequence[float], *, tied: int = 1) -> float:
    """League points for a finishing place (1 = first) under e.g. scheme (4, 2, 1, 0).

    ``tied`` entrants sharing the place split the points of the places they cover: two tied for
    second under (4, 2, 1, 0) get (2 + 1) / 2 = 1.5 each. Places beyond the scheme score nothing.
    """
    if place < 1 or tied < 1:
        raise ValueError("Places start at 1 and a place is held by at least one entrant.")
    covered = range(place - 1, place - 1 + tied)
    return sum(scheme[i] if i < len(scheme) else 0.0 for i in covered) / tied
