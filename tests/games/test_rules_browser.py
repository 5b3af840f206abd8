"""The rules pages fit a phone: at 375 px wide chromium shows every game's page without sideways scrolling.

A wide table scrolls inside its own box (focusable, named), and axe-core finds nothing serious on the pages
or on the new-match form's tables of numbers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.games.browser_helpers import BROWSER_MARKS, sign_in_as
from tests.games.factories import UserFactory, game_names

pytestmark = BROWSER_MARKS

PHONE_WIDTH = 375
AXE = Path(__file__).resolve().parents[1] / "vendor" / "axe.min.js"
SERIOUS = {"serious", "critical"}


def serious_axe_violations(page: Any) -> list[dict[str, Any]]:
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations.map(
            v => ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map(n => n.target.join(" "))}))"""
    )
    return [v for v in found if v["impact"] in SERIOUS]


@pytest.mark.parametrize("game", game_names())
def test_it_fits_each_rules_page_into_a_phone_without_sideways_scrolling(browser: Any, site: str, game: str) -> None:
    context = browser.new_context(viewport={"width": PHONE_WIDTH, "height": 800}, bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(site + reverse("games-rules", args=[game]))
        page.wait_for_load_state("load")
        width = page.evaluate("document.documentElement.scrollWidth")
        # A wide table scrolls inside its own box instead, and that box is as wide as the screen at most.
        boxes = page.evaluate(
            "Array.from(document.querySelectorAll('.rules-table')).map(b => b.getBoundingClientRect().right)"
        )
        stylesheets = page.evaluate("Array.from(document.styleSheets).map(s => s.href || '')")
        violations = serious_axe_violations(page)
    finally:
        context.close()
    assert any(href.endswith("rules.css") for href in stylesheets), stylesheets
    assert width <= PHONE_WIDTH, f"the {game} rules page is {width} px wide at a {PHONE_WIDTH} px screen"
    assert all(right <= PHONE_WIDTH for right in boxes), boxes
    assert not violations, violations


@pytest.mark.parametrize("game", ["renfield", "rapscallion", "rentz"])
def test_the_option_tables_of_the_new_match_form_fit_a_phone_and_pass_axe(browser: Any, site: str, game: str) -> None:
    client = Client()
    client.force_login(UserFactory())
    context = browser.new_context(viewport={"width": PHONE_WIDTH, "height": 800}, bypass_csp=True)
    try:
        sign_in_as(context, site, client.session.session_key)
        page = context.new_page()
        page.goto(site + reverse("games-create") + f"?game={game}")
        page.wait_for_load_state("load")
        page.evaluate("document.querySelectorAll('.number-table details').forEach(d => d.open = true)")
        width = page.evaluate("document.documentElement.scrollWidth")
        cells = page.locator(".number-table input[type=number]").count()
        violations = serious_axe_violations(page)
    finally:
        context.close()
    assert width <= PHONE_WIDTH, f"the {game} form is {width} px wide at a {PHONE_WIDTH} px screen, tables opened"
    assert cells > 0 and not violations, violations
