"""The standings on a phone 375 px wide, in chromium: the table scrolls in its own box with the rank and the
name held at its left, every heading looks sortable and the sorted one says which way, and the chart has a
labelled y-axis and one line for each legend entry, drawn as its legend key shows it."""

from __future__ import annotations

from typing import Any

import pytest

from leagues.models import Season
from leagues.results import fixture_count
from tests.games.browser_helpers import BROWSER_MARKS, STEP_TIMEOUT_MS
from tests.leagues.factories import finish, fixtures_of, make_league, make_season

playwright_sync = pytest.importorskip("playwright.sync_api", reason="the browser tests need the playwright package")

pytestmark = BROWSER_MARKS

PHONE = {"width": 375, "height": 800}
TIEBREAKS = ["points", "wins", "game_score", "opponents_rating", "fewest_bot_moves"]


def a_season(rounds_played: int) -> Season:
    """Eight players at two tables a round, each finishing in seat order: after one round two players have
    4 points, two have 2 and two have 1, so the top five draw only three different lines."""
    season = make_season(league=make_league(tiebreaks=TIEBREAKS), players=8, rounds=3)
    for number in range(1, rounds_played + 1):
        for fixture in fixtures_of(season, round_number=number):
            fixture_count(match_id=finish(fixture, list(range(1, len(fixture.seats) + 1))).pk)
    return season


def phone_page(browser: Any, site: str, season: Season) -> Any:
    page = browser.new_context(viewport=PHONE).new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    league = season.league
    page.goto(f"{site}/leagues/c/{league.club.slug}/l/{league.slug}/{season.number}/standings/")
    return page


def test_it_scrolls_the_table_in_its_own_box_with_the_rank_and_name_held_at_the_left(browser: Any, site: str) -> None:
    page = phone_page(browser, site, a_season(rounds_played=2))
    widths = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1] == PHONE["width"], "the page itself never scrolls sideways"
    box = page.locator(".table-scroll").first
    assert box.evaluate("e => e.scrollWidth > e.clientWidth"), "the table is wider than a phone: its box scrolls"
    row = page.locator("table.standings tbody tr").first
    rank, name = row.locator("td").first, row.locator("th[scope=row]")
    start = box.bounding_box()["x"]
    name_at = name.bounding_box()["x"]
    box.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    assert rank.bounding_box()["x"] == pytest.approx(start, abs=1)
    assert name.bounding_box()["x"] == pytest.approx(name_at, abs=1), "the name stays where it was"
    # Scrolled to the end, the last column is whole inside the box: nothing is cut off for good.
    last = page.locator("table.standings thead th").last.bounding_box()
    end = box.bounding_box()
    assert last["x"] + last["width"] <= end["x"] + end["width"] + 1
    # What scrolled under the held columns is hidden by them, not shown through.
    under = page.evaluate(
        """() => { const th = document.querySelector('table.standings tbody th[scope=row]');
                   const r = th.getBoundingClientRect();
                   return document.elementFromPoint(r.x + 2, r.y + r.height / 2).closest('th') === th; }"""
    )
    assert under


def test_it_marks_every_heading_as_sortable_and_the_sorted_one_with_its_direction(browser: Any, site: str) -> None:
    page = phone_page(browser, site, a_season(rounds_played=1))
    headings = page.locator("table.standings thead th:has(a)")
    marks = page.locator("table.standings thead th a .sort-mark")
    assert headings.count() == marks.count() > 5
    assert all(marks.nth(i).is_visible() for i in range(marks.count()))
    sorted_heading = page.locator("table.standings thead th[aria-sort]")
    assert sorted_heading.count() == 1
    assert sorted_heading.get_attribute("aria-sort") == "ascending" and sorted_heading.inner_text().startswith("#")
    assert sorted_heading.locator(".sort-mark").inner_text() == "▲"
    page.locator("table.standings thead th a", has_text="Points").click()
    page.locator('table.standings thead th[aria-sort="descending"]').wait_for()
    points = page.locator("table.standings thead th[aria-sort]")
    assert points.count() == 1 and points.inner_text().startswith("Points")
    assert points.locator(".sort-mark").inner_text() == "▼"
    assert "sort=points" in page.url
    opacity = [float(marks.nth(i).evaluate("e => getComputedStyle(e).opacity")) for i in range(marks.count())]
    assert sorted(opacity)[-1] == 1 and sorted(opacity)[0] < 1, "the sorted column's mark stands out"


def test_it_draws_the_chart_with_a_labelled_y_axis_and_a_line_per_legend_entry(browser: Any, site: str) -> None:
    page = phone_page(browser, site, a_season(rounds_played=1))
    chart = page.locator("figure.points-chart").first
    labels = chart.locator("svg text.level").all_text_contents()
    assert labels[0] == "0" and labels[-1] == "4", labels  # from nothing to the leaders' 4 points
    lines = chart.locator("svg polyline")
    legend = chart.locator(".legend li")
    drawn = {lines.nth(i).get_attribute("points") for i in range(lines.count())}
    assert lines.count() == legend.count() == len(drawn) == 3, "one distinct line for each legend entry"
    assert legend.first.inner_text().count(",") == 1, "the two players level on 4 points share the first entry"
    style = "e => { const s = getComputedStyle(e); return [s.stroke, s.strokeDasharray]; }"
    for i in range(legend.count()):
        key = legend.nth(i).locator("svg.key line").evaluate(style)
        assert key == lines.nth(i).evaluate(style), f"legend entry {i + 1} shows the line it names"
    keys = {tuple(legend.nth(i).locator("svg.key line").evaluate(style)) for i in range(legend.count())}
    assert len(keys) == legend.count(), "no two lines look alike"
    width = chart.evaluate("e => e.getBoundingClientRect().width")
    assert width <= PHONE["width"]
