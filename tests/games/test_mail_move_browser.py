"""A move from the mail in a real browser: from the mail file the app wrote, through the confirm page, to the move.

The test client sends no ``Origin`` header, so a confirm page whose referrer policy made chromium send
``Origin: null`` (and Django's CSRF check answer 403) passed every other test. Here the app writes the
turn mail to a file as ``make run`` does, the test reads the link out of that file, and chromium opens
it and confirms, once without a session and once signed in as the seat's player.
"""

from __future__ import annotations

import email
import email.policy
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client, override_settings
from django.utils import timezone

from games import tasks
from games.models import Mail, Match, Move
from tests.games.browser_helpers import BROWSER_MARKS, STEP_TIMEOUT_MS, sign_in_as
from tests.games.factories import UserFactory, make_match

playwright_sync = pytest.importorskip("playwright.sync_api", reason="the browser tests need the playwright package")

pytestmark = BROWSER_MARKS

MOVE_LINK = re.compile(r"https?://[^\s\"<>]+/mail/move/[^/\s\"<>]+/")
# Django's file mailer separates the messages of one file with a line of 79 dashes.
SEPARATOR = "\n" + "-" * 79 + "\n"


def _turn_mail_file(match: Match, mail_dir: Path) -> tuple[Mail, str]:
    """Send the turn mail of the seat to act, its grace period cut short, and read it back from the file written."""
    mail = Mail.objects.get(match=match, turn_version=match.version)
    Mail.objects.filter(pk=mail.pk).update(send_after=timezone.now())
    tasks.mail_send.apply(args=[mail.pk])
    mail.refresh_from_db()
    assert mail.status == Mail.Status.SENT, mail.last_error
    files = sorted(mail_dir.glob("*.log"))
    assert files, f"the app wrote no mail file to {mail_dir}"
    messages = [m for f in files for m in f.read_text().split(SEPARATOR) if m.strip()]
    assert len(messages) == 1, f"expected the one turn mail, found {len(messages)} messages"
    return mail, _text_part(messages[0])


def _text_part(raw: str) -> str:
    message = email.message_from_string(raw, policy=email.policy.default)
    for part in message.walk():
        if part.get_content_type() == "text/plain":
            return str(part.get_content())  # type: ignore[attr-defined]  # an EmailMessage under the default policy
    raise AssertionError("the turn mail has no text part")


@pytest.mark.parametrize("signed_in", [False, True], ids=["logged-out", "logged-in"])
def test_a_move_link_from_the_mail_file_is_confirmed_in_chromium(
    browser: Any,
    site: str,
    tmp_path: Path,
    signed_in: bool,
) -> None:
    mail_dir = tmp_path / "mail"
    mailers = {
        "default": {
            "BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "OPTIONS": {"file_path": str(mail_dir)},
        }
    }
    with override_settings(MAILERS=mailers, SITE_URL=site):
        users = [UserFactory(auto_forced_moves=False) for _ in range(4)]
        match = make_match("karnoffel", users=users)
        mail, text = _turn_mail_file(match, mail_dir)
    links = MOVE_LINK.findall(text)
    assert links, f"the turn mail has no move link:\n{text}"
    assert all(link.startswith(site) for link in links), "the mail's links point at the site's address"
    seat, version = mail.seat_number, match.version

    context = browser.new_context()
    try:
        if signed_in:
            client = Client()
            client.force_login(users[seat])
            sign_in_as(context, site, client.session.session_key)
        page = context.new_page()
        page.goto(links[0])
        assert Move.objects.filter(match=match).count() == version, "opening the link changed nothing"
        confirm = page.get_by_role("button", name=re.compile(r"^Confirm"))
        confirm.click(timeout=STEP_TIMEOUT_MS)
        page.get_by_text("Your move is made").wait_for(timeout=STEP_TIMEOUT_MS)
        assert "verification failed" not in page.content()
    finally:
        context.close()

    move = Move.objects.get(match=match, ply=version)
    assert move.seat == seat and move.kind == Move.Kind.PLAYER
    match.refresh_from_db()
    assert match.version > version
