"""A league's time control on its edit form: a custom clock shows as itself and survives a save unchanged."""

from __future__ import annotations

from datetime import timedelta
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from accounts.models import User
from games.clocks import CUSTOM_HOURS, HOUR, PRESETS, TimeControl
from leagues.models import League
from tests.html_inputs import rendered_inputs
from tests.leagues.factories import make_league, organizer_of

pytestmark = pytest.mark.django_db

CUSTOM = TimeControl(initial=30 * HOUR, increment=5 * HOUR, cap=90 * HOUR)


class FormValues(HTMLParser):
    """What a browser would post from the page's league form, untouched: inputs, ticked boxes, chosen options."""

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, str] = {}
        self.select: str | None = None
        self.inside = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and "league-form" in a.get("class", ""):
            self.inside = True
        if not self.inside:
            return
        if tag == "input" and a.get("name") and (a.get("type") != "checkbox" or "checked" in a):
            self.values[a["name"]] = a.get("value", "on")
        elif tag == "select":
            self.select = a.get("name")
        elif tag == "option" and self.select and ("selected" in a or self.select not in self.values):
            self.values[self.select] = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.select = None
        elif tag == "form":
            self.inside = False


def form_values(html: str) -> dict[str, str]:
    parser = FormValues()
    parser.feed(html)
    return parser.values


def login(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def edit_url(league: League) -> str:
    return reverse("leagues-league-edit", args=[league.club.slug, league.slug])


def test_the_edit_form_shows_a_custom_clock_and_saving_it_unchanged_keeps_it() -> None:
    league = make_league(time_control=CUSTOM)
    client = login(organizer_of(league.club))

    values = form_values(client.get(edit_url(league)).content.decode())

    assert values["time_control"] == "custom"
    assert (values["tc_initial"], values["tc_increment"], values["tc_cap"]) == ("30.0", "5.0", "90.0")
    response = client.post(edit_url(league), values)
    assert response.status_code == 302
    league.refresh_from_db()
    assert TimeControl.from_json(league.time_control) == CUSTOM


def test_a_clock_outside_the_forms_limits_is_kept_when_the_form_leaves_it_alone() -> None:
    odd = TimeControl(initial=timedelta(minutes=40), increment=timedelta(seconds=1000), cap=timedelta(minutes=50))
    league = make_league(time_control=odd)
    client = login(organizer_of(league.club))
    values = form_values(client.get(edit_url(league)).content.decode())
    assert values["time_control"] == "custom"

    assert client.post(edit_url(league), values).status_code == 302

    league.refresh_from_db()
    assert league.time_control == odd.to_json()


def test_changing_the_custom_hours_saves_the_new_clock_and_a_preset_still_shows_as_itself() -> None:
    league = make_league(time_control=CUSTOM)
    client = login(organizer_of(league.club))
    values = form_values(client.get(edit_url(league)).content.decode())

    client.post(edit_url(league), values | {"tc_initial": "48", "tc_increment": "0", "tc_cap": "48"})

    league.refresh_from_db()
    assert TimeControl.from_json(league.time_control) == TimeControl(
        initial=48 * HOUR, increment=timedelta(0), cap=48 * HOUR
    )
    client.post(edit_url(league), values | {"time_control": "3d"})
    league.refresh_from_db()
    assert TimeControl.from_json(league.time_control) == PRESETS["3d"][1]
    assert form_values(client.get(edit_url(league)).content.decode())["time_control"] == "3d"


def test_a_league_without_a_clock_shows_no_clock_and_keeps_none() -> None:
    league = make_league(time_control=None)
    client = login(organizer_of(league.club))
    values = form_values(client.get(edit_url(league)).content.decode())
    assert values["time_control"] == "none"
    client.post(edit_url(league), values)
    league.refresh_from_db()
    assert league.time_control is None


def test_a_custom_clock_without_all_three_times_is_a_form_error() -> None:
    league = make_league(time_control=CUSTOM)
    client = login(organizer_of(league.club))
    values = form_values(client.get(edit_url(league)).content.decode())

    response = client.post(edit_url(league), values | {"tc_cap": ""})

    assert response.status_code == 200
    assert "A custom time control needs all three times, in hours." in response.content.decode()
    league.refresh_from_db()
    assert TimeControl.from_json(league.time_control) == CUSTOM


def test_the_custom_clock_inputs_carry_the_servers_bounds() -> None:
    """The same limits as the new match form, from the same constants: the browser refuses what the server would."""
    league = make_league(time_control=CUSTOM)
    html = login(organizer_of(league.club)).get(edit_url(league)).content.decode()
    for part, (low, high) in CUSTOM_HOURS.items():
        attrs = rendered_inputs(html)[f"tc_{part}"]
        assert (float(attrs["min"]), float(attrs["max"]), attrs["step"]) == (low, high, "any"), part


def test_a_stored_clock_outside_the_limits_widens_the_bounds_just_enough_to_keep_it() -> None:
    odd = TimeControl(initial=timedelta(minutes=40), increment=timedelta(seconds=1000), cap=timedelta(minutes=50))
    league = make_league(time_control=odd)
    attrs = rendered_inputs(login(organizer_of(league.club)).get(edit_url(league)).content.decode())["tc_initial"]
    assert float(attrs["min"]) == pytest.approx(40 / 60) and float(attrs["max"]) == CUSTOM_HOURS["initial"][1]


@pytest.mark.parametrize(
    ("part", "hours"),
    [
        ("tc_initial", CUSTOM_HOURS["initial"][0] - 0.01),
        ("tc_increment", CUSTOM_HOURS["increment"][0] - 0.01),
        ("tc_cap", CUSTOM_HOURS["cap"][1] + 0.01),
        ("tc_initial", 1e30),  # past what a timedelta holds: was an OverflowError, a 500
    ],
)
def test_a_custom_clock_past_a_bound_is_refused_beside_its_field_and_changes_nothing(part: str, hours: float) -> None:
    league = make_league(time_control=CUSTOM)
    client = login(organizer_of(league.club))
    values = form_values(client.get(edit_url(league)).content.decode())

    response = client.post(edit_url(league), values | {part: str(hours)})

    assert response.status_code == 200
    errors = [str(m) for m in response.context["form"].errors[part]]
    assert errors and all(m[0].isupper() and m.endswith(".") and escape(m) in response.content.decode() for m in errors)
    assert "needs all three times" not in response.content.decode()  # the hours were all given
    league.refresh_from_db()
    assert TimeControl.from_json(league.time_control) == CUSTOM


def test_custom_hours_left_under_a_preset_are_not_read() -> None:
    league = make_league(time_control=CUSTOM)
    client = login(organizer_of(league.club))
    values = form_values(client.get(edit_url(league)).content.decode())

    response = client.post(edit_url(league), values | {"time_control": "3d", "tc_initial": "1e30", "tc_cap": "-1"})

    assert response.status_code == 302
    league.refresh_from_db()
    assert TimeControl.from_json(league.time_control) == PRESETS["3d"][1]
