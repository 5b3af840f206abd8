"""In a real browser: the organizer settles a round now from the organize page, through its confirmation page,
and the next round of the sequential season is open; removing a member is asked first, then done."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from leagues.models import Entrant, Membership
from tests.games.browser_helpers import BROWSER_MARKS, DESKTOP, STEP_TIMEOUT_MS, sign_in_as
from tests.leagues.factories import fixtures_of, organizer_of
from tests.leagues.flow_world import is_open, round_of, season_url, sequential

playwright_sync = pytest.importorskip("playwright.sync_api", reason="the browser tests need the playwright package")

pytestmark = BROWSER_MARKS


def _signed_in(browser: playwright_sync.Browser, site: str, user: User) -> playwright_sync.Page:
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=DESKTOP)
    sign_in_as(context, site, client.session.session_key or "")
    page = context.new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    return page


def test_an_organizer_settles_a_round_now_after_confirming_and_the_next_one_opens(browser, site: str) -> None:
    season = sequential(settle="as_stands")
    page = _signed_in(browser, site, organizer_of(season.league.club))
    page.goto(site + season_url(season, "leagues-season-organize"))
    page.get_by_role("link", name="Settle the round now").click()
    page.wait_for_load_state()
    assert page.get_by_role("heading", name="Settle Round 1 now?").is_visible()
    assert round_of(season, 1).settled_at is None  # the question changed nothing
    page.get_by_role("button", name="Settle Round 1 now").click()
    page.wait_for_load_state()
    assert page.url.endswith(season_url(season, "leagues-season-organize"))
    assert "Round 1 is settled." in page.locator("main").inner_text()
    assert round_of(season, 1).settled_at is not None and is_open(season, 2)


def test_removing_a_member_who_plays_is_asked_first_in_the_browser(browser, site: str) -> None:
    season = sequential()
    entrant = Entrant.objects.select_related("user").get(pk=fixtures_of(season)[0].seats[1])
    page = _signed_in(browser, site, organizer_of(season.league.club))
    page.goto(f"{site}/leagues/c/{season.league.club.slug}/members/")
    page.locator("tr", has_text=entrant.user.name).get_by_role("link", name="Remove").click()
    page.wait_for_load_state()
    text = page.locator("main").inner_text()
    assert "still to play" in text and "a bot of the league's level takes their seat" in text
    assert Membership.objects.filter(club=season.league.club, user=entrant.user).exists()
    page.get_by_role("button", name=f"Remove {entrant.user.name}").click()
    page.wait_for_load_state()
    assert f"{entrant.user.name} is no longer a member" in page.locator("main").inner_text()
    assert not Membership.objects.filter(club=season.league.club, user=entrant.user).exists()
