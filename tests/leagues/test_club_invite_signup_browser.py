"""In a real browser: a newcomer goes from the club invitation mail through sign-up to the club's page.

An organizer's private club mails an invitation; the newcomer opens the link from the mail file the app
wrote in a browser of their own, signs up, confirms the address from allauth's mail (logging in if asked)
and lands on the club's page as a member, without following the invitation link again.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from games.models import Mail
from leagues.clubs import club_invite
from leagues.models import Membership
from tests.games.browser_helpers import BROWSER_MARKS, DESKTOP, STEP_TIMEOUT_MS, confirmation_link
from tests.games.factories import PASSWORD
from tests.leagues.factories import UserFactory, make_club

playwright_sync = pytest.importorskip("playwright.sync_api", reason="the browser tests need the playwright package")

pytestmark = BROWSER_MARKS

NEWCOMER = "nora.newcomer@example.com"
CLUB_LINK = re.compile(r"https?://\S+?/leagues/invite/[^/\s]+/")


def _invitation_path() -> str:
    mails = list(Mail.objects.filter(recipient=NEWCOMER))
    assert len(mails) == 1, f"expected one club invitation mail to {NEWCOMER}, found {[m.subject for m in mails]}"
    found = CLUB_LINK.search(mails[0].body)
    assert found, f"the invitation mail holds no club link: {mails[0].body}"
    return urlsplit(found.group(0)).path


def test_it_takes_a_newcomer_from_the_club_invitation_mail_through_sign_up_to_the_club(browser, site: str) -> None:
    organizer = UserFactory(display_name="Olive")
    club = make_club(organizer=organizer, public=False, name="Lantern Club")
    club_invite(club=club, actor=organizer, email=NEWCOMER)
    invitation = _invitation_path()

    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    page.goto(f"{site}{invitation}")
    assert "Join Lantern Club" in page.locator("main").inner_text()
    page.locator("main").get_by_role("link", name="sign up", exact=True).click()
    page.wait_for_url("**/accounts/signup/**")
    if not page.locator("input[name=email]").input_value():
        page.fill("input[name=email]", NEWCOMER)
    page.fill("input[name=display_name]", "Nora")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_url(lambda url: "/accounts/signup/" not in url)
    assert not Membership.objects.filter(club=club, user__email=NEWCOMER).exists()

    page.goto(confirmation_link(NEWCOMER))
    page.wait_for_url(lambda url: "/accounts/confirm-email/" not in url)
    if "/accounts/login/" in page.url:  # mandatory verification asks for the password once
        assert page.locator("input[name=login]").input_value() == NEWCOMER, "the login must hold the address"
        page.fill("input[name=password]", PASSWORD)
        page.locator("main form button[type=submit]").first.click()
    page.wait_for_url(f"**/leagues/c/{club.slug}/")
    assert "Welcome to Lantern Club" in page.locator("body").inner_text()
    membership = Membership.objects.get(club=club, user__email=NEWCOMER)
    assert membership.role == Membership.Role.PLAYER
    assert club.invitations.get().accepted_by == membership.user
    context.close()
