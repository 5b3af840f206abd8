"""The end of a match reads as a result: a table of places, the showdown in the open, and the result on the dashboard."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Match
from games.presenters import presenter_for
from tests.games.conftest import login
from tests.games.factories import UserFactory, game_names, make_match, play_engine_moves, quick_options

pytestmark = pytest.mark.django_db


def _finished(game: str) -> Match:
    user = UserFactory(display_name="Dora")
    players = Match(game=game).engine.MIN_PLAYERS
    match = make_match(game, users=[user], bots=players - 1, options=quick_options(game))
    play_engine_moves(match, 0, until_over=True)
    match.refresh_from_db()
    assert match.is_over, "precondition: the match was played to its end"
    return match


@pytest.mark.parametrize("game", game_names())
def test_a_finished_table_shows_a_result_table_not_names_with_numbers(game: str) -> None:
    match = _finished(game)
    page = login(match.created_by).get(match.get_absolute_url())
    text = page.content.decode()
    assert "Places:" not in text
    assert "Final standings" in text
    rows = page.context["result_table"]
    assert [row["place"] for row in rows] == sorted(row["place"] for row in rows)
    assert {row["name"] for row in rows} == {s.name for s in match.seats.all()}
    assert rows[0]["place_text"].startswith("1st")
    mine = next(row for row in rows if row["me"])
    assert mine["name"] == "Dora" and "Dora (you)" in text
    assert f">{page.context['score_heading']}</th>" in text


def test_karnoffel_results_name_the_teams() -> None:
    match = _finished("karnoffel")
    rows = login(match.created_by).get(match.get_absolute_url()).context["result_table"]
    names = [s.name for s in match.seats.order_by("number")]
    teams = {row["name"]: row["team"] for row in rows}
    assert teams[names[0]] == teams[names[2]] == f"{names[0]} & {names[2]}"
    assert teams[names[1]] == f"{names[1]} & {names[3]}"
    assert {row["place"] for row in rows if row["team"] == teams[names[0]]} in ({1}, {2})


def test_rapscallion_shows_each_players_best_five_at_the_end() -> None:
    match = _finished("rapscallion")
    page = login(match.created_by).get(match.get_absolute_url())
    showdown = page.context["result_details"]
    assert showdown is not None and len(showdown["rows"]) == match.players
    text = page.content.decode()
    assert "The showdown" in text
    for row in showdown["rows"]:
        assert len(row["five"]) == 5
        assert " ".join(row["five"]) in text and row["category"] in text


def test_the_result_table_marks_shared_places() -> None:
    presenter = presenter_for("rentz")
    rows = presenter.result_table({"places": [2, 1, 2, 4], "scores": [5, 9, 5, -3]}, ["A", "B", "C", "D"], 2)
    assert [(r["name"], r["place_text"], r["score"], r["me"]) for r in rows] == [
        ("B", "1st", "9", False),
        ("A", "2nd (shared)", "5", False),
        ("C", "2nd (shared)", "5", True),
        ("D", "4th", "-3", False),
    ]


def test_renfield_results_are_money() -> None:
    rows = presenter_for("renfield").result_table({"places": [1, 2, 3], "scores": [40, 0, -40]}, ["A", "B", "C"], None)
    assert [r["score"] for r in rows] == ["$40", "$0", "-$40"]


def test_the_dashboard_shows_finished_matches_with_their_result() -> None:
    match = _finished("rentz")
    rows = login(match.created_by).get(reverse("games-dashboard"))
    finished = rows.context["finished"]
    assert [m.pk for m in finished] == [match.pk]
    seats = list(match.seats.order_by("number"))
    mine = next(s.number for s in seats if s.user_id == match.created_by_id)
    result = presenter_for("rentz").result_summary(match.outcome, [s.name for s in seats], mine)
    assert result["place"].endswith(f"of {match.players}") and result["winners"]
    text = rows.content.decode()
    assert f"You came {result['place']}" in text and f"won by {result['winners']}" in text
