"""The table's countdown in chromium words its time as the server's other times do: "1 day, 23 hours left"."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client

from games.clocks import TimeControl
from tests.games.browser_helpers import BROWSER_MARKS, STEP_TIMEOUT_MS, sign_in_as
from tests.games.world import clocked

pytestmark = BROWSER_MARKS

# Django's timeuntil, which the page shows beside the countdown and in the reminders, parts its units with a comma.
COUNTDOWN = re.compile(r"^\(\d+ (day|hour)s?, \d+ (hour|minute)s? left\)$")


@pytest.mark.parametrize("initial", [timedelta(hours=72), timedelta(hours=5)], ids=["days", "hours"])
def test_the_countdown_parts_its_units_with_a_comma_like_the_rest_of_the_page(
    browser: Any,
    site: str,
    initial: timedelta,
) -> None:
    clock = TimeControl(initial=initial, increment=timedelta(hours=1), cap=initial)
    match = clocked("karnoffel", humans=4, clock=clock)
    client = Client()
    client.force_login(match.seats.get(number=0).user)
    context = browser.new_context()
    try:
        sign_in_as(context, site, client.session.session_key)
        page = context.new_page()
        page.goto(site + match.get_absolute_url())
        countdown = page.locator(".clocks .countdown").first
        countdown.wait_for(state="visible", timeout=STEP_TIMEOUT_MS)
        text = countdown.inner_text().strip()
    finally:
        context.close()
    assert COUNTDOWN.match(text), text
