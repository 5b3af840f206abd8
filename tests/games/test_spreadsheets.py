"""The CSV cell rule on its own: text that starts like a formula is defused, numbers the app computed are not."""

from __future__ import annotations

import csv
import io

import pytest

from games.spreadsheets import csv_cell, write_csv


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_it_prefixes_text_that_starts_like_a_formula(start: str) -> None:
    assert csv_cell(start + "1+1") == "'" + start + "1+1"


@pytest.mark.parametrize("value", [-3, -1.5, 0, 2.25, 1e-7])
def test_it_keeps_real_numbers_as_numbers(value: float) -> None:
    assert csv_cell(value) == value


@pytest.mark.parametrize(
    ("value", "cell"),
    [("-3", "'-3"), (float("-inf"), "'-inf"), (float("nan"), "nan"), (True, "True"), (None, ""), ("Ann", "Ann")],
)
def test_everything_else_is_text(value: object, cell: str) -> None:
    assert csv_cell(value) == cell


def test_it_writes_every_cell_quoted_with_the_rule_applied() -> None:
    out = io.StringIO()
    write_csv(out, fieldnames=["player", "score"], rows=[{"player": '=1+2";=1+2', "score": -3}, {"player": "Bo"}])
    assert out.getvalue().splitlines() == ['"player","score"', '"\'=1+2"";=1+2","-3"', '"Bo",""']
    assert list(csv.reader(io.StringIO(out.getvalue())))[1] == ["'=1+2\";=1+2", "-3"]
