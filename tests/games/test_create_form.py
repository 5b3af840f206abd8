"""The new-match form follows the chosen game, and the server holds a post to the game it names."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from engine import get_game
from games.clocks import CUSTOM_HOURS, HOUR, MAX_CAP, MAX_INITIAL, MIN_INITIAL
from games.forms import MatchCreateForm
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


def test_a_post_with_another_games_options_is_refused_and_nothing_is_created() -> None:
    client = login(UserFactory())
    data = _bots(untouched_form("karnoffel"), 4)
    data["game"] = "renfield"  # the select was changed; the options on the page are still Karnoffel's
    data["players"] = 4
    page = client.post(reverse("games-create"), data)
    assert page.status_code == 200
    assert not Match.objects.exists()
    errors = " ".join(page.context["form"].non_field_errors())
    assert "not Renfield's: target." in errors
    # The page now shows Renfield's own form, to check and send again.
    assert page.context["game"].NAME == "renfield" and 'name="opt_stake"' in page.content.decode()


def test_a_post_naming_renfield_alone_creates_a_renfield_match() -> None:
    client = login(UserFactory())
    data = _bots({"game": "renfield", "players": 3}, 3)
    response = client.post(reverse("games-create") + "?game=karnoffel", data)  # the post's game wins
    assert response.status_code == 302, response.context["form"].errors if response.context else response
    match = Match.objects.get()
    assert match.game == "renfield" and match.players == 3
    assert match.options == get_game("renfield").validate_options(3, {})


def test_changing_the_game_swaps_the_options_by_htmx() -> None:
    client = login(UserFactory())
    page = client.get(reverse("games-create"), {"game": "rapscallion"}, headers={"HX-Request": "true"})
    text = page.content.decode()
    assert page.status_code == 200
    assert text.lstrip().startswith('<div id="game-options"') and "<html" not in text
    assert 'name="opt_bidding_values__red_1"' in text and 'name="opt_target"' in text
    full = client.get(reverse("games-create"), {"game": "rapscallion"}).content.decode()
    assert 'hx-get="/new/"' in full and 'hx-target="#game-options"' in full
    assert '<option value="rapscallion" selected>' in full


@pytest.mark.parametrize("game", game_names())
def test_fixed_size_games_have_no_editable_player_count(game: str) -> None:
    module = get_game(game)
    text = login(UserFactory()).get(reverse("games-create"), {"game": game}).content.decode()
    fixed = module.MIN_PLAYERS == module.MAX_PLAYERS
    assert ('type="hidden" name="players"' in text) == fixed
    assert ('type="number" name="players"' in text) == (not fixed)
    # One seat row per seat the game can have beyond the creator's, each with both choices.
    assert text.count('class="field seat-row"') == module.MAX_PLAYERS - 1
    assert text.count('class="seat-bot"') == text.count('class="seat-email"') == module.MAX_PLAYERS - 1


def test_the_seat_script_is_served_and_linked() -> None:
    text = login(UserFactory()).get(reverse("games-create")).content.decode()
    assert "js/create.js" in text and "css/forms.css" in text
    assert " on" + "change=" not in text  # the CSP forbids inline handlers


def test_rentz_points_are_a_table_of_numbers_assembled_into_the_option() -> None:
    client = login(UserFactory())
    page = client.get(reverse("games-create"), {"game": "rentz"}).content.decode()
    assert 'name="opt_points__queens"' in page and 'name="opt_points__rentz_1"' in page
    data = _bots(untouched_form("rentz"), 4) | {
        "game": "rentz",
        "opt_points__queens": "-30",
        "opt_points__rentz_4": "0",
    }
    response = client.post(reverse("games-create"), data)
    assert response.status_code == 302, response.context["form"].errors if response.context else response
    points = Match.objects.get().options["points"]
    assert points["queens"] == -30 and points["rentz"] == [200, 150, 100, 0] and points["acool"] == -10


def test_a_rentz_bonus_that_grows_is_refused_with_the_engines_sentence() -> None:
    data = _bots(untouched_form("rentz"), 4) | {"game": "rentz", "opt_points__rentz_4": "500"}
    page = login(UserFactory()).post(reverse("games-create"), data)
    assert page.status_code == 200 and "must not grow" in str(page.context["form"].errors)
    assert not Match.objects.exists()


def test_renfield_card_values_are_a_table_of_bugs_and_dollars() -> None:
    client = login(UserFactory())
    data = _bots(untouched_form("renfield"), 3) | {"game": "renfield", "opt_deck_values__bugs_17": "9"}
    response = client.post(reverse("games-create"), data)
    assert response.status_code == 302, response.context["form"].errors if response.context else response
    page = client.get(reverse("games-create"), {"game": "renfield"}).content.decode()
    assert 'aria-label="Card values, rank 17: bugs"' in page  # each cell is labelled for a screen reader
    values = Match.objects.get().options["deck_values"]
    assert values["bugs"][16] == 9 and len(values["bugs"]) == len(values["dollars"]) == 17
    assert values["dollars"] == get_game("renfield").DEFAULT_DOLLARS


def test_death_and_wild_cards_are_a_grid_of_checkboxes() -> None:
    text = login(UserFactory()).get(reverse("games-create"), {"game": "renfield"}).content.decode()
    assert "<select multiple" not in text
    assert text.count('type="checkbox" name="opt_death_cards"') == 51
    data = _bots(untouched_form("renfield"), 3) | {
        "game": "renfield",
        "opt_death_card": "on",
        "opt_death_cards": ["T5", "P9"],
    }
    response = login(UserFactory()).post(reverse("games-create"), data)
    assert response.status_code == 302, response.context["form"].errors if response.context else response
    assert Match.objects.get().options["death_cards"] == ["T5", "P9"]


def test_the_card_grid_has_a_row_per_suit() -> None:
    form = MatchCreateForm(game=get_game("renfield"))
    grid = next(row for row in form.option_rows if row["entry"]["name"] == "wilds")["grid"]
    assert [row["suit"] for row in grid] == ["Tools", "Parts", "Stones"]
    assert [cell["rank"] for cell in grid[0]["cells"]] == [str(n) for n in range(1, 18)]


@pytest.mark.parametrize(
    ("choice", "hours", "expected"),
    [
        ("1d", {}, {"initial": 86400, "increment": 86400, "cap": 86400}),
        (
            "custom",
            {"tc_initial": "24", "tc_increment": "4", "tc_cap": "72"},
            {"initial": 86400, "increment": 14400, "cap": 259200},
        ),
        ("none", {}, None),
    ],
)
def test_the_time_control_is_a_preset_or_custom_hours(choice: str, hours: dict[str, str], expected: Any) -> None:
    data = _bots(untouched_form("karnoffel"), 4) | {"game": "karnoffel", "time_control": choice, **hours}
    response = login(UserFactory()).post(reverse("games-create"), data)
    assert response.status_code == 302, response.context["form"].errors if response.context else response
    assert Match.objects.get().time_control == expected


def test_a_custom_time_control_out_of_bounds_is_refused_with_a_sentence() -> None:
    hours = {"tc_initial": "2000", "tc_increment": "1", "tc_cap": "2000"}
    data = _bots(untouched_form("karnoffel"), 4) | {"game": "karnoffel", "time_control": "custom", **hours}
    page = login(UserFactory()).post(reverse("games-create"), data)
    assert page.status_code == 200 and "between 1 hour and 30 days" in str(page.context["form"].errors)
    assert not Match.objects.exists()


def test_the_custom_clock_inputs_carry_the_servers_bounds() -> None:
    """The browser refuses what the server would: each input's min and max are the server's own limits."""
    inputs = rendered_inputs(login(UserFactory()).get(reverse("games-create"), {"game": "karnoffel"}).content.decode())
    for part, (low, high) in CUSTOM_HOURS.items():
        attrs = inputs[f"tc_{part}"]
        assert attrs["type"] == "number" and attrs["step"] == "any"  # any fraction of an hour, in whole seconds
        assert (float(attrs["min"]), float(attrs["max"])) == (low, high), part
    assert CUSTOM_HOURS["initial"] == (MIN_INITIAL / HOUR, MAX_INITIAL / HOUR)
    assert CUSTOM_HOURS["cap"][1] == MAX_CAP / HOUR


@pytest.mark.parametrize(
    ("part", "hours"),
    [
        ("tc_initial", CUSTOM_HOURS["initial"][0] - 0.01),  # just below the least: the browser's min
        ("tc_increment", CUSTOM_HOURS["increment"][0] - 0.01),
        ("tc_cap", CUSTOM_HOURS["cap"][1] + 0.01),  # just past the most: the browser's max
        ("tc_initial", CUSTOM_HOURS["initial"][1] + 0.01),
    ],
)
def test_a_custom_clock_just_past_a_bound_is_refused_beside_its_field(part: str, hours: float) -> None:
    clock = {"time_control": "custom", "tc_initial": "24", "tc_increment": "1", "tc_cap": "48", part: str(hours)}
    data = _bots(untouched_form("karnoffel"), 4) | {"game": "karnoffel", **clock}
    page = login(UserFactory()).post(reverse("games-create"), data)
    assert page.status_code == 200 and not Match.objects.exists()
    errors = [str(m) for m in page.context["form"].errors[part]]
    assert errors and all(m[0].isupper() and m.endswith(".") and escape(m) in page.content.decode() for m in errors)


@pytest.mark.parametrize("hours", ["1e30", str(10**30), "24000000000", "1e309", "inf", "nan", "-inf", "0x10"])
@pytest.mark.parametrize("part", ["tc_initial", "tc_increment", "tc_cap"])
def test_custom_clock_hours_no_clock_could_have_are_refused_with_a_sentence(part: str, hours: str) -> None:
    """Hours past what a timedelta holds were an OverflowError, a 500; no number at all is a sentence too."""
    clock = {"time_control": "custom", "tc_initial": "24", "tc_increment": "1", "tc_cap": "48", part: hours}
    data = _bots(untouched_form("karnoffel"), 4) | {"game": "karnoffel", **clock}
    page = login(UserFactory()).post(reverse("games-create"), data)
    assert page.status_code == 200 and not Match.objects.exists()
    assert [m[0].isupper() and m.endswith(".") for m in page.context["form"].errors[part]] == [True]


def test_custom_hours_left_under_a_preset_are_not_read() -> None:
    """The page hides (and the script disables) the custom hours under a preset: whatever they hold refuses nothing."""
    hours = {"tc_initial": "1e30", "tc_increment": "-1", "tc_cap": "x"}
    data = _bots(untouched_form("karnoffel"), 4) | {"game": "karnoffel", "time_control": "1d", **hours}
    response = login(UserFactory()).post(reverse("games-create"), data)
    assert response.status_code == 302, response.context["form"].errors if response.context else response
    assert Match.objects.get().time_control == {"initial": 86400, "increment": 86400, "cap": 86400}


def test_the_form_links_the_rules_of_the_game() -> None:
    text = login(UserFactory()).get(reverse("games-create"), {"game": "karnoffel"}).content.decode()
    assert reverse("games-rules", args=["karnoffel"]) in text


# --- in the browser: the form follows its choices ----------------------------------------------------------


# ``browser``: tests/conftest.py (skipped without chromium, except in CI).
@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_in_the_browser_seat_rows_follow_the_players_and_the_game(
    browser: Any, live_server: Any, tmp_path: Any
) -> None:
    from tests.games.browser_helpers import DESKTOP, STEP_TIMEOUT_MS, sign_in_as

    client = Client()
    client.force_login(UserFactory())
    context = browser.new_context(viewport=DESKTOP)
    sign_in_as(context, live_server.url, client.cookies["sessionid"].value)
    page = context.new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    page.goto(f"{live_server.url}{reverse('games-create')}?game=rapscallion")
    rows = page.locator(".seat-row")
    assert rows.count() == 5
    assert [rows.nth(n).is_visible() for n in range(5)] == [True, False, False, False, False]  # 2 players
    page.fill("input[name=players]", "4")
    assert [rows.nth(n).is_visible() for n in range(5)] == [True, True, True, False, False]
    # A seat shows the bot level or the email field, by its choice.
    assert page.is_visible("select[name=seat_1_level]") and not page.is_visible("input[name=seat_1_email]")
    page.select_option("select[name=seat_1_kind]", "email")
    assert page.is_visible("input[name=seat_1_email]") and not page.is_visible("select[name=seat_1_level]")
    assert not page.is_visible("input[name=tc_initial]")
    assert not page.is_enabled("input[name=tc_initial]")  # hidden hours hold up no preset
    page.select_option("select[name=time_control]", "custom")
    assert page.is_visible("input[name=tc_initial]") and page.is_enabled("input[name=tc_initial]")
    # The browser refuses what the server would: just under the least starting time is not valid.
    page.fill("input[name=tc_initial]", str(CUSTOM_HOURS["initial"][0] - 0.01))
    assert page.eval_on_selector("input[name=tc_initial]", "el => el.checkValidity()") is False
    page.fill("input[name=tc_initial]", str(CUSTOM_HOURS["initial"][0]))
    assert page.eval_on_selector("input[name=tc_initial]", "el => el.checkValidity()") is True
    page.screenshot(path=str(tmp_path / "create-rapscallion.png"), full_page=True)
    # Another game: htmx swaps in its options and seats; Karnoffel's player count is not editable.
    page.select_option("select[name=game]", "karnoffel")
    page.locator("#game-options[data-game=karnoffel]").wait_for()
    assert page.locator("input[name=players]").get_attribute("type") == "hidden"
    assert page.locator(".seat-row").count() == 3 and page.is_visible("input[name=opt_target]")
    assert page.locator("input[name=opt_bidding_values], textarea[name=opt_bidding_values]").count() == 0
    page.select_option("select[name=game]", "renfield")
    page.locator("#game-options[data-game=renfield]").wait_for()
    page.screenshot(path=str(tmp_path / "create-renfield.png"), full_page=True)
    page.click("button.primary")
    page.wait_for_url("**/m/*/")
    assert Match.objects.get().game == "renfield"
    context.close()
