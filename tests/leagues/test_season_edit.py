"""Seasons are editable: name, dates and round dates from the organize page, inconsistent dates refused with a
sentence; the season made at a finish takes its dates from the league's cadence (``League.round_days``)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from leagues.errors import LeagueRefused
from leagues.models import AuditEntry, League, Round, Season
from leagues.rollover import season_finish
from leagues.rounds import round_update
from leagues.seasons import fixtures_generate, season_update
from tests.leagues.factories import finish, fixtures_of, make_league, make_season, organizer_of
from tests.leagues.flow_world import login, page, season_url

pytestmark = pytest.mark.django_db


def _plays_by(season: Season) -> list[datetime | None]:
    return list(Round.objects.filter(season=season).order_by("number").values_list("play_by", flat=True))


def test_the_organizer_renames_and_redates_a_season_and_its_drawn_rounds_follow() -> None:
    season = make_season(players=4, rounds=2, start=False)
    organizer = organizer_of(season.league.club)
    fixtures_generate(season=season, actor=organizer, seed=1)
    response = login(organizer).post(
        season_url(season, "leagues-season-edit"),
        {"name": "Spring", "starts_on": "2026-04-01", "ends_on": "2026-04-14"},
    )
    assert response.status_code == 302
    season.refresh_from_db()
    assert (season.name, season.starts_on, season.ends_on) == ("Spring", date(2026, 4, 1), date(2026, 4, 14))
    first, second = Round.objects.filter(season=season).order_by("number")
    assert first.opens_at == datetime(2026, 4, 1, tzinfo=UTC)
    assert second.play_by == datetime(2026, 4, 14, 23, 59, tzinfo=UTC)
    entry = AuditEntry.objects.filter(season=season).first()
    assert entry is not None and entry.actor == organizer
    assert entry.text == "The season is now Spring, from 1 April 2026 to 14 April 2026. 2 rounds moved with it."


@pytest.mark.parametrize(
    ("posted", "words"),
    [
        ({"starts_on": "2026-04-10", "ends_on": "2026-04-01"}, "A season cannot end before it starts."),
        ({"starts_on": "2026-04-10", "ends_on": "1999-04-01"}, "Give dates between the years 2000 and 2199."),
    ],
)
def test_inconsistent_season_dates_are_refused_with_a_sentence_and_change_nothing(
    posted: dict[str, str], words: str
) -> None:
    season = make_season(players=4, rounds=2, start=False)
    response = login(organizer_of(season.league.club)).post(season_url(season, "leagues-season-edit"), posted)
    assert response.status_code == 200 and words in page(response)
    season.refresh_from_db()
    assert (season.starts_on, season.ends_on) == (date(2026, 1, 5), None)


def test_a_running_season_keeps_its_start_but_may_be_renamed_and_given_an_end() -> None:
    season = make_season(players=4, rounds=1)
    organizer = organizer_of(season.league.club)
    with pytest.raises(LeagueRefused, match="its start date cannot move"):
        season_update(season=season, actor=organizer, name="X", starts_on=date(2026, 2, 1))
    plays_by = _plays_by(season)
    client = login(organizer)
    html = page(client.get(season_url(season, "leagues-season-organize")))
    assert 'name="starts_on"' in html and "its start date is fixed" in html
    client.post(season_url(season, "leagues-season-edit"), {"name": "Winter", "ends_on": "2026-03-01"})
    season.refresh_from_db()
    assert (season.name, season.starts_on, season.ends_on) == ("Winter", date(2026, 1, 5), date(2026, 3, 1))
    assert _plays_by(season) == plays_by  # open rounds keep their dates: the organizer moves them one by one


def test_a_round_cannot_have_to_be_played_before_it_opens() -> None:
    season = make_season(players=4, rounds=2, round_mode="sequential")
    second = Round.objects.get(season=season, number=2)
    organizer = organizer_of(season.league.club)
    assert second.opens_at is not None
    with pytest.raises(LeagueRefused, match="play-by date must come after the day it opens"):
        round_update(round=second, actor=organizer, play_by=second.opens_at - timedelta(hours=1))
    response = login(organizer).post(
        season_url(season, "leagues-round-dates", second.pk),
        {"opens_at": "2026-05-01T10:00", "play_by": "2026-04-01T10:00", "back": "organize"},
        follow=True,
    )
    assert "play-by date must come after the day it opens" in page(response)
    assert response.redirect_chain[-1][0].startswith(season_url(season, "leagues-season-organize"))
    assert Round.objects.get(pk=second.pk).opens_at == second.opens_at


def test_the_season_made_at_a_finish_is_dated_by_the_leagues_cadence() -> None:
    league = make_league(game="rentz", options={})
    League.objects.filter(pk=league.pk).update(round_days=10)
    season = make_season(league=league, players=4, rounds=2, fill="byes")
    for number in (1, 2):
        finish(fixtures_of(season, round_number=number)[0], [1, 2, 3, 4])
    nxt = season_finish(season=season, actor=organizer_of(league.club))
    today = timezone.localdate()
    assert nxt.starts_on == today + timedelta(days=1)
    assert nxt.ends_on == today + timedelta(days=20)  # two rounds of ten days


def test_a_season_without_an_end_gives_each_round_the_leagues_round_days() -> None:
    league = make_league()
    League.objects.filter(pk=league.pk).update(round_days=3)
    season = make_season(league=league, players=4, rounds=2)
    assert _plays_by(season) == [datetime(2026, 1, 8, tzinfo=UTC), datetime(2026, 1, 11, tzinfo=UTC)]


def test_the_edit_page_keeps_its_query_count(django_assert_max_num_queries: Any) -> None:
    season = make_season(players=4, rounds=2, start=False)
    client, url = login(organizer_of(season.league.club)), season_url(season, "leagues-season-edit")
    with django_assert_max_num_queries(5):  # the session, the user, the season with the role, the header's badge
        assert client.get(url).status_code == 200


def test_the_league_form_sets_the_cadence_and_refuses_a_round_of_no_days() -> None:
    league = make_league()
    client = login(organizer_of(league.club))
    url = f"/leagues/c/{league.club.slug}/l/{league.slug}/edit/?game=renfield"
    posted = {"name": league.name, "game": "renfield", "table_size": "4", "time_control": "2d"}
    posted |= {"timeout_bot_level": "basic", "scoring": "places", "tiebreak_1": "points", "opt_hands": "1"}
    assert "Days a round lasts" in page(client.get(url))
    response = client.post(url, {**posted, "round_days": "0"})
    assert response.status_code == 200 and "greater than or equal to 1" in page(response)
    client.post(url, {**posted, "round_days": "10"})
    league.refresh_from_db()
    assert league.round_days == 10
    client.post(url, posted)  # left empty: as it was
    league.refresh_from_db()
    assert league.round_days == 10
