"""Driving the table page in Debian's chromium: launching, signing in, and playing turns.

Playwright cannot download its own browsers here, so it drives the system
chromium; the flags keep it quiet and within a small container's limits.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.core import mail
from playwright.sync_api import Browser, BrowserContext, Page, Playwright

CHROMIUM = Path("/usr/bin/chromium")
MISSING_CHROMIUM = f"needs Debian's chromium at {CHROMIUM} (apt-get install chromium)"
# Every browser test module's marks: browser, slow, and skipped without chromium (outside CI; in CI, the
# ``browser`` fixture of tests/conftest.py fails instead).
BROWSER_MARKS = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.exists() and os.environ.get("CI", "").lower() not in {"1", "true", "yes"}, reason=MISSING_CHROMIUM
    ),
]
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
# Generous per step: two cores are shared with other test runs, and a move runs every bot's turn inline.
STEP_TIMEOUT_MS = 15_000
# Each human move ends a bot chain; a Karnoffel hand to one is at most 5 cards, so this bounds a runaway loop.
MAX_TURNS = 200
SCREENSHOT_MAX_BYTES = 300 * 1024
SAVE_ENV = "PARLOUR_SAVE_SCREENSHOTS"
REPO_SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

CONFIRM_LINK = re.compile(r"https?://\S+/accounts/confirm-email/\S+?/")
# The version token every move form carries: it changes with every move, so a new one means the table updated.
VERSION_INPUT = "#turn-panel input[name=version]"
MOVE_BUTTON = "#turn-panel form.actions button[type=submit]"
OVER = "#turn-panel .over"
ERROR = "#live .error"
# Long tables (the generic view of a game) are cut at this many screens so each PNG stays small.
MAX_SCREENS = 3


def launch(playwright: Playwright) -> Browser:
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)


def screenshot_dir(tmp_path: Path) -> Path:
    """docs/screenshots when asked to refresh the committed pictures, else the test's own tmp dir."""
    target = REPO_SCREENSHOTS if os.environ.get(SAVE_ENV) == "1" else tmp_path / "screenshots"
    target.mkdir(parents=True, exist_ok=True)
    return target


def confirmation_link(address: str) -> str:
    """The email-verification link allauth sent to ``address``; fails loudly if none was sent."""
    for message in reversed(mail.outbox):
        if address in message.to:
            found = CONFIRM_LINK.search(message.body)
            if found:
                return found.group(0)
    subjects = [(m.to, m.subject) for m in mail.outbox]
    raise AssertionError(f"No confirmation link was mailed to {address}; the outbox holds {subjects}.")


def sign_in_as(context: BrowserContext, base_url: str, session_key: str) -> None:
    """Give the browser the session of a user the test logged in server-side."""
    context.add_cookies([{"name": "sessionid", "value": session_key, "url": base_url}])


def page_version(page: Page) -> str | None:
    field = page.locator(VERSION_INPUT).first
    return field.get_attribute("value") if field.count() else None


def wait_for_turn_or_end(page: Page) -> bool:
    """Wait until the page offers a move or shows the end; True when the match is over.

    While bots are thinking the panel says "Waiting for ..."; the 4-second poll brings the next state.
    """
    page.locator(f"{MOVE_BUTTON}, {OVER}").first.wait_for(state="visible", timeout=STEP_TIMEOUT_MS)
    return page.locator(OVER).count() > 0


def play_one_move(page: Page) -> None:
    """Click the first legal move and wait until htmx swapped in a table with a newer version, or one waiting
    for another player (no move form), or the end."""
    before = page_version(page)
    page.locator(MOVE_BUTTON).first.click(timeout=STEP_TIMEOUT_MS)
    page.wait_for_function(
        """([selector, over, before]) => {
            if (document.querySelector(over)) return true;
            const field = document.querySelector(selector);
            return field === null || field.value !== before;
        }""",
        arg=[VERSION_INPUT, OVER, before],
        timeout=STEP_TIMEOUT_MS,
    )


def choose_game(page: Page, game: str) -> None:
    """Pick the game on the new-match form and wait until htmx swapped in its options.

    Choosing fires the swap even when the game was already selected, so the old options are marked first: a
    field filled before the swap lands would be replaced by a fresh one.
    """
    page.evaluate("() => { document.getElementById('game-options').dataset.stale = 'yes'; }")
    page.locator("form.create-form select[name=game]").select_option(game)
    page.locator(f'#game-options[data-game="{game}"]:not([data-stale])').wait_for(timeout=STEP_TIMEOUT_MS)


def refused_move(page: Page) -> str | None:
    """The table's error line after a move, if the app refused it."""
    error = page.locator(ERROR)
    return error.first.inner_text() if error.count() else None


def play_to_the_end(page: Page) -> int:
    """Play the seated human's turns through the page until the result shows; returns the moves made."""
    for moves in range(MAX_TURNS):
        if wait_for_turn_or_end(page):
            return moves
        play_one_move(page)
        if (error := refused_move(page)) is not None:
            raise AssertionError(f"The app refused move {moves + 1}, a legal move offered on the page: {error}")
    raise AssertionError(f"The match did not end within {MAX_TURNS} moves of the human player.")


def table_screenshot(page: Page, path: Path, screens: int = MAX_SCREENS) -> int:
    """The page from the top, at most ``screens`` viewports tall; returns the PNG's size in bytes."""
    viewport = page.viewport_size or {"width": 1280, "height": 900}
    height = min(page.evaluate("document.documentElement.scrollHeight"), screens * viewport["height"])
    page.screenshot(path=str(path), full_page=True, clip={"x": 0, "y": 0, "width": viewport["width"], "height": height})
    return path.stat().st_size


def strings_in(value: object) -> set[str]:
    """Every string anywhere in a view: the card codes the viewer is allowed to see are among them."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return set()


def shown_cards(page: Page) -> set[str]:
    return set(page.eval_on_selector_all("[data-card]", "nodes => nodes.map(n => n.dataset.card)"))
