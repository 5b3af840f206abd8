"""The standings CSV opens in a spreadsheet as data: a player's name cannot start a formula there."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse

from leagues.models import Season
from leagues.results import fixture_count
from tests.leagues.factories import UserFactory, finish, fixtures_of, make_league, make_season

pytestmark = pytest.mark.django_db

# What OWASP's CSV-injection page lists, and its example of a cell that tries to end its quotes early.
# The validators refuse such names today; old rows and admin edits may still hold them.
FORMULAS = ['=HYPERLINK("http://x")', "+1", "-1+1", "@SUM(A1)", "\tX", "\rX", '=1+2";=1+2']


def _exported(names: list[str]) -> tuple[str, list[dict[str, str]]]:
    league = make_league(tiebreaks=["points", "game_score"])
    season = make_season(league=league, players=[UserFactory(display_name=name) for name in names], rounds=1)
    for fixture in fixtures_of(season):
        # The game's own score can be negative: the last place here scores -3.
        fixture_count(match_id=finish(fixture, [1, 2, 3, 4], [10.0, 5.0, 0.0, -3.0]).pk)
    text = Client().get(_url(season, "leagues-standings-csv")).content.decode()
    return text, list(csv.DictReader(io.StringIO(text)))


def _url(season: Season, name: str) -> str:
    return reverse(name, args=[season.league.club.slug, season.league.slug, season.number])


def test_a_name_that_starts_like_a_formula_is_text_in_the_csv() -> None:
    _text, lines = _exported([*FORMULAS, "Ann"])
    players = sorted(line["player"] for line in lines)
    assert players == sorted(["'" + name for name in FORMULAS] + ["Ann"])


def test_the_numbers_the_app_computes_stay_numbers_even_when_negative() -> None:
    _text, lines = _exported(["-1+1", "Ann", "Bea", "Cy", "Dee", "Eve", "Flo", "Gus"])
    last = [line for line in lines if line["rank"] == "7"]
    assert len(last) == 2 and {line["game_score"] for line in last} == {"-3.0"}
    assert all(float(line["rating"]) < 1000 for line in last)  # a real number, below a newcomer's 1,000
    # A name is text, whatever it looks like: "-1+1" is a player's, not a number the app wrote.
    assert "'-1+1" in [line["player"] for line in lines]


def test_every_cell_is_quoted_so_no_separator_splits_one() -> None:
    text, _lines = _exported(["a;=1+2", "Ann", "Bea", "Cy", "Dee", "Eve", "Flo", "Gus"])
    for line in text.splitlines():
        cells = next(csv.reader([line]))
        assert line == ",".join('"' + cell.replace('"', '""') + '"' for cell in cells)
    assert '"a;=1+2"' in text
