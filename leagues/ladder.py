"""A ladder: entrants hold rungs, tables are drawn from neighbouring rungs, results move players up and down. Pure.

The first rungs go by the seeds (the divisions' seeding, else rating, then registration). Each round's tables
are blocks of neighbouring rungs, from the top: rungs 1-4, 5-8, ... at tables of four; when the numbers do not
divide, the tables differ by one person at most, the higher ones fuller, and bots fill the empty seats. The
first seat goes round the block from one round to the next.

After each table its players take the block's rungs in the order of their places there (the winner the top
rung of the block; players level keep the order they had). Between two neighbouring tables that are both
counted, the winner of the lower table and the last of the upper one swap rungs: each round one player climbs
into the block above and one drops into the block below at every boundary, so a player can rise from the
bottom to the top over the season. A table counted for nobody (void, or nobody played) moves nobody and
swaps with neither neighbour. A forfeiter is placed last at their table (``leagues.standings``), so drops.
"""

from __future__ import annotations

from collections.abc import Sequence

from leagues.knockout import Heat, nobody_earned, table_sizes


def blocks(rungs: Sequence[int], *, table_size: int, turn: int = 0) -> list[tuple[int | None, ...]]:
    """The round's tables: neighbouring rungs from the top, each block's seats turned by ``turn``; bots at the end."""
    tables = []
    start = 0
    for size in table_sizes(len(rungs), table_size):
        block = list(rungs[start : start + size])
        start += size
        k = turn % len(block)
        tables.append((*block[k:], *block[:k], *[None] * (table_size - size)))
    return tables


def moves_anyone(heat: Heat) -> bool:
    """Whether a table's result moves its players: it is counted and somebody earned a result there."""
    return heat.counted and heat.places is not None and not nobody_earned(heat.places)


def climb(rungs: Sequence[int], tables: Sequence[Heat]) -> list[int]:
    """The ladder after a round's tables (those counted so far), from the ladder the round was drawn from."""
    ladder = list(rungs)
    position = {e: i for i, e in enumerate(ladder)}
    seated = [h for h in tables if h.people and all(e in position for e in h.people)]
    spans: list[tuple[list[int], bool]] = []
    for heat in sorted(seated, key=lambda h: min(position[e] for e in h.people)):
        spots = sorted(position[e] for e in heat.people)
        moved = moves_anyone(heat)
        if moved:
            assert heat.places is not None
            place = {e: heat.places[i] for i, e in enumerate(heat.seats) if e is not None}
            for spot, entrant in zip(spots, sorted(heat.people, key=lambda e: (place[e], position[e])), strict=True):
                ladder[spot] = entrant
        spans.append((spots, moved))
    for (upper, counted_above), (lower, counted_below) in zip(spans, spans[1:], strict=False):
        if counted_above and counted_below:
            i, j = upper[-1], lower[0]
            ladder[i], ladder[j] = ladder[j], ladder[i]
    return ladder


def ladder_after(start: Sequence[int], rounds: Sequence[Sequence[Heat]]) -> list[int]:
    """The ladder after every round given, in order, from the first rungs."""
    ladder = list(start)
    for tables in rounds:
        ladder = climb(ladder, tables)
    return ladder
