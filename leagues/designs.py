"""Designs written in as data: parallel classes in which nobody meets anyone twice, found by a search.

Pure Python, no Django. ``leagues.fixtures`` starts a season's draw from these where its own
constructions (round robins, resolvable transversal designs) give fewer classes. Each design is a base
class on the points (x, a), x in Z_m and a < levels (point a*m + x), plus a few fixed points (m*levels
+ f); class i is the base class with every x shifted by i (fixed points stay), for i < shifts. Some also
have *transversal* classes: offsets (o_0, ..., o_{levels-1}) give the class of the tables
{(x + o_a, a) for every a}, x in Z_m. The bases were found offline by a backtracking search over
blocks (no pair difference used twice); the search is not part of the app. The tests rebuild every
design and check it (every class a partition into tables of k, no pair twice:
``tests/leagues/test_fixtures_repeats.py``), so a typing error in the data cannot reach a draw.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class _Design:
    m: int
    levels: int
    shifts: int
    base: str  # blocks "|" between them, each point "x,a" or "fN" (fixed point N)
    transversals: tuple[tuple[int, ...], ...] = ()


_DESIGNS = {
    # Kirkman's fifteen schoolgirls (1-rotational, Z_7 and a fixed point): 15 at threes over 7 rounds.
    (15, 3): _Design(7, 2, 7, "f0 1,1 2,0 | 1,0 3,1 4,1 | 2,1 5,0 6,1 | 3,0 4,0 6,0 | 0,1 0,0 5,1"),
    # A Kirkman triple system KTS(21): 7 classes developed over Z_7 and 3 transversal ones: 21 at threes
    # over 10 rounds, everyone meets everyone exactly once.
    (21, 3): _Design(
        7,
        3,
        7,
        "0,0 1,0 3,0 | 2,0 0,1 6,2 | 4,0 1,1 3,2 | 5,0 4,1 1,2 | 6,0 2,1 0,2 | 3,1 5,1 6,1 | 2,2 4,2 5,2",
        ((0, 0, 0), (0, 1, 2), (0, 2, 5)),
    ),
    # A resolvable (28, 4, 1) design (1-rotational, Z_9 and a fixed point): 28 at fours over 9 rounds.
    (28, 4): _Design(
        9,
        3,
        9,
        "f0 8,2 7,1 2,0 | 4,1 0,1 1,1 3,0 | 2,1 7,2 2,2 5,2 | 3,1 0,0 4,0 0,2 | 1,2 6,1 6,0 8,1"
        " | 8,0 7,0 5,0 6,2 | 4,2 1,0 3,2 5,1",
    ),
    # 40 at fours over 10 rounds (Z_10, four levels; 10 of a resolvable (40, 4, 1) design's 13 classes
    # are not needed as such: these 10 meet nobody twice, and the eleventh round on is searched).
    (40, 4): _Design(
        10,
        4,
        10,
        "0,0 0,1 9,2 6,0 | 1,0 3,3 4,1 9,0 | 2,0 3,2 9,1 0,3 | 3,0 6,3 2,3 1,2 | 4,0 6,2 5,1 9,3"
        " | 5,0 1,1 3,1 1,3 | 7,0 2,2 6,1 8,3 | 8,0 5,2 4,2 8,2 | 2,1 7,3 7,2 5,3 | 7,1 4,3 0,2 8,1",
    ),
}


# The sizes (points, table size) written in here: the tests check each of them.
DESIGNED = tuple(_DESIGNS)


def classes(v: int, k: int) -> list[list[list[int]]]:
    """The parallel classes of the design on v points at tables of k, or none."""
    design = _DESIGNS.get((v, k))
    return _built(design) if design else []


def _built(design: _Design) -> list[list[list[int]]]:
    m, levels = design.m, design.levels

    def point(text: str, shift: int) -> int:
        if text.startswith("f"):
            return m * levels + int(text[1:])
        x, a = map(int, text.split(","))
        return a * m + (x + shift) % m

    blocks = [block.split() for block in design.base.split("|")]
    result = [[[point(p, i) for p in block] for block in blocks] for i in range(design.shifts)]
    for offsets in design.transversals:
        result.append([[a * m + (x + o) % m for a, o in enumerate(offsets)] for x in range(m)])
    return result
