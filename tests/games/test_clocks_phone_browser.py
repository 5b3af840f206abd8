"""In chromium on a phone: the clocks are compact (one line per seat), so the table starts on the first screen.

Every game at its most seats, each on a clock, on a 375x667 phone: each seat's clock is one line, the running
seat's countdown shows, its absolute deadline is still in the page for a screen reader, and the board's first
BOARD_SHOWN px are on the first screen. Whatever the players are called: the same with names of the longest
kind a person can have, because what sits above the board (the site's menu, the table's head, the seats and the
clocks) once grew a line with each longer name. Under a long test run the factories' "Player 1000" pushed
Renfield's board 117 px lower than "Player 0" did, which read as a failure "under load"; it was the names.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from engine import GAMES
from games.models import Match
from tests.games.browser_helpers import BROWSER_MARKS, STEP_TIMEOUT_MS, sign_in_as
from tests.games.world import clocked

pytest.importorskip("playwright.sync_api", reason="the browser tests need the playwright package")

pytestmark = BROWSER_MARKS

PHONE = {"width": 375, "height": 667}
NARROWEST = {"width": 320, "height": 568}
BOARD_SHOWN = 120
# The longest display name a person can have, in the widest letter.
LONGEST_NAME = "W" * (User._meta.get_field("display_name").max_length or 0)
# Each clock: its height over its line height; whether its name is cut with an ellipsis; whether its time (the
# countdown, or the time left on a waiting clock) is on the line in full, after the name and inside the screen.
CLOCK_LINES = """() => [...document.querySelectorAll('.clocks .clock')].map(li => {
    const box = li.getBoundingClientRect(), lineHeight = parseFloat(getComputedStyle(li).lineHeight);
    const name = li.querySelector('.name'), time = li.querySelector('.countdown:not([hidden]), .left');
    const t = time && time.getBoundingClientRect();
    return {text: li.textContent.replace(/\\s+/g, ' ').trim(), lines: box.height / lineHeight,
            cut: name.scrollWidth > name.clientWidth && getComputedStyle(name).textOverflow === 'ellipsis',
            time_shown: t !== null && t.height < 1.5 * lineHeight && t.left >= name.getBoundingClientRect().right - 0.5
                        && t.right <= Math.min(box.right, window.innerWidth) + 0.5};
})"""
# What is drawn above the board (a visually hidden part and what it holds aside) past the screen's right edge.
PAST_THE_EDGE = """() => [...document.querySelectorAll('.site-header *, .match-head *, .seats *, .clocks *')].filter(e => {
    for (let up = e; up; up = up.parentElement) { if (up.offsetWidth <= 1) return false; }
    return e.getBoundingClientRect().right > window.innerWidth + 0.5;
}).map(e => `${e.tagName.toLowerCase()}.${e.className}: ${e.textContent.trim().slice(0, 30)}`)"""


def _phone_table(browser: Any, site: str, match: Match, viewport: dict[str, int] = PHONE) -> Any:
    player, client = match.seats.get(number=0).user, Client()
    assert player is not None
    client.force_login(player)
    context = browser.new_context(viewport=viewport)
    sign_in_as(context, site, client.session.session_key or "")
    page = context.new_page()
    page.goto(site + match.get_absolute_url())
    # What the layout waits for, not a guess at how long it takes: the stylesheets and deferred scripts (load),
    # the fonts, and clocks.js's first tick, which shows the running seat's countdown and hides its deadline.
    page.wait_for_load_state()
    page.evaluate("document.fonts.ready.then(() => true)")
    page.locator(".clocks .countdown").first.wait_for(state="visible", timeout=STEP_TIMEOUT_MS)
    return page


def _one_line_each(page: Any) -> list[str]:
    return [f"{c['text']!r}: {c['lines']:.1f} lines" for c in page.evaluate(CLOCK_LINES) if c["lines"] > 1.5]


@pytest.mark.parametrize("names", [{}, {"display_name": LONGEST_NAME}], ids=["factory names", "longest names"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_clocks_are_one_line_a_seat_and_the_board_starts_on_the_first_screen(
    browser: Any, site: str, game: str, names: dict[str, Any]
) -> None:
    match = clocked(game, humans=GAMES[game].MAX_PLAYERS, **names)
    page = _phone_table(browser, site, match)
    try:
        assert page.locator(".clocks .clock").count() == GAMES[game].MAX_PLAYERS
        assert not _one_line_each(page), f"{game}: clocks on more than one line: {_one_line_each(page)}"
        board = page.locator(".board-area").first.bounding_box()
        # At least its first BOARD_SHOWN px on the first screen.
        assert board is not None and board["y"] + BOARD_SHOWN <= PHONE["height"], f"{game}: the board starts at {board}"
        countdown = page.locator(".clocks .countdown").first.bounding_box()
        assert countdown is not None and countdown["y"] + countdown["height"] <= PHONE["height"]
        # Still readable: the section is named by its heading, and the absolute deadline stays for a screen reader.
        assert page.get_by_role("region", name="Clocks").count() == 1
        deadline = page.locator(".clocks .clock.running .deadline").first
        assert "time runs out" in (deadline.text_content() or "")
        assert not page.evaluate(PAST_THE_EDGE), f"{game}: past the screen's edge: {page.evaluate(PAST_THE_EDGE)}"
        # No sideways scroll, whatever the names: the boards break a long name anywhere (games.css).
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{game}: the page is {width} px wide"
    finally:
        page.context.close()


@pytest.mark.parametrize("viewport", [NARROWEST, PHONE], ids=lambda v: f"{v['width']} px")
def test_a_long_name_is_cut_before_its_time_is(browser: Any, site: str, viewport: dict[str, int]) -> None:
    match = clocked("karnoffel", humans=4, display_name=LONGEST_NAME)
    page = _phone_table(browser, site, match, viewport)
    try:
        clocks = page.evaluate(CLOCK_LINES)
        assert len(clocks) == 4 and not _one_line_each(page), _one_line_each(page)
        assert [c["cut"] for c in clocks] == [True] * 4, "each name is cut with an ellipsis"
        assert [c["time_shown"] for c in clocks] == [True] * 4, f"a seat's time is not whole on its line: {clocks}"
        assert all(LONGEST_NAME in c["text"] for c in clocks)  # cut only on screen: read out whole
        assert not page.evaluate(PAST_THE_EDGE), f"past the screen's edge: {page.evaluate(PAST_THE_EDGE)}"
    finally:
        page.context.close()
