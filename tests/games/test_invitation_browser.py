"""In a real browser: a brand-new player goes from the invitation mail to their first move.

A logged-in creator makes a Karnoffel match on the new-match form with one seat invited by email and two
bots. The invitee opens the mailed link in a browser of their own, reads who invites them to what, signs
up with the address filled in, confirms it from allauth's mail, logs in, takes the seat and plays a card.
``PARLOUR_SAVE_SCREENSHOTS=1`` also writes the filled-in form to docs/screenshots/new-match-desktop.png.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.test import Client

from games.models import Mail, Match, Move
from games.services import SeatSpec, match_create, move_submit
from tests.games.browser_helpers import (
    BROWSER_MARKS,
    DESKTOP,
    MOVE_BUTTON,
    SCREENSHOT_MAX_BYTES,
    STEP_TIMEOUT_MS,
    choose_game,
    confirmation_link,
    play_one_move,
    refused_move,
    screenshot_dir,
    sign_in_as,
    table_screenshot,
    wait_for_turn_or_end,
)
from tests.games.factories import PASSWORD, UserFactory

playwright_sync = pytest.importorskip("playwright.sync_api", reason="the browser tests need the playwright package")

pytestmark = BROWSER_MARKS

INVITE_LINK = re.compile(r"https?://\S+?/invite/[^/\s]+/")
NEWCOMER = "nell.newcomer@example.com"
# Karnoffel's four seats: the creator's, the invitee's and two bots. The creator's turns are played server-side,
# as if from their own browser, so the walk reaches the invitee's turn whoever leads.
INVITED_SEAT = 1
MAX_OTHER_MOVES = 40
MAX_OWN_MOVES = 500
CLOCK = "fischer-24-4-72"


def _create_with_an_invitation(page: playwright_sync.Page, site: str, shots: Path) -> Match:
    page.goto(f"{site}/new/")
    form = page.locator("form.create-form")
    choose_game(page, "karnoffel")
    form.locator("select[name=time_control]").select_option(CLOCK)
    form.locator("select[name=seat_1_kind]").select_option("email")
    email = form.locator("input[name=seat_1_email]")
    email.wait_for(state="visible")  # the row shows the address field once "Invite by email" is chosen
    email.fill(NEWCOMER)
    email.blur()  # the picture shows the address from its start, without the focus ring
    for number in (2, 3):
        form.locator(f"select[name=seat_{number}_kind]").select_option("bot")
    assert form.locator("select[name=seat_1_level]").is_hidden(), "an invited seat must not show a bot level"
    size = table_screenshot(page, shots / "new-match-desktop.png")
    assert 0 < size < SCREENSHOT_MAX_BYTES, f"new-match-desktop.png is {size} bytes, over the 300 KB budget"
    form.locator("button[type=submit].primary").click()
    page.wait_for_url("**/m/*/")
    return Match.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))


def _invitation_path(address: str) -> str:
    """The seat link from the invitation mail in the outbox, as a path (the mail names the site's address)."""
    mails = list(Mail.objects.filter(recipient=address))
    assert len(mails) == 1, f"expected one invitation mail to {address}, found {[m.subject for m in mails]}"
    found = INVITE_LINK.search(mails[0].body)
    assert found, f"the invitation mail holds no seat link: {mails[0].body}"
    return urlsplit(found.group(0)).path


def _play_others_until_the_invitee_acts(match: Match) -> None:
    """Bots have played inline; the creator's turns are answered here until seat 2 is to act."""
    for _ in range(MAX_OTHER_MOVES):
        match.refresh_from_db()
        assert match.status == Match.Status.ACTIVE, f"the match is {match.status} before the invitee moved"
        acting = match.engine.to_act(match.state)
        if INVITED_SEAT in acting:
            return
        assert 0 in acting, f"seats {acting} are to act, but only the creator's and the invitee's are human"
        action = match.engine.legal_actions(match.state, 0)[0]
        move_submit(match=match, user=match.created_by, seat=0, action=action, version=match.version)
    raise AssertionError(f"the invitee was not to act after {MAX_OTHER_MOVES} moves of the creator")


def test_a_brand_new_player_goes_from_the_invitation_mail_to_the_first_move(browser, site: str, tmp_path) -> None:
    creator = UserFactory(display_name="Dora")
    signed_in = Client()
    signed_in.force_login(creator)
    creating = browser.new_context(viewport=DESKTOP)
    sign_in_as(creating, site, signed_in.cookies["sessionid"].value)
    creator_page = creating.new_page()
    creator_page.set_default_timeout(STEP_TIMEOUT_MS)
    match = _create_with_an_invitation(creator_page, site, screenshot_dir(tmp_path))
    creating.close()
    assert match.status == Match.Status.WAITING and match.created_by == creator
    assert match.time_control is not None, "the clock chosen on the form is lost"
    seats = list(match.seats.order_by("number"))
    assert [s.is_bot for s in seats] == [False, False, True, True]
    assert seats[INVITED_SEAT].invite_email == NEWCOMER and seats[INVITED_SEAT].user is None

    # The newcomer, logged out in a browser of their own, follows the mailed link.
    invitation = _invitation_path(NEWCOMER)
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    page.goto(f"{site}{invitation}")
    text = page.locator("section.invite").inner_text()
    assert "“Dora” invites you to seat 2 of a 4-player match of Karnoffel" in text, text

    page.get_by_role("link", name="Sign up and take the seat").click()
    page.wait_for_url("**/accounts/signup/**")
    assert page.locator("input[name=email]").input_value() == NEWCOMER, "the sign-up form must hold the address"
    assert "“Dora”" in page.locator("main").inner_text(), "the sign-up page must still say who invites"
    page.fill("input[name=display_name]", "Nell")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_url(lambda url: "/accounts/signup/" not in url)

    # The confirmation link from allauth's mail; mandatory verification then asks for the password once.
    page.goto(confirmation_link(NEWCOMER))
    if page.locator("input[name=password]").count():
        assert page.locator("input[name=login]").input_value() == NEWCOMER
        page.fill("input[name=password]", PASSWORD)
        page.locator("main form button[type=submit]").first.click()
    page.wait_for_url(f"**{invitation}")
    page.get_by_role("button", name="Take the seat").click()
    page.wait_for_url(f"**{match.get_absolute_url()}")

    seat = match.seats.get(number=INVITED_SEAT)
    assert seat.joined and seat.user is not None and seat.user.email == NEWCOMER
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE, "the match must start once the last seat is taken"

    _play_others_until_the_invitee_acts(match)
    # The table's poll brings the invitee's turn; they click a legal card.
    assert not wait_for_turn_or_end(page), "the match ended before the invitee's first move"
    card = page.locator(MOVE_BUTTON).first.inner_text().strip()
    play_one_move(page)
    assert refused_move(page) is None, f"the app refused the invitee's first move: {refused_move(page)}"

    moves = Move.objects.filter(match=match, seat=INVITED_SEAT, kind=Move.Kind.PLAYER)
    assert page.locator("section.clocks").count() == 1, "a match on a clock shows the clocks"
    assert moves.count() == 1, f"expected the invitee's one move, found {list(moves.values('ply', 'text'))}"
    move = moves.get()
    line = page.locator(f"#log-lines > li[data-key='{move.ply + 1}']")
    assert "Nell" in line.inner_text() and move.text in line.inner_text(), (card, line.inner_text())
    context.close()


# --- a finished table with clocks, for the README -----------------------------------------------------


def test_a_finished_table_with_clocks_shows_the_result(browser, site: str, tmp_path) -> None:
    """Rapscallion to the end: the result table and the showdown, pictured for the README."""
    player = UserFactory(display_name="You")
    seats = [SeatSpec(user=player), SeatSpec(bot="basic"), SeatSpec(bot="basic")]
    match = match_create(
        game="rapscallion",
        players=3,
        options=None,
        created_by=player,
        seats=seats,
    )
    for _ in range(MAX_OWN_MOVES):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        action = match.engine.legal_actions(match.state, 0)[0]
        move_submit(match=match, user=player, seat=0, action=action, version=match.version)
    assert match.status == Match.Status.FINISHED, f"the match did not end within {MAX_OWN_MOVES} moves"
    signed_in = Client()
    signed_in.force_login(player)
    context = browser.new_context(viewport=DESKTOP)
    sign_in_as(context, site, signed_in.cookies["sessionid"].value)
    page = context.new_page()
    page.goto(f"{site}{match.get_absolute_url()}")
    panel = page.locator("#turn-panel").inner_text()
    assert "The match is over." in panel and "Final standings" in panel, panel
    assert page.locator("table.result-table").count() == 1, "the result is not a table"
    assert page.locator("#turn-panel form.actions").count() == 0, "a finished match must offer no moves"
    size = table_screenshot(page, screenshot_dir(tmp_path) / "rapscallion-finished-desktop.png", screens=1)
    context.close()
    assert 0 < size < SCREENSHOT_MAX_BYTES, f"rapscallion-finished-desktop.png is {size} bytes, over the 300 KB budget"
