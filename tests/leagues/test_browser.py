"""In a real browser: an organizer runs a season from the new club to its first standings.

The organizer clicks through the pages; the players are made with factories and register through
the service (their own pages are covered in test_views.py), and one match is finished through the
services rather than played card by card (tests/games/test_browser.py plays matches in the browser).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

from leagues.models import Club, Entrant, Season
from leagues.results import fixture_count
from leagues.seasons import season_register
from tests.games.browser_helpers import BROWSER_MARKS, DESKTOP, STEP_TIMEOUT_MS, sign_in_as
from tests.leagues.factories import UserFactory, finish, fixtures_of, member

playwright_sync = pytest.importorskip("playwright.sync_api", reason="the browser tests need the playwright package")

pytestmark = BROWSER_MARKS


def _click(page: playwright_sync.Page, name: str) -> None:
    page.get_by_role("button", name=name).click()
    page.wait_for_load_state()


def test_an_organizer_runs_a_season_from_a_new_club_to_the_first_standings(browser, site: str, tmp_path: Path) -> None:
    organizer = UserFactory(display_name="Olive Organizer")
    client = Client()
    client.force_login(organizer)
    context = browser.new_context(viewport=DESKTOP)
    sign_in_as(context, site, client.session.session_key or "")
    page = context.new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)

    page.goto(f"{site}/leagues/")
    page.get_by_role("link", name="New club").click()
    page.fill("input[name=name]", "Browser Card Club")
    page.check("input[name=public]")
    _click(page, "Create the club")
    club = Club.objects.get(name="Browser Card Club")
    assert page.url.endswith(f"/leagues/c/{club.slug}/")

    page.get_by_role("link", name="New league").click()
    page.get_by_role("link", name="Renfield").click()
    page.fill("input[name=name]", "Renfield Ladder")
    page.fill("input[name=table_size]", "4")
    page.fill("input[name=opt_hands]", "1")
    _click(page, "Create the league")
    assert "4 at a table" in page.locator("main").inner_text()

    page.get_by_role("link", name="New season").click()
    page.fill("input[name=rounds]", "2")
    _click(page, "Create the season")
    season = Season.objects.get(league__club=club)
    _click(page, "Open registration")

    players = [member(club, UserFactory(display_name=f"Reg Player {n}")) for n in range(1, 5)]
    for player in players:
        season_register(season=season, user=player)
    page.reload()
    assert "Entrants (4)" in page.locator("main").inner_text()

    _click(page, "Close registration")
    _click(page, "Make the fixtures")  # leads to the draw, for review
    assert page.locator("section.round").count() == 2
    assert page.locator("section.round .table-row").count() == 2
    page.screenshot(path=str(tmp_path / "fixtures.png"), full_page=True)
    page.get_by_role("navigation", name="Season").get_by_role("link", name="Season").click()
    _click(page, "Start the season")
    season.refresh_from_db()
    assert season.status == Season.Status.RUNNING
    page.screenshot(path=str(tmp_path / "season.png"), full_page=True)

    fixture = fixtures_of(season)[0]
    fixture_count(match_id=finish(fixture, [1, 2, 3, 4]).pk)
    winner = Entrant.objects.get(pk=fixture.seats[0]).user

    page.get_by_role("link", name="Standings").click()
    first = page.locator("table.standings tbody tr").first
    cells = first.locator("td, th").all_inner_texts()
    assert cells[:4] == ["1", winner.name, "1", "4"], cells
    assert page.locator("figure.points-chart svg circle").count() == 4  # four players, one round played
    page.screenshot(path=str(tmp_path / "standings.png"))  # for diagnosis only, never committed
