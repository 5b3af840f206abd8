"""Standings order (leagues.tiebreaks): pure, no database."""

from __future__ import annotations

import pytest

from leagues.tiebreaks import TIEBREAKS, Line, points_for_place, rank


def line(player: int, **fields: float) -> Line:
    values: dict[str, float] = {"points": 10, "wins": 2, "game_score": 50, "opponents_rating": 20, "bot_moves": 0}
    values.update(fields)
    return Line(player=player, played=5, **values)  # type: ignore[arg-type]


def ranks(
    lines: list[Line], order: list[str], meetings: dict[tuple[int, int], float] | None = None
) -> list[tuple[int, int]]:
    return [(place, line.player) for place, line in rank(lines, order, meetings or {})]


ALL = list(TIEBREAKS)


def test_it_ranks_by_points_first() -> None:
    lines = [line(1, points=3, wins=9), line(2, points=7, wins=0), line(3, points=5)]
    assert ranks(lines, ALL) == [(1, 2), (2, 3), (3, 1)]
    assert ranks(lines, []) == [(1, 2), (2, 3), (3, 1)], "points lead even when not listed"


@pytest.mark.parametrize(
    ("key", "better", "worse"),
    [
        ("wins", {"wins": 3}, {"wins": 2}),
        ("game_score", {"game_score": 61.5}, {"game_score": 61}),
        ("opponents_rating", {"opponents_rating": 30}, {"opponents_rating": 29.9}),
        ("fewest_bot_moves", {"bot_moves": 1}, {"bot_moves": 4}),
    ],
)
def test_each_tiebreak_decides_a_tie_on_points(key: str, better: dict[str, float], worse: dict[str, float]) -> None:
    # Player 1 is worse on this key and better on every other, so only this key can put 2 first.
    others = {"wins": 9, "game_score": 99, "opponents_rating": 99, "bot_moves": 0}
    lines = [line(1, **{**others, **worse}), line(2, **better)]
    assert ranks(lines, [key]) == [(1, 2), (2, 1)]
    assert ranks(lines, [key, *(k for k in ALL if k != key)]) == [(1, 2), (2, 1)]
    assert ranks(lines, []) == [(1, 1), (1, 2)], "without tie-breaks they share first"


def test_the_order_of_tiebreaks_matters() -> None:
    lines = [line(1, wins=3, game_score=10), line(2, wins=2, game_score=90)]
    assert ranks(lines, ["wins", "game_score"]) == [(1, 1), (2, 2)]
    assert ranks(lines, ["game_score", "wins"]) == [(1, 2), (2, 1)]


def test_head_to_head_decides_between_two() -> None:
    lines = [line(1, game_score=99), line(2)]
    meetings = {(1, 2): 1.0, (2, 1): 5.0}
    assert ranks(lines, ["head_to_head", "game_score"], meetings) == [(1, 2), (2, 1)]


def test_head_to_head_uses_the_mini_table_of_the_tied_only() -> None:
    # 1, 2 and 3 tied on points; 4 is ahead. Against 4, player 1 scored a lot, but among the three
    # 3 scored most: 3 first, then 2, then 1.
    lines = [line(1), line(2), line(3), line(4, points=20)]
    meetings = {
        (1, 4): 50.0,
        (1, 2): 1.0,
        (1, 3): 0.0,
        (2, 1): 2.0,
        (2, 3): 1.0,
        (3, 1): 2.0,
        (3, 2): 2.0,
    }
    assert ranks(lines, ["head_to_head"], meetings) == [(1, 4), (2, 3), (3, 2), (4, 1)]


def test_head_to_head_comes_after_earlier_tiebreaks_split_the_group() -> None:
    # Wins split off 3 first; head-to-head then compares 1 and 2 alone, ignoring what they did against 3.
    lines = [line(1), line(2), line(3, wins=5)]
    meetings = {(1, 3): 9.0, (1, 2): 1.0, (2, 1): 2.0}
    assert ranks(lines, ["wins", "head_to_head"], meetings) == [(1, 3), (2, 2), (3, 1)]


def test_a_tie_that_survives_every_tiebreak_shares_the_rank() -> None:
    lines = [line(1, points=12), line(2), line(3), line(4, points=4)]
    meetings = {(2, 3): 1.5, (3, 2): 1.5}
    assert ranks(lines, ALL, meetings) == [(1, 1), (2, 2), (2, 3), (4, 4)]


def test_it_compares_sums_of_fractions_as_equal() -> None:
    lines = [line(1, points=0.1 + 0.2), line(2, points=0.3)]
    assert ranks(lines, ["wins"]) == [(1, 1), (1, 2)]


def test_it_refuses_an_unknown_tiebreak() -> None:
    with pytest.raises(ValueError, match="Unknown tie-break: coin_toss"):
        rank([line(1)], ["coin_toss"], {})


@pytest.mark.parametrize(
    ("place", "tied", "points"),
    [(1, 1, 4.0), (2, 1, 2.0), (4, 1, 0.0), (2, 2, 1.5), (1, 2, 3.0), (1, 4, 1.75), (3, 2, 0.5), (5, 1, 0.0)],
)
def test_points_for_place_shares_tied_places(place: int, tied: int, points: float) -> None:
    assert points_for_place(place, (4, 2, 1, 0), tied=tied) == points


def test_points_for_place_refuses_place_zero() -> None:
    with pytest.raises(ValueError, match="Places start at 1"):
        points_for_place(0, (4, 2, 1, 0))
