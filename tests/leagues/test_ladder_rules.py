"""A ladder's rules, pure (leagues.ladder): tables of neighbouring rungs, and the moves a round's places make."""

from __future__ import annotations

from leagues import ladder
from leagues.knockout import Heat


def counted(seats: tuple[int | None, ...], places: tuple[int, ...]) -> Heat:
    return Heat(seats=seats, places=places, counted=True)


def test_it_seats_neighbouring_rungs_with_bots_in_the_short_tables() -> None:
    rungs = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100]
    assert ladder.blocks(rungs, table_size=4) == [(10, 20, 30, 40), (50, 60, 70, None), (80, 90, 100, None)]
    # The first seat goes round each table from one round to the next.
    assert ladder.blocks(rungs[:8], table_size=4, turn=1) == [(20, 30, 40, 10), (60, 70, 80, 50)]


def test_it_moves_the_winner_to_the_top_of_the_table_and_swaps_across_tables() -> None:
    rungs = [1, 2, 3, 4, 5, 6, 7, 8]
    tables = [counted((1, 2, 3, 4), (4, 1, 3, 2)), counted((5, 6, 7, 8), (2, 3, 1, 4))]
    # Table 1 by places: 2, 4, 3, 1; table 2: 7, 5, 6, 8; then 7 (won below) and 1 (last above) swap.
    assert ladder.climb(rungs, tables) == [2, 4, 3, 7, 1, 5, 6, 8]


def test_it_keeps_the_old_order_of_players_level_at_a_table() -> None:
    rungs = [1, 2, 3, 4]
    assert ladder.climb(rungs, [counted((4, 3, 2, 1), (1, 1, 3, 3))]) == [3, 4, 1, 2]


def test_it_moves_nobody_at_a_void_table_or_one_nobody_played_nor_across_it() -> None:
    rungs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
    played = counted((1, 2, 3, 4), (4, 3, 2, 1))
    void = Heat(seats=(5, 6, 7, 8), counted=True)
    last = counted((9, 10, 11, 12), (4, 3, 2, 1))
    assert ladder.climb(rungs, [played, void, last]) == [4, 3, 2, 1, 5, 6, 7, 8, 12, 11, 10, 9]
    nobody = counted((5, 6, 7, 8), (4, 4, 4, 4))
    assert ladder.climb(rungs, [played, nobody, last]) == [4, 3, 2, 1, 5, 6, 7, 8, 12, 11, 10, 9]
    unplayed = Heat(seats=(5, 6, 7, 8))  # not counted yet: the tables counted move already, the swap waits
    assert ladder.climb(rungs, [played, unplayed]) == [4, 3, 2, 1, 5, 6, 7, 8, 9, 10, 11, 12]


def test_it_lets_a_player_climb_from_the_bottom_to_the_top() -> None:
    start = list(range(1, 13))
    rungs, rounds = start, []
    for turn in range(3):  # 12 wins every table; everyone else keeps their order
        tables = []
        for seats in ladder.blocks(rungs, table_size=4, turn=turn):
            people = [e for e in seats if e is not None]
            order = sorted(people, key=lambda e: (e != 12, rungs.index(e)))
            tables.append(counted(seats, tuple(order.index(e) + 1 for e in seats if e is not None)))
        rounds.append(tables)
        rungs = ladder.climb(rungs, tables)
    assert rungs.index(12) == 0
    assert ladder.ladder_after(start, rounds) == rungs
