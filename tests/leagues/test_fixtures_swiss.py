"""The Swiss drawer (leagues.fixtures.swiss_round): neighbours in the standings, few old opponents. No database."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from leagues.fixtures import swiss_round


def old_opponents(tables: tuple[tuple[int | None, ...], ...], met: Counter[tuple[int, int]]) -> int:
    """Recounted: pairs at the new tables who met before (each adds one repeated meeting)."""
    return sum(
        met[(min(a, b), max(a, b))] > 0
        for table in tables
        for a, b in combinations([p for p in table if p is not None], 2)
    )


def test_it_seats_neighbours_in_the_standings_when_nobody_has_met() -> None:
    tables = swiss_round([8, 3, 5, 1, 7, 2, 6, 4], table_size=4, met={})
    assert [t.seats for t in tables] == [(8, 3, 5, 1), (7, 2, 6, 4)]


def test_it_moves_the_nearest_who_has_not_met_the_table_up() -> None:
    tables = swiss_round([1, 2, 3, 4, 5, 6, 7, 8], table_size=4, met={(1, 2): 1})
    assert [t.seats for t in tables] == [(1, 3, 4, 5), (2, 6, 7, 8)]


def test_it_fills_the_last_tables_with_bots_as_the_season_draw_does() -> None:
    tables = swiss_round(list(range(10)), table_size=4, met={})
    assert [t.seats for t in tables] == [(0, 1, 2, 3), (4, 5, 6, None), (7, 8, 9, None)]


@pytest.mark.parametrize(("n", "size"), [(12, 3), (16, 4), (17, 4), (20, 5), (13, 2)])
def test_it_repeats_no_more_than_cutting_the_standings_into_blocks(n: int, size: int) -> None:
    rng = random.Random(n)
    for _ in range(20):
        order = rng.sample(range(n), n)
        met: Counter[tuple[int, int]] = Counter()
        for a, b in combinations(range(n), 2):
            if rng.random() < 0.3:
                met[(a, b)] = rng.randint(1, 2)
        tables = swiss_round(order, table_size=size, met=met)
        seated = [p for t in tables for p in t.seats if p is not None]
        assert sorted(seated) == list(range(n)), "everyone once"
        assert all(len(t.seats) == size for t in tables)
        blocks, start = [], 0
        for t in tables:
            cap = sum(p is not None for p in t.seats)
            blocks.append(tuple(order[start : start + cap]))
            start += cap
        assert old_opponents(tuple(t.seats for t in tables), met) <= old_opponents(tuple(blocks), met)
        assert tables[0].seats[0] == order[0], "the leader heads the top table"


def test_it_refuses_what_cannot_be_drawn() -> None:
    with pytest.raises(ValueError, match="two different entrants"):
        swiss_round([1, 1, 2], table_size=2, met={})
