"""The standings arithmetic (leagues.standings): pure, no database, like the tiebreaks."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from leagues.errors import LeagueRefused, NumbersRefused
from leagues.standings import (
    FORM_LENGTH,
    LINE_COLUMNS,
    against,
    check_promotion_fits,
    division_moves,
    form_apply,
    line_apply,
    place_points,
)

ROOT = Path(__file__).resolve().parent.parent.parent


@dataclass
class Table:
    pk: int
    seats: list[int | None]


@dataclass
class Line:
    played: int = 0
    points: float = 0.0
    wins: int = 0
    game_score: float = 0.0
    bot_moves: int = 0
    timeouts: int = 0
    moves: int = 0
    opponents_rating_total: float = 0.0
    opponents_met: int = 0
    points_by_round: dict[str, float] = field(default_factory=dict)
    meetings: dict[str, float] = field(default_factory=dict)
    form: list[dict[str, Any]] = field(default_factory=list)


def result(places: list[int], points: list[float], **more: list[Any]) -> dict[str, Any]:
    n = len(places)
    return {
        "places": places,
        "points": points,
        "scores": more.get("scores", [0.0] * n),
        "bot_moves": more.get("bot_moves", [0] * n),
        "timeouts": more.get("timeouts", [0] * n),
        "moves": more.get("moves", [0] * n),
        **({"opponents_rating": more["opponents_rating"]} if "opponents_rating" in more else {}),
    }


def test_the_module_needs_no_django() -> None:
    code = "import sys, leagues.standings; sys.exit('django' in sys.modules)"
    ran = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr or "importing leagues.standings loaded Django"


# --- points for a place ---------------------------------------------------------


def test_each_place_earns_its_points() -> None:
    scheme = [4, 2, 1, 0]
    assert [place_points(p, [1, 2, 3, 4], scheme) for p in (1, 2, 3, 4)] == [4, 2, 1, 0]


def test_players_sharing_a_place_share_the_points_of_the_places_they_cover() -> None:
    scheme = [4, 2, 1, 0]
    assert place_points(1, [1, 1, 3, 4], scheme) == 3  # (4 + 2) / 2
    assert place_points(2, [1, 2, 2, 2], scheme) == 1  # (2 + 1 + 0) / 3
    assert place_points(3, [1, 1, 3, 4], scheme) == 1, "the place after a tie is the next one free"


# --- a line -------------------------------------------------------------------------


def test_a_result_adds_to_the_line_of_the_player_in_its_seat() -> None:
    line = Line()
    table = Table(pk=7, seats=[11, 12, None, 14])
    new = result([2, 1, 3, 4], [2, 4, 1, 0], scores=[30, 40, 20, 10], bot_moves=[3, 0, 9, 0])
    line_apply(line, table, 0, None, {**new, "opponents_rating": [50.0, 0, 0, 0]}, "3")
    assert (line.played, line.points, line.wins, line.game_score, line.bot_moves) == (1, 2, 0, 30, 3)
    assert line.opponents_rating_total == 50
    assert line.opponents_met == 2, "the bot's seat is no opponent"
    assert line.points_by_round == {"3": 2}
    assert line.form == [{"fixture": 7, "place": 2, "of": 4}]


def test_a_first_place_is_a_win() -> None:
    line = Line()
    line_apply(line, Table(pk=1, seats=[1, 2]), 1, None, result([2, 1], [0, 4]), "1")
    assert line.wins == 1


def test_head_to_head_counts_only_the_opponents_finished_ahead_of_or_level_with() -> None:
    line = Line()
    table = Table(pk=1, seats=[1, 2, 3, None])
    line_apply(line, table, 0, None, result([2, 1, 2, 4], [2, 4, 2, 0]), "1")
    # Behind 2 (nothing, not kept), level with 3 (a half), ahead of the bot (never an opponent).
    assert line.meetings == {"3": 0.5}


def test_taking_the_old_result_away_leaves_the_difference() -> None:
    line = Line()
    table = Table(pk=5, seats=[1, 2])
    old = result([1, 2], [4, 0], scores=[10, 5], bot_moves=[1, 0], opponents_rating=[7.0, 3.0])
    line_apply(line, table, 0, None, old, "2")
    new = result([2, 1], [0, 4], scores=[4, 9], bot_moves=[0, 0], opponents_rating=[7.0, 3.0])
    line_apply(line, table, 0, old, new, "2")
    assert (line.played, line.points, line.wins, line.game_score, line.bot_moves) == (1, 0, 0, 4, 0)
    assert line.opponents_rating_total == 7 and line.opponents_met == 1
    assert line.points_by_round == {"2": 0}
    assert line.meetings == {}, "a win turned into a loss leaves nothing against the other"
    assert line.form == [{"fixture": 5, "place": 2, "of": 2}], "the correction replaces its entry"


def test_points_by_round_add_up_per_round() -> None:
    line = Line()
    line_apply(line, Table(pk=1, seats=[1, 2]), 0, None, result([1, 2], [4, 0]), "1")
    line_apply(line, Table(pk=2, seats=[1, 3]), 0, None, result([2, 1], [1, 3]), "2")
    line_apply(line, Table(pk=3, seats=[1, 4]), 0, None, result([1, 2], [2, 0]), "2")
    assert line.points_by_round == {"1": 4, "2": 3}


def test_correcting_a_result_older_than_the_form_does_not_put_it_back() -> None:
    line = Line()
    for pk in range(1, FORM_LENGTH + 2):
        line_apply(line, Table(pk=pk, seats=[1, 2]), 0, None, result([1, 2], [4, 0]), str(pk))
    oldest = Table(pk=1, seats=[1, 2])
    line_apply(line, oldest, 0, result([1, 2], [4, 0]), result([2, 1], [0, 4]), "1")
    assert [f["fixture"] for f in line.form] == [2, 3, 4, 5, 6]


def test_taking_a_result_away_for_nothing_empties_the_line() -> None:
    line = Line()
    table = Table(pk=5, seats=[1, 2])
    old = result([1, 2], [4, 0])
    line_apply(line, table, 0, None, old, "1")
    line_apply(line, table, 0, old, None, "1")
    assert (line.played, line.points, line.wins, line.opponents_met, line.meetings, line.form) == (0, 0, 0, 0, {}, [])


def test_the_columns_written_back_are_the_ones_a_result_changes() -> None:
    before, after = Line(), Line()
    new = result(
        [1, 2], [4, 0], scores=[9, 1], bot_moves=[2, 0], timeouts=[1, 0], moves=[7, 6], opponents_rating=[1.0, 1.0]
    )
    line_apply(after, Table(pk=1, seats=[1, 2]), 0, None, new, "1")
    changed = {name for name in vars(before) if getattr(before, name) != getattr(after, name)}
    assert changed == set(LINE_COLUMNS)


# --- the form --------------------------------------------------------------------


def test_the_form_keeps_the_last_five_oldest_first() -> None:
    form: list[dict[str, Any]] = []
    for pk in range(1, 8):
        form = form_apply(form, Table(pk=pk, seats=[1, 2, 3]), pk % 3 + 1, True)
    assert len(form) == FORM_LENGTH == 5
    assert [f["fixture"] for f in form] == [3, 4, 5, 6, 7]
    assert form[-1] == {"fixture": 7, "place": 2, "of": 3}


def test_a_corrected_result_changes_its_entry_where_it_stands() -> None:
    form = [{"fixture": n, "place": 1, "of": 4} for n in (1, 2, 3)]
    assert form_apply(form, Table(pk=2, seats=[1, 2, 3, 4]), 4, False) == [
        {"fixture": 1, "place": 1, "of": 4},
        {"fixture": 2, "place": 4, "of": 4},
        {"fixture": 3, "place": 1, "of": 4},
    ]


def test_a_correction_of_a_result_older_than_the_form_leaves_it_alone() -> None:
    form = [{"fixture": n, "place": 1, "of": 2} for n in (4, 5)]
    assert form_apply(form, Table(pk=1, seats=[1, 2]), 2, False) == form


def test_a_result_taken_away_leaves_the_form() -> None:
    form = [{"fixture": n, "place": 1, "of": 2} for n in (4, 5)]
    assert form_apply(form, Table(pk=4, seats=[1, 2]), None, False) == [{"fixture": 5, "place": 1, "of": 2}]


# --- head-to-head at a table -------------------------------------------------------


def test_ahead_is_one_level_a_half_behind_nothing() -> None:
    places = [1, 2, 2, 4]
    assert (against(places, 0, 1), against(places, 1, 2), against(places, 3, 0)) == (1.0, 0.5, 0.0)


# --- division moves ----------------------------------------------------------------


def test_the_top_division_promotes_nobody_and_the_bottom_relegates_nobody() -> None:
    assert division_moves(size=8, division=1, divisions=3, promote=2, relegate=3) == (0, 3)
    assert division_moves(size=8, division=2, divisions=3, promote=2, relegate=3) == (2, 3)
    assert division_moves(size=8, division=3, divisions=3, promote=2, relegate=3) == (2, 0)


def test_nobody_moves_twice_and_never_more_than_there_are() -> None:
    assert division_moves(size=3, division=2, divisions=3, promote=2, relegate=2) == (2, 1), "promotion first"
    assert division_moves(size=1, division=2, divisions=2, promote=4, relegate=0) == (1, 0)
    assert division_moves(size=0, division=2, divisions=3, promote=1, relegate=1) == (0, 0)


def test_numbers_that_leave_someone_in_every_division_fit() -> None:
    check_promotion_fits(sizes={1: 4, 2: 4}, divisions=2, promote=3, relegate=3)
    check_promotion_fits(sizes={1: 4, 2: 1}, divisions=2, promote=0, relegate=0)
    check_promotion_fits(sizes={}, divisions=1, promote=0, relegate=0)


def test_numbers_that_would_move_a_whole_division_are_refused_with_what_fits() -> None:
    with pytest.raises(NumbersRefused, match=r"Division 2 has only 3 players: it cannot send 2 up and 1 down "):
        check_promotion_fits(sizes={1: 8, 2: 3, 3: 8}, divisions=3, promote=2, relegate=1)
    with pytest.raises(NumbersRefused, match=r"at most 2 can move, so that one stays"):
        check_promotion_fits(sizes={1: 8, 2: 3, 3: 8}, divisions=3, promote=2, relegate=1)


def test_an_empty_or_single_division_that_would_send_someone_is_refused() -> None:
    with pytest.raises(NumbersRefused, match=r"Division 2 has no players: it cannot send 1 up \(nobody can move"):
        check_promotion_fits(sizes={1: 4}, divisions=2, promote=1, relegate=0)
    with pytest.raises(NumbersRefused, match=r"Division 1 has only 1 player: it cannot send 1 down"):
        check_promotion_fits(sizes={1: 1, 2: 5}, divisions=2, promote=0, relegate=1)


def test_a_refused_number_is_a_league_refusal() -> None:
    assert issubclass(NumbersRefused, LeagueRefused)
