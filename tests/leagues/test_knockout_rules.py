"""Knockout heats' rules, pure (leagues.knockout): the tables, who goes through, when it ends, the places."""

from __future__ import annotations

import pytest

from leagues import knockout
from leagues.knockout import Heat

RANK = {e: (e, e) for e in range(1, 40)}  # entrant n ranks n-th: the cut's tie-break in these tests


def counted(seats: tuple[int | None, ...], places: tuple[int, ...], **kwargs: object) -> Heat:
    points = tuple(float(len(places) - p) for p in places)
    return Heat(seats=seats, places=places, points=points, counted=True, **kwargs)  # type: ignore[arg-type]


def test_it_spreads_the_seeds_over_the_tables_in_a_serpentine() -> None:
    assert knockout.heats(list(range(1, 9)), table_size=4) == [(1, 4, 5, 8), (2, 3, 6, 7)]
    # Ten at fours: tables of 4, 3 and 3, a bot in each short one; the last pass fills the fuller table.
    assert knockout.heats(list(range(1, 11)), table_size=4) == [(1, 6, 7, 10), (2, 5, 8, None), (3, 4, 9, None)]
    assert knockout.heats([1, 2, 3], table_size=4) == [(1, 2, 3, None)]


def test_it_balances_tables_to_one_player_apart() -> None:
    for players in range(1, 60):
        for size in range(2, 7):
            sizes = knockout.table_sizes(players, size)
            assert sum(sizes) == players and max(sizes) <= size and max(sizes) - min(sizes) <= 1
            assert len(sizes) == -(-players // size) and sizes == sorted(sizes, reverse=True)


def test_it_sends_the_top_places_through_never_a_bot_nor_a_forfeiter() -> None:
    heat = counted((5, 6, None, 7), (2, 3, 1, 4))  # the bot won: the two best people go through
    assert knockout.going_through(heat, advance=2, rank=RANK) == [5, 6]
    forfeit = counted((5, 6, 7, 8), (1, 2, 2, 2), forfeited=frozenset({6, 7}))
    assert knockout.going_through(forfeit, advance=2, rank=RANK) == [5, 8]
    assert knockout.going_through(Heat(seats=(5, 6, 7, 8)), advance=2, rank=RANK) == []  # not counted yet
    assert knockout.going_through(Heat(seats=(5, 6, 7, 8), counted=True), advance=2, rank=RANK) == []  # void
    nobody = counted((5, 6, 7, 8), (4, 4, 4, 4))  # nobody played: nobody's win, nobody through
    assert knockout.going_through(nobody, advance=2, rank=RANK) == []


def test_nobody_goes_through_on_a_bots_play_at_their_seat() -> None:
    # Seat 1's every move was a bot's (a no-show timed out from the first turn): no result pays absence, so
    # the two through are the best of those who played, and a table where one person played sends one.
    result = {"places": [3, 1, 2, 4], "moves": [9, 8, 9, 9], "bot_moves": [0, 8, 2, 0]}
    assert knockout.absent_seats(result) == {1}
    heat = counted((5, 6, 7, 8), (3, 1, 2, 4), absent=frozenset({6}))
    assert knockout.going_through(heat, advance=2, rank=RANK) == [7, 5]
    lonely = counted((5, 6, 7, 8), (2, 1, 3, 4), absent=frozenset({6, 7, 8}))
    assert knockout.going_through(lonely, advance=2, rank=RANK) == [5]
    # No move at all (a table settled as it stood before their turn) is not absence; a move of one's own is play.
    assert knockout.absent_seats({"moves": [0, 3], "bot_moves": [0, 2]}) == set()
    # A result stored without its tallies tells nothing.
    assert knockout.absent_seats(None) == set() and knockout.absent_seats({"places": [1, 2]}) == set()


def test_it_decides_a_tie_at_the_cut_by_the_rank_it_is_given() -> None:
    heat = counted((5, 6, 7, 8), (1, 2, 2, 4))
    assert knockout.going_through(heat, advance=2, rank=RANK) == [5, 6]
    assert knockout.going_through(heat, advance=2, rank={**RANK, 7: (0, 0)}) == [5, 7]


def test_it_always_sends_somebody_home_from_a_short_table() -> None:
    assert [knockout.through_from(n, 2) for n in (1, 2, 3, 4)] == [1, 1, 2, 2]
    heat = counted((5, 6, None), (2, 1, 3))  # two people at threes, top 2: only the better goes through
    assert knockout.going_through(heat, advance=2, rank=RANK) == [6]


def test_it_always_reaches_a_final() -> None:
    for size in range(2, 7):
        for advance in range(1, size):
            for players in range(2, 80):
                left, rounds = players, 1
                while left > size:  # every round seats fewer than the round before
                    after = sum(min(advance, max(1, n - 1)) for n in knockout.table_sizes(left, size))
                    assert after < left
                    left, rounds = after, rounds + 1
                assert knockout.rounds_needed(players, table_size=size, advance=advance) == rounds
    assert knockout.rounds_needed(16, table_size=4, advance=2) == 3  # 16, 8, then a final of 4
    assert knockout.rounds_needed(4, table_size=3, advance=2) == 2  # tables of 2 + bot send one each
    with pytest.raises(ValueError, match="From 1 to 3"):
        knockout.rounds_needed(8, table_size=4, advance=4)


def test_it_seats_the_next_round_winners_first() -> None:
    tables = [counted((1, 4, 5, 8), (3, 1, 2, 4)), counted((2, 3, 6, 7), (1, 4, 3, 2))]
    assert knockout.next_order(tables, advance=2, rank=RANK) == [2, 4, 5, 7]
    assert not knockout.is_over([tables], advance=2, rank=RANK)
    assert knockout.is_over([tables, [counted((2, 4, 5, 7), (1, 2, 3, 4))]], advance=2, rank=RANK)


def test_it_places_the_final_first_then_by_the_round_out_then_the_place() -> None:
    first = [counted((1, 4, 5, 8), (3, 1, 2, 4)), counted((2, 3, 6, 7), (1, 4, 3, 2))]
    final = [counted((2, 4, 5, 7), (2, 1, 4, 3))]
    runs = knockout.runs([first, final], advance=2, rank=RANK)
    assert [r.entrant for r in runs] == [4, 2, 7, 5, 1, 6, 3, 8]
    assert [r.status for r in runs] == [knockout.FINALIST] * 4 + [knockout.OUT] * 4
    assert [r.reached for r in runs] == [2, 2, 2, 2, 1, 1, 1, 1]


def test_it_says_who_is_still_in_while_rounds_are_played() -> None:
    first = [counted((1, 4, 5, 8), (3, 1, 2, 4)), Heat(seats=(2, 3, 6, 7))]
    runs = {r.entrant: r.status for r in knockout.runs([first], advance=2, rank=RANK)}
    assert runs == {
        4: "through",
        5: "through",
        1: "out",
        8: "out",
        2: "playing",
        3: "playing",
        6: "playing",
        7: "playing",
    }
