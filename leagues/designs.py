"""Designs written in as data: parallel classes in which nobody meets anyone twice, found by a search.

Pure Python, no Django. ``leagues.fixtures`` starts a season's draw from these where its own
constructions (round robins, resolvable transversal designs) give fewer classes. Most designs are a
base class on the points (x, a), x in Z_m and a < levels (point a*m + x), plus a few fixed points
(m*levels + f); class i is the base class with every x shifted by i (fixed points stay), for i < shifts.
Some also have *transversal* classes: offsets (o_0, ..., o_{levels-1}) give the class of the tables
{(x + o_a, a) for every a}, x in Z_m. The bases were found offline by a backtracking search over
blocks (no pair difference used twice). A design that is not developed by shifts is written out in
full instead (``classes``: every class's tables, points by number), found offline by a SAT search. The
searches are not part of the app. The tests rebuild every design and check it (every class a partition
into tables of k, no pair twice: ``tests/leagues/test_fixtures_repeats.py``), so a typing error in the
data cannot reach a draw.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class _Design:
    m: int = 0
    levels: int = 0
    shifts: int = 0
    base: str = ""  # blocks "|" between them, each point "x,a" or "fN" (fixed point N)
    transversals: tuple[tuple[int, ...], ...] = ()
    classes: str = ""  # classes written out: ";" between classes, "|" between tables, points by number


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
    # 32 at fours over 10 rounds (the Social Golfer Problem 8-4-10; a resolvable 4-GDD of type 2^16:
    # the pairs 2i, 2i+1 never meet, everyone meets the other 30 once). Found by a SAT search (CaDiCaL,
    # python-sat) imposing the automorphism group Z_2^3 read off a published solution (Wolfram
    # Demonstrations, "Social Golfer Problem"): point p goes to 8*(p//8) + ((p % 8) ^ u); u = 1 fixes
    # every class (it swaps the unmet pairs), u = 2 swaps classes 4-5, 6-7 and 8-9, u = 4 swaps 4-5.
    (32, 4): _Design(
        classes=(
            "0 14 21 24 | 1 15 20 25 | 2 12 23 26 | 3 13 22 27 | 4 10 17 28 | 5 11 16 29 | 6 8 19 30 | 7 9 18 31;"
            "0 12 22 25 | 1 13 23 24 | 2 14 20 27 | 3 15 21 26 | 4 8 18 29 | 5 9 19 28 | 6 10 16 31 | 7 11 17 30;"
            "0 2 4 6 | 1 3 5 7 | 8 10 13 15 | 9 11 12 14 | 16 18 24 26 | 17 19 25 27 | 20 22 28 30 | 21 23 29 31;"
            "0 3 9 10 | 1 2 8 11 | 4 7 13 14 | 5 6 12 15 | 16 19 20 23 | 17 18 21 22 | 24 27 29 30 | 25 26 28 31;"
            "0 7 27 28 | 1 6 26 29 | 2 13 19 31 | 3 12 18 30 | 4 11 21 25 | 5 10 20 24 | 8 14 17 23 | 9 15 16 22;"
            "0 15 17 29 | 1 14 16 28 | 2 5 25 30 | 3 4 24 31 | 6 9 23 27 | 7 8 22 26 | 10 12 19 21 | 11 13 18 20;"
            "0 11 19 26 | 1 10 18 27 | 2 7 16 21 | 3 6 17 20 | 4 15 23 30 | 5 14 22 31 | 8 12 24 28 | 9 13 25 29;"
            "0 5 18 23 | 1 4 19 22 | 2 9 17 24 | 3 8 16 25 | 6 13 21 28 | 7 12 20 29 | 10 14 26 30 | 11 15 27 31;"
            "0 13 16 30 | 1 12 17 31 | 2 10 22 29 | 3 11 23 28 | 4 9 20 26 | 5 8 21 27 | 6 14 18 25 | 7 15 19 24;"
            "0 8 20 31 | 1 9 21 30 | 2 15 18 28 | 3 14 19 29 | 4 12 16 27 | 5 13 17 26 | 6 11 22 24 | 7 10 23 25"
        )
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

    blocks = [block.split() for block in design.base.split("|")] if design.base else []
    result = [[[point(p, i) for p in block] for block in blocks] for i in range(design.shifts)]
    for offsets in design.transversals:
        result.append([[a * m + (x + o) % m for a, o in enumerate(offsets)] for x in range(m)])
    if design.classes:
        result += [[[int(p) for p in table.split()] for table in c.split("|")] for c in design.classes.split(";")]
    return result
