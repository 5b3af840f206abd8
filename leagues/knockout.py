"""Knockout heats: tables drawn from who is still in, the top places of each table going through. Pure, no Django.

Round 1 seats every entrant, best seed first, spread over the tables in a serpentine (the best at table 1, the
second at table 2, ..., then back), so that the strongest meet late; bots fill the short tables (the tables
differ by one person at most, fuller first). Each next round seats those who went through the same way, in
the order of their places (the tables' winners first, then their seconds, ...). A round of a single table is
the final: nothing is drawn after it.

Who goes through a table: its top ``advance`` entrants by their place there. A bot never goes through and
takes no place of the cut; a forfeiter never goes through, nor an entrant whose every move there was a
bot's (they timed out from the first turn, or were away: no result pays absence, so a table where fewer
people played than go through sends fewer); a table counted for nobody (void, or
nobody played) sends nobody through. A short table sends through at most one fewer than it seats people, so every
table sends someone home and the knockout always ends. Level at the cut: the season's standings decide
(points, then the league's tie-breaks), then the seeds (``rank``, lowest first).

The season's places: the final's places first, then everyone else by the round they went out in (later is
better), then their place at that table, their points there, and the standings. A table counted for nobody
places nobody: its players come after those placed in their round. A knockout that leaves one player after a
round of several tables (the others void, forfeited) ends there: that player won it (``WINNER``), no final.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

# What the standings page says of a player (``Run.status``).
PLAYING = "playing"  # at a table of the round being played
THROUGH = "through"  # through to a round not drawn yet
OUT = "out"
FINALIST = "final"  # placed in the final
WINNER = "won"  # the only one through a round that was not a final: nothing is drawn after it, they won
UNPLACED = 10_000


@dataclass(frozen=True)
class Heat:
    """A table as the rules read it: who sat where and, once counted, their places and points."""

    seats: tuple[int | None, ...]  # entrant ids in seat order; None for a bot
    places: tuple[int, ...] | None = None  # per seat; None before the count, or counted for nobody (void)
    points: tuple[float, ...] | None = None
    forfeited: frozenset[int] = frozenset()
    counted: bool = False
    absent: frozenset[int] = frozenset()  # entrants whose every move there was a bot's (``absent_seats``)

    @property
    def people(self) -> list[int]:
        return [e for e in self.seats if e is not None]


@dataclass(frozen=True)
class Run:
    """How far an entrant got: the last round they sat in, their place and points there, and what it means."""

    entrant: int
    reached: int
    status: str
    place: int | None = None
    points: float = 0.0
    details: dict[str, Any] = field(default_factory=dict)


def table_sizes(players: int, table_size: int) -> list[int]:
    """People per table: as few tables as hold everyone, none with two more people than another, fuller first."""
    if players < 1 or table_size < 2:
        raise ValueError("A knockout round needs at least one player and tables of two or more.")
    tables = -(-players // table_size)
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def heats(order: Sequence[int], *, table_size: int) -> list[tuple[int | None, ...]]:
    """The round's tables from ``order`` (best first), spread in a serpentine; bots in the empty seats at the end."""
    if len(set(order)) != len(order):
        raise ValueError("Each entrant sits at one table.")
    sizes = table_sizes(len(order), table_size)
    tables: list[list[int]] = [[] for _ in sizes]
    turn = 0
    left = list(order)
    while left:
        ends = range(len(sizes)) if turn % 2 == 0 else range(len(sizes) - 1, -1, -1)
        for t in ends:
            if left and len(tables[t]) < sizes[t]:
                tables[t].append(left.pop(0))
        turn += 1
    return [(*t, *[None] * (table_size - len(t))) for t in tables]


def through_from(people: int, advance: int) -> int:
    """How many of a table of ``people`` go through: ``advance``, but always at least one goes home (a lone
    player at a table of bots goes through)."""
    return min(advance, max(1, people - 1))


def rounds_needed(players: int, *, table_size: int, advance: int) -> int:
    """The rounds a knockout of ``players`` takes to its final, if everyone plays on."""
    if not 1 <= advance < table_size:
        raise ValueError(f"From 1 to {table_size - 1} players of a table of {table_size} can go through.")
    rounds = 1
    while players > table_size:
        players = sum(through_from(n, advance) for n in table_sizes(players, table_size))
        rounds += 1
    return rounds


def nobody_earned(places: Sequence[int]) -> bool:
    """A result that is nobody's (everyone last, as ``leagues.standings.nobody_places`` gives it)."""
    return len(places) > 1 and all(p == len(places) for p in places)


def absent_seats(result: Mapping[str, Any] | None) -> set[int]:
    """The seats of a counted result where every move was a bot's (``leagues.results``: each seat's moves and
    bot moves): their player timed out from the first turn, or was away. A seat with no move at all is not
    absent: a table an organizer settled as it stood before their turn came was cut short by them, not by
    the player (and the settle already places those who moved first). A substitute's moves count as the
    entrant's: the stand-in played for them. A result stored without its tallies tells nothing."""
    if not result or "moves" not in result or "bot_moves" not in result:
        return set()
    moves, bots = result["moves"], result["bot_moves"]
    return {i for i, (n, b) in enumerate(zip(moves, bots, strict=False)) if n and n == b}


def going_through(heat: Heat, *, advance: int, rank: Mapping[int, Any]) -> list[int]:
    """Who goes through the table, best first; nobody before it is counted, from a void table or nobody's."""
    if not heat.counted or heat.places is None or nobody_earned(heat.places):
        return []
    places = {e: heat.places[i] for i, e in enumerate(heat.seats) if e is not None}
    left_out = heat.forfeited | heat.absent
    able = sorted((e for e in places if e not in left_out), key=lambda e: (places[e], rank[e]))
    return able[: through_from(len(places), advance)]


def next_order(tables: Sequence[Heat], *, advance: int, rank: Mapping[int, Any]) -> list[int]:
    """Everyone going through a round, in the order the next round seats them: by their place, then ``rank``."""
    through = []
    for heat in tables:
        for position, entrant in enumerate(going_through(heat, advance=advance, rank=rank)):
            through.append((position, rank[entrant], entrant))
    return [entrant for *_key, entrant in sorted(through)]


def is_over(rounds: Sequence[Sequence[Heat]], *, advance: int, rank: Mapping[int, Any]) -> bool:
    """Whether nothing more is drawn: the last round drawn was a final, or it sent one player or nobody through."""
    if not rounds:
        return False
    last = rounds[-1]
    return len(last) <= 1 or len(next_order(last, advance=advance, rank=rank)) <= 1


def runs(rounds: Sequence[Sequence[Heat]], *, advance: int, rank: Mapping[int, Any]) -> list[Run]:
    """Every entrant's run, in the season's places (see the module's note); ``rounds`` as drawn so far."""
    seen: dict[int, tuple[int, Heat]] = {}
    for number, tables in enumerate(rounds, start=1):
        for heat in tables:
            for entrant in heat.people:
                seen[entrant] = (number, heat)
    # A knockout can end before its final (void tables, forfeits): the one player through its last round won.
    last = rounds[-1] if rounds else []
    alone = next_order(last, advance=advance, rank=rank) if len(last) > 1 and all(h.counted for h in last) else []
    found = []
    for entrant, (number, heat) in seen.items():
        seat = heat.seats.index(entrant)
        # Nobody's result (nobody played) places nobody, as a void table: its players come after those placed.
        place = heat.places[seat] if heat.counted and heat.places and not nobody_earned(heat.places) else None
        points = heat.points[seat] if heat.counted and heat.points else 0.0
        final = len(rounds[number - 1]) == 1
        if not heat.counted:
            status = PLAYING
        elif final:
            status = FINALIST
        elif number == len(rounds) and alone == [entrant]:
            status = WINNER
        elif number == len(rounds) and entrant in going_through(heat, advance=advance, rank=rank):
            status = THROUGH
        else:
            status = OUT
        found.append(Run(entrant=entrant, reached=number, status=status, place=place, points=points))
    order = {PLAYING: 0, THROUGH: 0, FINALIST: 0, WINNER: 0, OUT: 1}

    def key(run: Run) -> tuple[Any, ...]:
        # A void table's players (no place) come after those placed at the tables of their round.
        place = run.place if run.place is not None else UNPLACED
        return (-run.reached, order[run.status], place, -run.points, rank[run.entrant])

    return sorted(found, key=key)
