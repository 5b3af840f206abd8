"""League posts at the edges of what a league can hold, each once a 500, now refused with a sentence: round
dates past what UTC can store, place points no place could earn, clock hours no clock could have, season
dates at the end of the calendar; and the latest season the form takes still gets its rounds."""

from __future__ import annotations

import math

import pytest
from django.urls import reverse
from django.utils.html import escape

from leagues.errors import LeagueRefused
from leagues.forms import OUTSIDE_YEARS
from leagues.models import Round, Season
from leagues.seasons import (
    fixtures_generate,
    league_create,
    season_close_registration,
    season_open_registration,
    season_register,
)
from tests.security.league_world import LEAGUE_POST, PLAIN_SEASON, World, error_messages, errors_shown, snapshot
from tests.security.values import CALENDAR_ENDS, NON_FINITE

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("when", ["9999-12-31T23:59", "9999-12-31T16:00", "0001-01-01T00:00", "1999-12-31T23:59"])
@pytest.mark.parametrize("field_name", ["play_by", "opens_at"])
def test_a_round_date_no_league_could_use_is_refused_with_a_sentence(
    league_world: World, when: str, field_name: str
) -> None:
    """The last day of year 9999 in California is past what UTC can hold: that post was a 500."""
    first = (
        Round.objects.filter(season=league_world.running, opened_at=None).first()
        or league_world.running.round_set.first()
    )
    assert first is not None
    before = snapshot()
    response = league_world.client("organizer").post(
        league_world.season_url("leagues-round-dates", league_world.running, first.pk), {field_name: when}
    )
    assert response.status_code == 302 and snapshot() == before
    assert error_messages(response) == ["Give dates between the years 2000 and 2199."]


def _sentence(text: str) -> bool:
    return text[:1].isupper() and text.endswith(".") and len(text.split()) > 3


def _league_page_posts(league_world: World) -> list[str]:
    return [
        reverse("leagues-league-create", args=[league_world.club.slug]) + "?game=renfield",
        reverse("leagues-league-edit", args=[league_world.club.slug, league_world.league.slug]) + "?game=renfield",
    ]


@pytest.mark.parametrize("points", [f"{p},2,1,0" for p in [*NON_FINITE, "1e10", "1001"]] + ["4,2,1,nan"])
def test_place_points_no_place_could_earn_are_refused_with_a_sentence(league_world: World, points: str) -> None:
    """inf, NaN and 1e309 (float() reads them all) were stored in a JSON column that takes neither: a 500."""
    for url in _league_page_posts(league_world):
        before = snapshot()
        response = league_world.client("organizer").post(url, LEAGUE_POST | {"place_points": points})
        assert response.status_code == 200 and snapshot() == before, (url, response.status_code)
        errors = [str(m) for m in response.context["form"].errors["place_points"]]
        assert errors and all(escape(m) in response.content.decode() for m in errors)
        assert all(_sentence(m) for m in errors), errors


@pytest.mark.parametrize("points", [[math.inf, 2, 1, 0], [4, 2, 1, math.nan], [1001, 2, 1, 0], [-math.inf] * 4])
def test_the_league_service_refuses_points_no_place_could_earn(league_world: World, points: list[float]) -> None:
    """The service checks too, for any caller besides the form: JSON stores no infinity and no NaN."""
    with pytest.raises(LeagueRefused, match="at most 1000"):
        league_create(
            club=league_world.club,
            actor=league_world.users["organizer"],
            name="Odd",
            game="renfield",
            table_size=4,
            place_points=points,
        )


@pytest.mark.parametrize(
    ("part", "hours"),
    [("tc_initial", h) for h in [*NON_FINITE, "1e30", str(10**30), "24000000000", "0.99", "-1", "0x10"]]
    + [("tc_increment", h) for h in ["1e30", "-0.01", "inf"]]
    + [("tc_cap", h) for h in ["1e30", str(10**30), "1440.01", "nan"]],
)
def test_custom_clock_hours_no_clock_could_have_are_refused_with_a_sentence(
    league_world: World, part: str, hours: str
) -> None:
    """A thousand million days and more overflowed timedelta: the league form answered with a 500."""
    clock = {"time_control": "custom", "tc_initial": "24", "tc_increment": "1", "tc_cap": "48", part: hours}
    for url in _league_page_posts(league_world):
        before = snapshot()
        response = league_world.client("organizer").post(url, LEAGUE_POST | clock)
        assert response.status_code == 200 and snapshot() == before, (url, response.status_code)
        assert errors_shown(response) and all(_sentence(m) for m in response.context["form"].errors[part])


@pytest.mark.parametrize("day", CALENDAR_ENDS)
@pytest.mark.parametrize("field_name", ["starts_on", "ends_on"])
def test_a_season_date_at_the_end_of_the_calendar_is_refused_with_a_sentence(
    league_world: World, day: str, field_name: str
) -> None:
    """A season starting in the last days of 9999 had rounds past the calendar (fixtures_generate overflowed),
    one on 1 January of year 1 rounds no page in California could show: both were a 500 after the season
    was created. The form says which years a season may use."""
    before = snapshot()
    url = reverse("leagues-season-create", args=[league_world.club.slug, league_world.league.slug])
    response = league_world.client("organizer").post(url, PLAIN_SEASON | {field_name: day})
    assert response.status_code == 200 and snapshot() == before
    assert [str(m) for m in response.context["form"].errors[field_name]] == [OUTSIDE_YEARS]
    assert escape(OUTSIDE_YEARS) in response.content.decode()


def test_a_season_at_the_last_years_allowed_gets_its_rounds(league_world: World) -> None:
    """The latest start the form takes still leaves room for a long season's rounds, a week each."""
    organizer = league_world.users["organizer"]
    url = reverse("leagues-season-create", args=[league_world.club.slug, league_world.league.slug])
    response = league_world.client("organizer").post(url, PLAIN_SEASON | {"starts_on": "2199-12-31", "rounds": "100"})
    assert response.status_code == 302
    season = Season.objects.get(league=league_world.league, starts_on="2199-12-31")
    season_open_registration(season=season, actor=organizer)
    for user in (league_world.users["player"], league_world.users["target"]):
        season_register(season=season, user=user)
    season_close_registration(season=season, actor=organizer)
    fixtures_generate(season=season, actor=organizer)
    assert league_world.client("organizer").get(league_world.season_url("leagues-fixtures", season)).status_code == 200
