"""Every main page in a real browser under the site's own Content-Security-Policy, with no violation.

Chromium enforces the policy the middleware sends (no ``bypass_csp``): an inline script or style, an
``eval``, a frame or a request to another origin is refused and reported twice, as a
``securitypolicyviolation`` event in the page (collected by a script Playwright adds before the page's
own, which the policy does not govern) and as a console error. Each page is loaded, left until the
network is quiet, and checked for both; the new-match form also swaps a game's options in over htmx.
A first check plants a violation on purpose, so that a listener that heard nothing is not mistaken for
a clean site.
"""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from engine import GAMES
from games.maillinks import link_token
from games.models import Match
from leagues.models import Fixture
from tests.games.browser_helpers import (
    BROWSER_MARKS,
    DESKTOP,
    STEP_TIMEOUT_MS,
    choose_game,
    sign_in_as,
)
from tests.games.factories import UserFactory, make_match, play_engine_moves, quick_options
from tests.leagues.factories import make_club, make_league, make_season, member

playwright_sync = pytest.importorskip("playwright.sync_api", reason="the browser tests need the playwright package")

pytestmark = BROWSER_MARKS

# Runs before any script of the page (Playwright's init scripts are outside the page's policy).
LISTEN = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`);
});
"""
CSP_WORDS = ("Content Security Policy", "Content-Security-Policy", "Refused to")


class Watched:
    """A browser context under the real policy whose pages report every violation and CSP console error."""

    def __init__(self, browser: playwright_sync.Browser, site: str, user: User | None) -> None:
        self.context = browser.new_context(viewport=DESKTOP)
        if user is not None:
            client = Client()
            client.force_login(user)
            sign_in_as(self.context, site, client.cookies["sessionid"].value)
        self.context.add_init_script(LISTEN)
        self.console: list[str] = []
        self.site = site

    def open(self, path: str) -> playwright_sync.Page:
        page = self.context.new_page()
        page.set_default_timeout(STEP_TIMEOUT_MS)
        page.on("console", lambda message: self.console.append(f"{path}: {message.type}: {message.text}"))
        response = page.goto(self.site + path)
        assert response is not None and response.status == 200, f"{path} answered {response and response.status}"
        page.wait_for_load_state("networkidle")
        return page

    def problems(self, page: playwright_sync.Page, path: str) -> list[str]:
        found = [f"{path}: {v}" for v in page.evaluate("window.__cspViolations")]
        return found + [line for line in self.console if line.startswith(f"{path}: ") and _about_csp(line)]


def _about_csp(line: str) -> bool:
    return any(word in line for word in CSP_WORDS)


def _my_turn(game: str, user: User) -> Match:
    """A match of people only, moved on until it is the user's turn (seat 0), so the table shows its moves."""
    match = make_match(game, users=[user], options=quick_options(game))
    match.refresh_from_db()
    for _ in range(40):
        if 0 in match.engine.to_act(match.state):
            break
        play_engine_moves(match, 1)
    assert 0 in match.engine.to_act(match.state), f"precondition: the {game} table waits for seat 0"
    return match


def test_a_violation_planted_on_a_page_is_reported(browser: playwright_sync.Browser, site: str) -> None:
    """The listener and the console both hear an inline style and an image from another origin, and the style is
    refused, not merely reported."""
    watched = Watched(browser, site, None)
    page = watched.open("/accounts/login/")
    page.evaluate(
        """() => {
            const img = document.createElement("img");
            img.src = "https://example.invalid/planted.png";
            document.body.append(img);
            const style = document.createElement("style");
            style.textContent = "body { outline: 1px solid red; }";
            document.head.append(style);
        }"""
    )
    page.wait_for_function("window.__cspViolations.length >= 2")
    problems = watched.problems(page, "/accounts/login/")
    assert any("img-src" in p for p in problems) and any("style-src" in p for p in problems), problems
    assert any(_about_csp(line) for line in watched.console), watched.console
    # Enforced, not only reported: the planted style was not applied.
    assert page.evaluate("getComputedStyle(document.body).outlineStyle") != "solid"
    watched.context.close()


def test_every_main_page_loads_under_the_policy_without_a_violation(
    browser: playwright_sync.Browser, site: str
) -> None:
    user = UserFactory(display_name="Policy Tester")
    tables = {game: _my_turn(game, user) for game in sorted(GAMES)}
    first = sorted(GAMES)[0]
    finished = make_match(first, users=[user], options=quick_options(first))
    play_engine_moves(finished, 0, until_over=True)
    some = tables[first]
    seat = some.engine.to_act(some.state)[0]
    action = some.engine.legal_actions(some.state, seat)[0]
    mail_link = link_token(match_id=some.pk, seat=seat, user_id=user.pk, version=some.version, action=action)

    club = make_club(organizer=user, name="Policy Club")
    league = make_league(club=club)
    season = make_season(league=league, players=[user, member(club), member(club), member(club)], rounds=1)
    fixture = Fixture.objects.filter(round__season=season).first()
    assert fixture is not None
    season_path = f"/leagues/c/{club.slug}/l/{league.slug}/{season.number}/"

    anonymous_pages = ["/", "/accounts/login/", "/accounts/signup/", f"/mail/move/{mail_link}/"]
    anonymous_pages += [f"/rules/{game}/" for game in sorted(GAMES)]
    pages = [
        "/",
        "/new/",
        "/me/",
        f"/m/{some.pk}/log/",
        f"/m/{finished.pk}/replay/?ply=5",
        finished.get_absolute_url(),
        *(match.get_absolute_url() for match in tables.values()),
        "/leagues/",
        "/leagues/clubs/new/",
        f"/leagues/c/{club.slug}/",
        f"/leagues/c/{club.slug}/members/",
        f"/leagues/c/{club.slug}/invite/",
        f"/leagues/c/{club.slug}/new-league/",
        f"/leagues/c/{club.slug}/l/{league.slug}/",
        f"/leagues/c/{club.slug}/l/{league.slug}/edit/",
        f"/leagues/c/{club.slug}/l/{league.slug}/seasons/new/",
        season_path,
        season_path + "standings/",
        season_path + "fixtures/",
        season_path + "organize/",
        season_path + f"tables/{fixture.pk}/result/",
        season_path + "finish/",
        season_path + f"players/{user.pk}/",
    ]
    problems: list[str] = []
    for who, paths in ((None, anonymous_pages), (user, pages)):
        watched = Watched(browser, site, who)
        for path in paths:
            page = watched.open(path)
            if path == "/new/":  # htmx swaps the options of another game in
                choose_game(page, sorted(GAMES)[-1])
                page.wait_for_load_state("networkidle")
            problems += watched.problems(page, path)
            page.close()
        watched.context.close()
    assert problems == []
