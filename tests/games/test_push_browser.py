"""The profile's browser-notification switch in chromium: only the button that applies to this browser shows.

Chromium's test contexts are incognito, where the Push API refuses to subscribe (crbug.com/41124656), and a
headless browser has no push service to reach anyway. So where a test needs a subscription, a script that
runs before the page's stands in for the browser's ``PushManager`` (subscribe, getSubscription and
unsubscribe, remembered in localStorage); everything else is the real page: the service worker registered,
the permission asked, push.js posting to the server and the server's answers shown.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.models import PushSubscription
from games.push import OTHER_ACCOUNT
from tests.games.browser_helpers import BROWSER_MARKS, DESKTOP, STEP_TIMEOUT_MS, sign_in_as
from tests.games.factories import UserFactory
from tests.games.push_service import Browser, PushService, vapid_keys

playwright_sync = pytest.importorskip("playwright.sync_api", reason="the browser tests need the playwright package")

pytestmark = BROWSER_MARKS

ON = "#push-notices [data-push-on]"
OFF = "#push-notices [data-push-off]"
STATUS = "#push-notices [data-push-status]"
# Stands in for the browser's push subscription (see the module's docstring); the page cannot tell.
FAKE_PUSH = """
(() => {
  const fake = %s;
  const stored = "test-push-subscription";
  const make = () => ({
    endpoint: fake.endpoint,
    toJSON: () => ({ endpoint: fake.endpoint, expirationTime: null, keys: fake.keys }),
    unsubscribe: async () => { localStorage.removeItem(stored); return true; },
  });
  PushManager.prototype.subscribe = async function () { localStorage.setItem(stored, "1"); return make(); };
  PushManager.prototype.getSubscription = async function () { return localStorage.getItem(stored) ? make() : null; };
})();
"""
ENDPOINT = PushService.endpoint("/fcm/send/browser-test")


@pytest.fixture
def keys(settings: Any) -> str:
    private, public = vapid_keys()
    settings.WEBPUSH_VAPID_PRIVATE_KEY, settings.WEBPUSH_VAPID_PUBLIC_KEY = private, public
    settings.WEBPUSH_ENABLED = True
    return public


def _profile(
    browser: Any,
    site: str,
    user: User,
    *,
    permissions: list[str],
    script: str = "",
) -> Any:
    context = browser.new_context(viewport=DESKTOP, permissions=permissions)
    client = Client()
    client.force_login(user)
    sign_in_as(context, site, client.cookies["sessionid"].value)
    if script:
        context.add_init_script(script)
    page = context.new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    page.goto(f"{site}/me/")
    page.locator(STATUS).filter(has_text="browser").wait_for()  # push.js has decided
    return page


def _fake_browser() -> str:
    return FAKE_PUSH % json.dumps({"endpoint": ENDPOINT, "keys": Browser(ENDPOINT).keys()})


def _shown(page: Any) -> tuple[bool, bool]:
    return page.locator(ON).is_visible(), page.locator(OFF).is_visible()


def test_without_a_key_neither_button_shows(browser: Any, site: str, settings: Any) -> None:
    settings.WEBPUSH_VAPID_PRIVATE_KEY = settings.WEBPUSH_VAPID_PUBLIC_KEY = ""
    page = _profile(browser, site, UserFactory(), permissions=["notifications"])
    assert page.locator(STATUS).inner_text() == "Browser notifications are not available on this site."
    assert page.locator("#push-notices button").count() == 0
    page.context.close()


def test_a_browser_not_yet_subscribed_shows_only_the_on_button(browser: Any, site: str, keys: str) -> None:
    page = _profile(browser, site, UserFactory(), permissions=["notifications"])
    assert _shown(page) == (True, False)
    assert page.locator(STATUS).inner_text() == "Browser notifications are off in this browser."
    page.context.close()


def test_a_browser_that_blocks_notifications_shows_neither_button(browser: Any, site: str, keys: str) -> None:
    page = _profile(browser, site, UserFactory(), permissions=[])  # headless chromium denies what is not granted
    assert page.evaluate("Notification.permission") == "denied"
    assert _shown(page) == (False, False)
    assert "allow them in its site settings" in page.locator(STATUS).inner_text()
    page.context.close()


def test_a_browser_without_the_push_api_shows_neither_button(browser: Any, site: str, keys: str) -> None:
    page = _profile(browser, site, UserFactory(), permissions=["notifications"], script="delete window.PushManager;")
    assert _shown(page) == (False, False)
    assert page.locator(STATUS).inner_text() == "This browser cannot show notifications from a site."
    page.context.close()


def test_turning_on_shows_only_off_and_turning_off_shows_only_on(browser: Any, site: str, keys: str) -> None:
    user = UserFactory()
    page = _profile(browser, site, user, permissions=["notifications"], script=_fake_browser())
    assert _shown(page) == (True, False)
    page.locator(ON).click()
    page.locator(STATUS).filter(has_text="Browser notifications are on in this browser.").wait_for()
    assert _shown(page) == (False, True)
    assert list(PushSubscription.objects.values_list("user", "endpoint")) == [(user.pk, ENDPOINT)]
    assert page.evaluate("navigator.serviceWorker.getRegistration('/').then((r) => Boolean(r))")
    page.reload()
    page.locator(STATUS).filter(has_text="Browser notifications are on in this browser.").wait_for()
    assert _shown(page) == (False, True)  # the server lists this browser as the player's
    page.locator(OFF).click()
    page.locator(STATUS).filter(has_text="Browser notifications are off in this browser.").wait_for()
    assert _shown(page) == (True, False) and not PushSubscription.objects.exists()
    page.context.close()


def test_a_browser_subscribed_for_another_account_is_not_on_for_this_one(browser: Any, site: str, keys: str) -> None:
    """A shared computer: the browser holds the owner's subscription; another player sees "on" and is refused."""
    owner, other = UserFactory(), UserFactory()
    page = _profile(browser, site, owner, permissions=["notifications"], script=_fake_browser())
    page.locator(ON).click()
    page.locator(OFF).wait_for()
    storage = page.context.storage_state()
    page.context.close()

    context = browser.new_context(viewport=DESKTOP, permissions=["notifications"], storage_state=storage)
    client = Client()
    client.force_login(other)
    sign_in_as(context, site, client.cookies["sessionid"].value)
    context.add_init_script(_fake_browser())
    page = context.new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    page.goto(f"{site}/me/")
    page.locator(STATUS).filter(has_text="browser").wait_for()
    assert page.evaluate("localStorage.getItem('test-push-subscription')") == "1"  # the browser is subscribed
    assert _shown(page) == (True, False)  # but not for this player
    page.locator(ON).click()
    page.locator(STATUS).filter(has_text=OTHER_ACCOUNT).wait_for()
    assert _shown(page) == (True, False)
    assert page.evaluate("localStorage.getItem('test-push-subscription')") == "1"  # the owner's stays subscribed
    assert list(PushSubscription.objects.values_list("user", flat=True)) == [owner.pk]
    context.close()
