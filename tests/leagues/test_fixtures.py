"""Fixture generation (leagues.fixtures): pure, no database."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from typing import Literal

import pytest

from engine import karnoffel, rapscallion, renfield, rentz
from leagues.fixtures import Round, Table, repeated_pairs, repeated_partners, schedule, seat_balance

# Every table size a game allows, and whether seats 0+2 and 1+3 are partners.
Fill = Literal["bots", "byes"]

TABLE_SIZES = sorted(
    {
        (size, game is karnoffel)
        for game in (renfield, rentz, karnoffel, rapscallion)
        for size in range(game.MIN_PLAYERS, game.MAX_PLAYERS + 1)
    }
)


def check_round(round_: Round, entrants: list[int], size: int, fill: str) -> None:
    seated = [p for table in round_.tables for p in table.seats if p is not None]
    assert sorted(seated + list(round_.byes)) == sorted(entrants), "everyone once: at a table or on a bye"
    assert all(len(table.seats) == size for table in round_.tables)
    humans = [sum(p is not None for p in table.seats) for table in round_.tables]
    if fill == "bots":
        assert not round_.byes
        assert len(round_.tables) == -(-len(entrants) // size), "bots only fill the last places, no extra table"
        assert max(humans) - min(humans) <= 1, "bots spread over the tables"
    else:
        assert len(round_.byes) == len(entrants) % size
        assert all(h == size for h in humans), "with byes there are no bots"


def check_byes_fair(rounds: list[Round], entrants: list[int]) -> None:
    byes: Counter[int] = Counter()
    for round_ in rounds:
        byes.update(round_.byes)
        counts = [byes[p] for p in entrants]
        assert max(counts) - min(counts) <= 1, "nobody sits out twice before everyone sat out once"


@pytest.mark.parametrize("fill", ["bots", "byes"])
@pytest.mark.parametrize(("size", "partners"), TABLE_SIZES)
def test_it_seats_everyone_once_per_round_at_tables_of_the_right_size(size: int, partners: bool, fill: Fill) -> None:
    for n in [*range(3, 14), 17, 22, 29, 35, 40]:
        if fill == "byes" and n < size:
            continue
        entrants = [100 + 7 * i for i in range(n)]
        rounds = schedule(entrants, table_size=size, rounds=3, fill=fill, seed=n, partners=partners)
        assert len(rounds) == 3
        for round_ in rounds:
            check_round(round_, entrants, size, fill)
        check_byes_fair(rounds, entrants)
        # Three rounds: everyone can sit in three different positions, except where Karnoffel
        # partners are worth more (four entrants at one table cannot have both; ten at fours,
        # with the bot seats shared evenly, may leave one seat twice).
        assert seat_balance(rounds) <= (2 if partners and n in (4, 10) else 1), (n, size, fill)


@pytest.mark.parametrize(
    ("n", "size", "rounds"), [(16, 4, 5), (9, 3, 4), (25, 5, 6), (4, 2, 3), (12, 2, 11), (13, 2, 13)]
)
def test_it_finds_a_schedule_where_nobody_meets_twice(n: int, size: int, rounds: int) -> None:
    result = schedule(list(range(n)), table_size=size, rounds=rounds, fill="byes", seed=5)
    assert repeated_pairs(result) == 0
    assert seat_balance(result) <= 1


def test_it_finds_sixteen_at_four_tables_of_four_without_a_repeat_for_any_seed() -> None:
    for seed in range(10):
        result = schedule(list(range(16)), table_size=4, rounds=5, fill="bots", seed=seed, partners=True)
        assert repeated_pairs(result) == 0
        pairs = Counter(pair for r in result for t in r.tables for pair in combinations(sorted(t.seats), 2))  # type: ignore[type-var]
        assert len(pairs) == 16 * 15 // 2, "everyone meets everyone exactly once"


def random_draw(n: int, size: int, rounds: int, rng: random.Random) -> list[Round]:
    """What an organizer gets from shuffling the entrants each round."""
    tables = -(-n // size)
    base, extra = divmod(n, tables)
    caps = [base + 1] * extra + [base] * (tables - extra)
    result = []
    for _ in range(rounds):
        order = list(range(n))
        rng.shuffle(order)
        start, row = 0, []
        for cap in caps:
            row.append(Table(tuple(order[start : start + cap]) + (None,) * (size - cap)))
            start += cap
        result.append(Round(tuple(row), ()))
    return result


@pytest.mark.parametrize(
    ("n", "size", "rounds"), [(12, 4, 6), (20, 4, 8), (18, 3, 10), (30, 5, 9), (24, 6, 6), (10, 2, 12), (21, 8, 5)]
)
def test_it_repeats_fewer_pairs_than_the_best_of_a_hundred_random_draws(n: int, size: int, rounds: int) -> None:
    rng = random.Random(1)
    best_random = min(repeated_pairs(random_draw(n, size, rounds, rng)) for _ in range(100))
    result = schedule(list(range(n)), table_size=size, rounds=rounds, fill="bots", seed=1)
    assert repeated_pairs(result) < best_random


@pytest.mark.parametrize(
    ("n", "size", "rounds", "fill"), [(10, 4, 9, "bots"), (13, 3, 10, "byes"), (22, 5, 12, "bots")]
)
def test_it_balances_seat_positions_over_a_long_season(n: int, size: int, rounds: int, fill: Fill) -> None:
    result = schedule(list(range(n)), table_size=size, rounds=rounds, fill=fill, seed=2)
    assert seat_balance(result) <= 1
    first = Counter(table.seats[0] for r in result for table in r.tables)
    assert all(first[p] >= rounds // size - 1 for p in range(n)), "everyone deals first in turn"


def test_it_spreads_byes_over_a_long_season() -> None:
    entrants = list(range(10))
    result = schedule(entrants, table_size=4, rounds=10, fill="byes", seed=3)
    check_byes_fair(result, entrants)
    assert Counter(p for r in result for p in r.byes) == dict.fromkeys(entrants, 2), "20 byes, two each"


def test_it_gives_karnoffel_players_a_new_partner_each_round() -> None:
    result = schedule(list(range(8)), table_size=4, rounds=7, fill="bots", seed=4, partners=True)
    assert repeated_partners(result) == 0, "seven rounds, seven different partners"
    result = schedule(list(range(12)), table_size=4, rounds=5, fill="byes", seed=4, partners=True)
    assert repeated_partners(result) == 0
    long_season = schedule(list(range(12)), table_size=4, rounds=8, fill="bots", seed=0, partners=True)
    assert repeated_partners(long_season) == 0, "eight partners out of eleven"
    assert seat_balance(long_season) <= 2, "partners come first; seats stay near even"
    assert repeated_pairs(result) <= repeated_pairs(
        schedule(list(range(12)), table_size=4, rounds=5, fill="byes", seed=4)
    )


def test_it_spreads_bot_seats_fairly() -> None:
    result = schedule(list(range(10)), table_size=4, rounds=6, fill="bots", seed=6)
    bots_faced = Counter(dict.fromkeys(range(10), 0))
    for r in result:
        for table in r.tables:
            bots_faced.update(dict.fromkeys((p for p in table.seats if p is not None), table.seats.count(None)))
    assert max(bots_faced.values()) - min(bots_faced.values()) <= 1, "six rounds: three or four bot seats each"


def test_it_is_deterministic_for_a_seed() -> None:
    args = {"table_size": 4, "rounds": 6, "fill": "bots", "partners": True}
    first = schedule(list(range(21)), seed=9, **args)  # type: ignore[arg-type]
    assert schedule(list(range(21)), seed=9, **args) == first  # type: ignore[arg-type]
    assert schedule(list(range(21)), seed=10, **args) != first  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("entrants", "kwargs", "message"),
    [
        ([1, 2, 3], {"table_size": 4, "fill": "byes"}, "needs at least 4 entrants"),
        ([1, 2, 3, 4, 5, 6], {"table_size": 3, "fill": "bots", "partners": True}, "tables of four"),
        ([1, 1, 2], {"table_size": 2, "fill": "bots"}, "only once"),
        ([1], {"table_size": 2, "fill": "bots"}, "at least two"),
    ],
)
def test_it_refuses_what_cannot_be_scheduled(entrants: list[int], kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        schedule(entrants, rounds=2, seed=0, **kwargs)  # type: ignore[arg-type]


def test_it_counts_repeats_partners_and_seat_balance() -> None:
    rounds = [
        Round((Table((1, 2, 3, 4)),), ()),
        Round((Table((1, 3, 2, None)),), (4,)),
        Round((Table((1, 4, 2, 3)),), ()),
    ]
    # (1,2) three times: 2 extra; (1,3) three: 2; (2,3) three: 2; (1,4),(2,4),(3,4) twice: 1 each.
    assert repeated_pairs(rounds) == 9
    assert repeated_partners(rounds) == 1  # 1 and 2 partners in rounds two and three
    assert seat_balance(rounds) == 3  # entrant 1 dealt three times, never sat anywhere else
