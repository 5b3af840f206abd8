"""Every match option is a real widget: numbers with their bounds, switches, card grids and tables of numbers.

No option is a box of JSON. A bad value gets a sentence beside its field and creates nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from django.utils.html import escape

from engine import get_game
from games.forms import NUMBER_OPTIONS, MatchCreateForm
from games.models import Match
from tests.games.conftest import login
from tests.games.factories import UserFactory, game_names
from tests.games.lobby import untouched_form
from tests.html_inputs import rendered_inputs

pytestmark = pytest.mark.django_db


def _bots(data: dict[str, Any], players: int) -> dict[str, Any]:
    for n in range(1, players):
        data[f"seat_{n}_kind"], data[f"seat_{n}_level"] = "bot", "random"
    return data


def _post(game: str, changes: dict[str, Any]) -> Any:
    players = get_game(game).MIN_PLAYERS
    data = _bots(untouched_form(game, players), players) | {"game": game} | changes
    return login(UserFactory()).post(reverse("games-create"), data)


@pytest.mark.parametrize("game", game_names())
def test_it_gives_every_option_of_every_game_a_real_widget(game: str) -> None:
    html = login(UserFactory()).get(reverse("games-create"), {"game": game}).content.decode()
    inputs = rendered_inputs(html)
    assert "<textarea" not in html  # no option (nor anything else on the form) is a text box of JSON
    for entry in get_game(game).OPTIONS:
        name = f"opt_{entry['name']}"
        if entry["type"] == "int":
            assert inputs[name]["type"] == "number"
            assert (inputs[name]["min"], inputs[name]["max"]) == (str(entry["min"]), str(entry["max"]))
        elif entry["type"] == "bool":
            assert inputs[name]["type"] == "checkbox"
        elif entry["type"] == "choice":
            assert f'<select name="{name}"' in html
        elif entry["type"] == "cards":
            assert f'type="checkbox" name="{name}"' in html
        else:
            cells = [n for n in inputs if n.startswith(f"{name}__")]
            assert cells and all(inputs[n]["type"] == "number" and inputs[n]["min"] for n in cells), name


def test_it_enters_every_structured_option_as_tables_of_numbers() -> None:
    structured = {(g, e["name"]) for g in game_names() for e in get_game(g).OPTIONS if e["type"] == "json"}
    assert structured and structured == set(NUMBER_OPTIONS)


@pytest.mark.parametrize("game", [g for g, _name in NUMBER_OPTIONS])
def test_the_untouched_tables_give_the_games_own_defaults(game: str) -> None:
    response = _post(game, {})
    assert response.status_code == 302, response.context["form"].errors
    assert Match.objects.get().options == get_game(game).validate_options(get_game(game).MIN_PLAYERS, {})


def test_rapscallions_bidding_values_are_a_table_per_colour_and_the_general_deck() -> None:
    response = _post("rapscallion", {"opt_bidding_values__red_3": "40", "opt_bidding_values__general_12": "99"})
    assert response.status_code == 302, response.context["form"].errors
    values = Match.objects.get().options["bidding_values"]
    assert values["colours"]["red"] == [1, 7, 40] and values["colours"]["orange"] == [6, 12, 18]
    assert values["general"] == [*range(19, 30), 99]


def test_a_repeated_bidding_value_is_refused_beside_its_tables_and_creates_nothing() -> None:
    page = _post("rapscallion", {"opt_bidding_values__red_1": "19"})  # the general deck's first card too
    assert page.status_code == 200 and not Match.objects.exists()
    html = page.content.decode()
    row = next(r for r in page.context["form"].option_rows if r["entry"]["name"] == "bidding_values")
    assert "19 appears more than once" in row["error"]
    assert 'id="id_opt_bidding_values_error" role="alert"' in html and escape(row["error"]) in html


def test_renfields_values_may_differ_by_suit_and_an_empty_box_keeps_the_common_value() -> None:
    response = _post("renfield", {"opt_deck_values__S_bugs_7": "13", "opt_deck_values__dollars_1": "3"})
    assert response.status_code == 302, response.context["form"].errors
    values = Match.objects.get().options["deck_values"]
    renfield = get_game("renfield")
    assert set(values) == {"T", "P", "S"}
    assert values["S"]["bugs"][6] == 13 and values["T"]["bugs"] == values["P"]["bugs"] == renfield.DEFAULT_BUGS
    assert all(values[s]["dollars"] == [3, *renfield.DEFAULT_DOLLARS[1:]] for s in "TPS")


def test_renfield_suits_given_the_same_values_are_one_table() -> None:
    same = {f"opt_deck_values__{suit}_bugs_17": "9" for suit in "TPS"}
    response = _post("renfield", same)
    assert response.status_code == 302, response.context["form"].errors
    values = Match.objects.get().options["deck_values"]
    assert set(values) == {"bugs", "dollars"} and values["bugs"][16] == 9


@pytest.mark.parametrize("value", ["abc", "1.5", "1e309", "-1", "100", "٣٣٣"])
def test_a_cell_that_is_not_a_whole_number_in_bounds_is_refused_beside_it(value: str) -> None:
    page = _post("renfield", {"opt_deck_values__bugs_9": value})
    assert page.status_code == 200 and not Match.objects.exists()
    errors = page.context["form"].errors["opt_deck_values__bugs_9"]
    assert errors == ["Card values, rank 9: bugs: give a whole number from 0 to 99."]
    assert escape(errors[0]) in page.content.decode()


def test_a_post_of_the_old_json_box_is_refused_with_a_sentence_and_creates_nothing() -> None:
    page = _post("rentz", {"opt_points": '{"queens": -30}'})
    assert page.status_code == 200 and not Match.objects.exists()
    said = " ".join(page.context["form"].non_field_errors())
    assert "Point values: these values are now entered in the tables of the form" in said


def test_each_cell_is_labelled_for_a_screen_reader_and_the_rarely_changed_tables_are_folded() -> None:
    form = MatchCreateForm(game=get_game("renfield"))
    row = next(r for r in form.option_rows if r["entry"]["name"] == "deck_values")
    assert [t["folded"] for t in row["tables"]] == [False, True]
    html = login(UserFactory()).get(reverse("games-create"), {"game": "renfield"}).content.decode()
    assert 'aria-label="Card values, rank 17: stones dollars"' in html
    assert "<summary>Values that differ by suit" in html
