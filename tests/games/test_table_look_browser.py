"""In chromium on a 375 px phone: each game's table drawn as a card table, and the dashboard with its deadlines.

A card shows its rank and suit, the suits apart by shape as well as colour, and keeps its spoken name; the seats sit
round the trick with the reader at the bottom; nothing scrolls sideways. The dashboard shows the deadline of a match
on the reader's turn and keeps every tap target 8 px or more from the next. ``PARLOUR_SAVE_SCREENSHOTS=1`` writes
docs/screenshots/dashboard-phone.png and the landing page's static/img/table-karnoffel.png (the tables'
pictures in docs/screenshots/ come from test_browser.py).
"""

from __future__ import annotations

import os
from datetime import timedelta
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from engine import GAMES
from games.models import Match, Seat
from games.presenters import presenter_for
from games.services import move_submit
from tests.games.browser_helpers import (
    BROWSER_MARKS,
    SAVE_ENV,
    SCREENSHOT_MAX_BYTES,
    screenshot_dir,
    sign_in_as,
    table_screenshot,
)
from tests.games.factories import UserFactory, make_match

playwright_sync = pytest.importorskip("playwright.sync_api", reason="the browser tests need the playwright package")

pytestmark = BROWSER_MARKS

NARROW = {"width": 375, "height": 812}
LANDING_SIZE, LANDING_SCALE = {"width": 1600, "height": 1129}, 0.8  # a 1280 x 903 picture
LANDING_PICTURE = Path(__file__).resolve().parents[2] / "static" / "img" / "table-karnoffel.png"
MIN_GAP_PX = 8
FRENCH_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_WORDS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "10"}
# What a screen reader reads of a card: its text without the parts hidden from it (aria-hidden).
SPOKEN = """el => { const copy = el.cloneNode(true); copy.querySelectorAll('[aria-hidden=true]').forEach(n => n.remove());
    return copy.textContent.replace(/\\s+/g, ' ').trim(); }"""
# Each card's suit as drawn: the suit symbol on a French face, or the glyph (a mask) of a word-and-number card's mark.
DRAWN_SUIT = """el => { const face = el.querySelector('.face'), mark = el.querySelector('.mark');
    if (face) return face.textContent.trim().slice(-1);
    if (mark) { const glyph = getComputedStyle(mark, '::before');
        return glyph.width !== '0px' && glyph.display !== 'none' ? glyph.maskImage || glyph.webkitMaskImage : ''; }
    return ''; }"""
TAP_TARGETS = """() => [...document.querySelectorAll('main a, main button, main input:not([type=hidden]), main select')]
    .filter(el => el.offsetParent !== null)
    .flatMap((el, i) => [...el.getClientRects()].map(r => ({el: i, what: el.textContent.trim().slice(0, 40),
        left: r.left, right: r.right, top: r.top, bottom: r.bottom})))"""


def _spoken_name(game: str, code: str) -> str:
    """The name a reader hears, computed apart from the presenter: French cards in words, others by their label."""
    if len(code) == 2 and code[1] in FRENCH_WORDS:
        return f"{RANK_WORDS.get(code[0], code[0])} of {FRENCH_WORDS[code[1]]}"
    return presenter_for(game).short_text(code)


def _mid_play(game: str, moves: int = 3) -> tuple[Match, Client]:
    user = UserFactory(display_name="You")
    match = make_match(game, users=[user], level="basic")
    for _ in range(moves):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE or 0 not in match.engine.to_act(match.state):
            break
        move_submit(
            match=match, user=user, seat=0, action=match.engine.legal_actions(match.state, 0)[0], version=match.version
        )
    match.refresh_from_db()
    client = Client()
    client.force_login(user)
    return match, client


def _phone_page(browser: Any, site: str, client: Client, path: str) -> Any:
    context = browser.new_context(viewport=NARROW)
    sign_in_as(context, site, client.cookies["sessionid"].value)
    page = context.new_page()
    page.goto(site + path)
    page.wait_for_load_state()
    return page


def _sideways(page: Any) -> int:
    return page.evaluate("document.documentElement.scrollWidth") - NARROW["width"]


def _landing_picture(browser: Any, site: str, client: Client, match: Match, tmp_path: Path) -> int:
    """The landing page's picture of a table (static/img/table-karnoffel.png, 1280 x 903): one screen of a wide
    desktop, drawn at 0.8 so that the trick and the hand both fit."""
    target = LANDING_PICTURE if os.environ.get(SAVE_ENV) == "1" else tmp_path / LANDING_PICTURE.name
    context = browser.new_context(viewport=LANDING_SIZE, device_scale_factor=LANDING_SCALE)
    sign_in_as(context, site, client.cookies["sessionid"].value)
    page = context.new_page()
    page.goto(site + match.get_absolute_url())
    page.wait_for_load_state()
    page.screenshot(path=str(target))
    context.close()
    return target.stat().st_size


@pytest.mark.parametrize("game", sorted(GAMES))
def test_it_draws_each_table_as_cards_round_the_reader_on_a_phone(
    browser, site: str, game: str, tmp_path: Path
) -> None:
    match, client = _mid_play(game)
    page = _phone_page(browser, site, client, match.get_absolute_url())
    assert _sideways(page) <= 0, f"{game}: the table is {_sideways(page)} px wider than a 375 px phone"
    cards = page.locator("[data-card]")
    assert cards.count() > 0, f"{game}: no card drawn"
    suits: dict[str, set[str]] = {}
    for element in cards.element_handles():
        code = element.get_attribute("data-card") or ""
        heard = element.evaluate(SPOKEN)
        assert heard == _spoken_name(game, code), f"{game}: the card {code} is read as {heard!r}"
        drawn = element.evaluate(DRAWN_SUIT)
        if code[-1:] in "CDHS" and len(code) == 2 or game == "renfield":
            assert drawn and drawn != "none", f"{game}: the card {code} has no pip or glyph of its suit"
            suits.setdefault(code[-1] if game != "renfield" else code[0], set()).add(drawn)
    # One shape per suit, and no two suits with the same shape.
    assert all(len(shapes) == 1 for shapes in suits.values()), suits
    assert len({next(iter(shapes)) for shapes in suits.values()}) == len(suits), suits
    # The seats round the trick (Rapscallion: round the centre), the reader at the bottom, the next seat on the left.
    spots = page.locator(".felt .spot")
    assert spots.count() == match.players, f"{game}: {spots.count()} seats round the felt, not {match.players}"
    boxes = {int(s.get_attribute("data-seat") or -1): s.bounding_box() for s in spots.element_handles()}
    assert all(boxes[0]["y"] > box["y"] for seat, box in boxes.items() if seat != 0), f"{game}: you are not lowest"
    if match.players > 2:
        assert boxes[1]["x"] < boxes[0]["x"], f"{game}: the next seat does not sit on your left"
    page.context.close()
    if game == "karnoffel":
        assert 0 < _landing_picture(browser, site, client, match, tmp_path) < SCREENSHOT_MAX_BYTES


def test_it_shows_the_dashboard_on_a_phone_with_deadlines_and_tap_targets_apart(
    browser, site: str, tmp_path: Path
) -> None:
    user = UserFactory(display_name="You")
    matches = [make_match(game, users=[user], level="basic") for game in sorted(GAMES)]
    deadline = timezone.now() + timedelta(hours=5)
    Seat.objects.filter(match=matches[0], user=user).update(awaiting=True, deadline=deadline)
    client = Client()
    client.force_login(user)
    page = _phone_page(browser, site, client, "/")
    assert _sideways(page) <= 0, f"the dashboard is {_sideways(page)} px wider than a 375 px phone"
    shown = page.locator(".awaiting .deadline")
    assert shown.count() == 1 and shown.first.is_visible(), "the deadline of the match on your turn is not shown"
    box = shown.first.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= NARROW["width"] and box["height"] > 0
    assert "Your time runs out" in shown.first.inner_text()
    targets = page.evaluate(TAP_TARGETS)
    assert len(targets) >= 5, targets
    close = [
        (a["what"], b["what"], round(_gap(a, b), 1))
        for a, b in combinations(targets, 2)
        if a["el"] != b["el"] and _gap(a, b) < MIN_GAP_PX
    ]
    assert not close, f"tap targets closer than {MIN_GAP_PX} px on a phone: {close}"
    size = table_screenshot(page, screenshot_dir(tmp_path) / "dashboard-phone.png", screens=2)
    assert 0 < size < SCREENSHOT_MAX_BYTES
    page.context.close()


def _gap(a: dict[str, float], b: dict[str, float]) -> float:
    """The distance between two boxes: 0 when they touch or overlap."""
    across = max(b["left"] - a["right"], a["left"] - b["right"], 0)
    down = max(b["top"] - a["bottom"], a["top"] - b["bottom"], 0)
    return float((across**2 + down**2) ** 0.5)
