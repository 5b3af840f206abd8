"""Web Push: a turn notice goes to the player's browsers under the turn mail's rules, and decrypts to what we sent."""

from __future__ import annotations

import binascii
import json
import logging
from collections.abc import Iterator
from datetime import timedelta
from typing import Any
from unittest import mock
from urllib.parse import urlsplit

import pytest
import requests
from django.conf import settings as django_settings
from django.core import mail as django_mail
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pywebpush import WebPushException
from requests.adapters import HTTPAdapter
from urllib3.util import parse_url

from accounts.models import User
from games import tasks
from games.models import Mail, Match, PushSubscription
from games.notify import notice_test
from games.push import DEFAULT_PUSH_HOSTS, OTHER_ACCOUNT, endpoint_allowed
from tests.games.conftest import login
from tests.games.factories import UserFactory, game_names, make_match
from tests.games.push_service import PUSH_HOST, Browser, PushService, vapid_keys

pytestmark = pytest.mark.django_db
GAME = game_names()[0]


@pytest.fixture
def vapid(settings) -> dict[str, str]:
    private, public = vapid_keys()
    settings.WEBPUSH_VAPID_PRIVATE_KEY, settings.WEBPUSH_VAPID_PUBLIC_KEY = private, public
    settings.WEBPUSH_VAPID_SUBJECT = "mailto:admin@example.com"
    settings.WEBPUSH_ENABLED = True
    return {"private": private, "public": public}


@pytest.fixture
def service(monkeypatch: pytest.MonkeyPatch) -> Iterator[PushService]:
    """The test push service, reached by every request for ``PUSH_HOST``; no request leaves this machine."""
    running = PushService()
    real_send = HTTPAdapter.send

    def send(adapter: HTTPAdapter, request: requests.PreparedRequest, *args: Any, **kwargs: Any) -> Any:
        parts = urlsplit(request.url or "")
        if parts.hostname == PUSH_HOST:
            request.url = running.url + parts.path + (f"?{parts.query}" if parts.query else "")
        elif parts.hostname != "127.0.0.1":
            raise AssertionError(f"A test push went out to {request.url}")
        return real_send(adapter, request, *args, **kwargs)

    monkeypatch.setattr(HTTPAdapter, "send", send)
    try:
        yield running
    finally:
        running.close()


def _turn_mail_due(notify_by: str, browser: Browser | None) -> tuple[Match, Mail, User]:
    """A match whose first seat's player chose ``notify_by``; their turn mail is past its grace period."""
    players = [UserFactory(notify_by=notify_by, auto_forced_moves=False)]
    players += [UserFactory(auto_forced_moves=False) for _ in range(Match(game=GAME).engine.MIN_PLAYERS - 1)]
    match = make_match(GAME, users=players)
    to_act = match.engine.to_act(match.state)[0]
    player = match.seats.get(number=to_act).user
    if browser is not None:
        browser.subscribe(player)
    mail = Mail.objects.get(dedupe_key=f"turn:{match.pk}:{to_act}:{match.version}")
    Mail.objects.filter(pk=mail.pk).update(send_after=timezone.now() - timedelta(seconds=1))
    if player.pk != players[0].pk:  # the choice belongs to whoever is to act
        User.objects.filter(pk=player.pk).update(notify_by=notify_by)
    return match, mail, player


def test_a_turn_push_reaches_the_test_endpoint_and_decrypts_to_the_payload(vapid, service) -> None:
    browser = Browser(service.endpoint("/push/abc"))
    match, mail, _player = _turn_mail_due(User.NotifyBy.PUSH, browser)
    assert tasks.mail_send.apply(args=[mail.pk]).get() is False
    assert len(service.received) == 1
    path, headers, body = service.received[0]
    assert path == "/push/abc" and headers["content-encoding"] == "aes128gcm"
    assert headers["authorization"].startswith("vapid t=") and f"k={vapid['public']}" in headers["authorization"]
    table = django_settings.SITE_URL.rstrip("/") + match.get_absolute_url()
    assert browser.decrypt(body) == {
        "title": f"Your turn at {match.title} #{match.pk}",
        "body": "It is your turn.",
        "url": table,
        "tag": f"turn-{match.pk}",
    }
    mail.refresh_from_db()
    assert mail.status == Mail.Status.CANCELLED and "push" in mail.last_error
    assert django_mail.outbox == []  # push only: no mail


def test_both_sends_the_mail_and_the_push(vapid, service) -> None:
    _match, mail, player = _turn_mail_due(User.NotifyBy.BOTH, Browser(service.endpoint("/p")))
    assert tasks.mail_send.apply(args=[mail.pk]).get() is True
    assert len(service.received) == 1 and [m.to for m in django_mail.outbox] == [[player.email]]


def test_mail_only_sends_no_push(vapid, service) -> None:
    _match, mail, _player = _turn_mail_due(User.NotifyBy.MAIL, Browser(service.endpoint("/p")))
    assert tasks.mail_send.apply(args=[mail.pk]).get() is True
    assert service.received == [] and len(django_mail.outbox) == 1


def test_no_push_while_the_player_is_at_the_table(vapid, service) -> None:
    """The same rule as the mail: a player seen at the table since the turn began gets neither."""
    match, mail, player = _turn_mail_due(User.NotifyBy.BOTH, Browser(service.endpoint("/p")))
    match.seats.filter(user=player).update(last_seen=timezone.now())
    assert tasks.mail_send.apply(args=[mail.pk]).get() is False
    assert service.received == [] and django_mail.outbox == []


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_gone_for_good_is_deleted_and_the_mail_goes_instead(vapid, service, status: int) -> None:
    service.status = status
    _match, mail, player = _turn_mail_due(User.NotifyBy.PUSH, Browser(service.endpoint("/gone")))
    assert tasks.mail_send.apply(args=[mail.pk]).get() is True  # no browser took it: the mail goes
    assert len(service.received) == 1
    assert not PushSubscription.objects.filter(user=player).exists()
    assert [m.to for m in django_mail.outbox] == [[player.email]]


def test_a_passing_failure_keeps_the_subscription(vapid, service) -> None:
    service.status = 500
    _match, mail, player = _turn_mail_due(User.NotifyBy.BOTH, Browser(service.endpoint("/busy")))
    assert tasks.mail_send.apply(args=[mail.pk]).get() is True
    assert PushSubscription.objects.filter(user=player).count() == 1


def test_without_vapid_keys_nothing_is_pushed_and_the_mail_goes(settings, service) -> None:
    settings.WEBPUSH_VAPID_PRIVATE_KEY = ""
    _match, mail, _player = _turn_mail_due(User.NotifyBy.PUSH, Browser(service.endpoint("/p")))
    assert tasks.mail_send.apply(args=[mail.pk]).get() is True
    assert service.received == [] and len(django_mail.outbox) == 1


# --- subscribing from the profile ------------------------------------------------------


def _subscription(endpoint: str = "https://fcm.googleapis.com/fcm/send/abc123") -> dict[str, Any]:
    return {"endpoint": endpoint, "keys": Browser(endpoint).keys()}


def _post(client: Client, data: Any) -> Any:
    return client.post(reverse("games-push-subscription"), json.dumps(data), content_type="application/json")


def test_a_player_subscribes_and_unsubscribes_a_browser(vapid) -> None:
    user = UserFactory()
    client = login(user)
    response = _post(client, _subscription())
    assert response.status_code == 200 and response.json()["ok"]
    assert PushSubscription.objects.filter(user=user).count() == 1
    assert _post(client, _subscription()).status_code == 200  # the same browser again: still one row
    assert PushSubscription.objects.filter(user=user).count() == 1
    assert _post(client, {"unsubscribe": True, "endpoint": _subscription()["endpoint"]}).status_code == 200
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://fcm.googleapis.com/x",
        "https://127.0.0.1/push",
        "https://internal.example.com/",
        "https://evilfcm.googleapis.com.example/",
    ],
)
def test_a_subscription_to_anything_but_a_browser_push_service_is_refused(vapid, endpoint: str) -> None:
    """Else the server could be made to post to any address, its own network included."""
    response = _post(login(UserFactory()), _subscription(endpoint))
    assert response.status_code == 400 and not response.json()["ok"]
    assert not PushSubscription.objects.exists()


def test_bad_keys_and_visitors_are_refused(vapid) -> None:
    data = _subscription()
    data["keys"]["auth"] = "not base64!"
    assert _post(login(UserFactory()), data).status_code == 400
    assert _post(Client(), _subscription()).status_code == 302  # to the login page
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        b"{",  # not JSON
        b"\x80\xff{}",  # not UTF-8
        b'{"endpoint": ' + b"1" * 5000 + b"}",  # a number past Python's digits for an int
        b"[" * 100_000 + b"]" * 100_000,  # nested past Python's recursion limit
        b"[" * 2048 + b"]" * 2048,  # as deep as fits the body read (past the C recursion limit of some Pythons)
    ],
    ids=["not-json", "not-utf8", "long-number", "deep-nesting", "deep-nesting-within-the-cap"],
)
def test_a_body_that_is_not_readable_json_is_refused_with_a_sentence(vapid, body: bytes) -> None:
    client = login(UserFactory())
    response = client.post(reverse("games-push-subscription"), body, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {"ok": False, "message": "Your browser sent a subscription this site cannot read."}
    assert not PushSubscription.objects.exists()


def test_a_subscription_with_the_longest_endpoint_still_fits_the_body_read(vapid) -> None:
    endpoint = "https://fcm.googleapis.com/fcm/send/"
    data = _subscription(endpoint + "a" * (1000 - len(endpoint))) | {"expirationTime": None}
    user = UserFactory()
    assert _post(login(user), data).status_code == 200
    assert PushSubscription.objects.get().user == user


def test_the_service_worker_is_served_from_the_root() -> None:
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript") and response["Service-Worker-Allowed"] == "/"
    assert b"notificationclick" in response.content and b"showNotification" in response.content


# --- the choice and the test notice on the profile ---------------------------------------


def test_the_profile_offers_the_choice_and_the_browser_switch(vapid) -> None:
    user = UserFactory()
    client = login(user)
    page = client.get(reverse("accounts-profile")).content.decode()
    assert 'name="notify_by"' in page and f'data-key="{vapid["public"]}"' in page and "js/push.js" in page
    form = {"display_name": "Ann", "time_zone": "UTC", "notify": User.Notify.EACH_TURN, "notify_by": User.NotifyBy.BOTH}
    assert client.post(reverse("accounts-profile"), {**form, "auto_forced_moves": "on"}).status_code == 302
    user.refresh_from_db()
    assert user.notify_by == User.NotifyBy.BOTH


def test_the_test_notice_goes_the_chosen_way_and_not_too_often(vapid, service) -> None:
    cache.clear()
    user = UserFactory(notify_by=User.NotifyBy.BOTH)
    Browser(service.endpoint("/t")).subscribe(user)
    client = login(user)
    response = client.post(reverse("games-notice-test"), follow=True)
    assert "Test notice sent" in response.content.decode()
    assert len(service.received) == 1 and Mail.objects.filter(dedupe_key__startswith="notice-test:").count() == 1
    again = client.post(reverse("games-notice-test"), follow=True)
    assert "a moment ago" in again.content.decode()
    assert len(service.received) == 1 and Mail.objects.filter(dedupe_key__startswith="notice-test:").count() == 1


# --- where a push may go ----------------------------------------------------------------

# Each is read one way by urllib.parse and another by urllib3 (which requests, and so pywebpush, posts
# with), or names something other than a browser's push service: none is stored, none is ever posted to.
CRAFTED = [
    "https://fcm.googleapis.com\\@evil.example/",  # urllib.parse: host evil.example; urllib3: the backslash ends it
    "https://evil.example\\@fcm.googleapis.com/",  # urllib.parse: fcm.googleapis.com; urllib3: evil.example
    "https://fcm.googleapis.com@evil.example/",  # userinfo: the host is evil.example
    "https://user:secret@fcm.googleapis.com/fcm/send/x",
    "https://fcm.googleapis.com:443@evil.example/",
    "https://fcm.googleapis.com#@evil.example/",
    "https://fcm.googleapis.com?@evil.example/",
    "https://fcm.googleapis.com:8443/fcm/send/x",
    "https://fcm.googleapis.com:0443/fcm/send/x",
    "https://fcm.googleapis.com:443:80/fcm/send/x",
    "https://fcm.googleapis.com./fcm/send/x",  # a trailing dot
    "https://fcm.googleapis.com%2eevil.example/",
    "https://fcm.googleapis\n.com/fcm/send/x",  # urllib.parse drops the line break, urllib3 does not
    "https://fcm.googleapis.com\t.evil.example/",
    "https://fcm.googleapis.com /x",
    "https://fcm.googleapis.com/fcm send/x",
    "https://\uff46cm.googleapis.com/fcm/send/x",  # a full-width f, which IDNA folds into fcm
    "http://fcm.googleapis.com/fcm/send/x",
    "https:fcm.googleapis.com/fcm/send/x",
    "https:///fcm.googleapis.com/fcm/send/x",
    "//fcm.googleapis.com/fcm/send/x",
    "https://127.0.0.1/push",
    "https://[::1]/push",
    "https://internal.example.com/",
    "https://evilfcm.googleapis.com/x",
    "https://fcm.googleapis.com.evil.example/",
]
VALID = [
    "https://fcm.googleapis.com/fcm/send/dE4b:APA91bH-x_y",
    "https://fcm.googleapis.com:443/fcm/send/abc",
    "https://FCM.googleapis.com/fcm/send/abc",
    "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk-x_Y",
    "https://web.push.apple.com/QGu3f-1aB_c",
    "https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB%2bx%3d",
]


@pytest.mark.parametrize("endpoint", CRAFTED)
def test_a_crafted_endpoint_is_refused_at_subscribe(vapid, endpoint: str) -> None:
    response = _post(login(UserFactory()), _subscription(endpoint))
    assert response.status_code == 400
    assert response.json() == {"ok": False, "message": "Your browser's push service is not one this site can send to."}
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize("endpoint", CRAFTED)
def test_a_crafted_endpoint_stored_another_way_is_never_posted_to(vapid, endpoint: str) -> None:
    """A row from the admin, a script or an older check: the sender checks again, and the mail goes instead."""
    _match, mail, player = _turn_mail_due(User.NotifyBy.PUSH, Browser(endpoint))
    with mock.patch("games.push.webpush") as webpush:
        assert tasks.mail_send.apply(args=[mail.pk]).get() is True
    webpush.assert_not_called()
    assert not PushSubscription.objects.filter(user=player).exists()
    mail.refresh_from_db()
    assert mail.status == Mail.Status.SENT


@pytest.mark.parametrize("endpoint", VALID)
def test_a_push_services_endpoint_is_taken_and_posted_to(vapid, endpoint: str) -> None:
    user = UserFactory(notify_by=User.NotifyBy.PUSH)
    assert _post(login(user), _subscription(endpoint)).status_code == 200
    with mock.patch("games.push.webpush") as webpush:
        assert notice_test(user=user) == "Test notice sent: a browser notification to 1 browser."
    assert webpush.call_args.args[0]["endpoint"] == endpoint


@pytest.mark.parametrize("endpoint", VALID)
def test_every_parser_reads_an_accepted_endpoint_the_same_way(endpoint: str) -> None:
    """The check's reading is the sender's: the standard library, urllib3 and requests name one host."""
    assert endpoint_allowed(endpoint)
    host = urlsplit(endpoint).hostname
    assert host == (parse_url(endpoint).host or "").lower()
    assert host == urlsplit(requests.Request("POST", endpoint).prepare().url).hostname
    assert {urlsplit(endpoint).port, parse_url(endpoint).port} <= {None, 443}
    assert any(host == name or (host or "").endswith("." + name) for name in DEFAULT_PUSH_HOSTS)


@pytest.mark.parametrize("endpoint", CRAFTED)
def test_the_check_refuses_each_crafted_endpoint(endpoint: str) -> None:
    assert not endpoint_allowed(endpoint)


def test_a_push_service_that_redirects_is_not_followed(vapid, service) -> None:
    """A redirect would aim the server's post at another address: it counts as a failed push."""
    elsewhere = PushService()
    try:
        service.status, service.location = 307, f"{elsewhere.url}/stolen"
        _match, mail, player = _turn_mail_due(User.NotifyBy.PUSH, Browser(service.endpoint("/moved")))
        assert tasks.mail_send.apply(args=[mail.pk]).get() is True  # no browser took it: the mail goes
        assert len(service.received) == 1 and elsewhere.received == []
        assert [m.to for m in django_mail.outbox] == [[player.email]]
    finally:
        elsewhere.close()


# --- whatever the push library raises ---------------------------------------------------------------

LIBRARY_ERRORS = [
    TypeError("a bytes-like object is required"),
    binascii.Error("Incorrect padding"),
    KeyError("p256dh"),
    AssertionError("bad key length"),
    RuntimeError("something inside the library"),
    ValueError("Could not deserialize key data"),
    requests.ConnectionError("Connection refused"),
    WebPushException("subscription_info missing endpoint URL"),  # no response at all
]


@pytest.mark.parametrize("error", LIBRARY_ERRORS, ids=lambda error: type(error).__name__)
@pytest.mark.parametrize("notify_by", [User.NotifyBy.PUSH, User.NotifyBy.BOTH])
def test_any_library_error_is_logged_and_the_turn_mail_still_goes(
    vapid,
    caplog: pytest.LogCaptureFixture,
    error: Exception,
    notify_by: str,
) -> None:
    _match, mail, player = _turn_mail_due(notify_by, Browser(PushService.endpoint("/fails")))
    sub = PushSubscription.objects.get(user=player)
    with mock.patch("games.push.webpush", side_effect=error), caplog.at_level(logging.WARNING, logger="games.push"):
        assert tasks.mail_send.apply(args=[mail.pk]).get() is True
    mail.refresh_from_db()
    assert mail.status == Mail.Status.SENT and [m.to for m in django_mail.outbox] == [[player.email]]
    logged = [r.getMessage() for r in caplog.records if r.name == "games.push"]
    assert any(f"subscription {sub.pk}" in line and type(error).__name__ in line for line in logged), logged
    assert PushSubscription.objects.filter(pk=sub.pk).exists()  # a passing failure keeps the browser


@pytest.mark.parametrize("error", LIBRARY_ERRORS, ids=lambda error: type(error).__name__)
def test_any_library_error_still_answers_the_test_notice_with_a_sentence(vapid, error: Exception) -> None:
    cache.clear()
    user = UserFactory(notify_by=User.NotifyBy.BOTH)
    Browser(PushService.endpoint("/fails")).subscribe(user)
    with mock.patch("games.push.webpush", side_effect=error):
        response = login(user).post(reverse("games-notice-test"), follow=True)
    assert response.status_code == 200
    assert f"Test notice sent: a browser notification to 0 browsers and a mail to {user.email}." in (
        response.content.decode()
    )


# --- one browser, one account ---------------------------------------------------------------------


def test_a_browser_subscribed_for_another_account_stays_with_it(vapid) -> None:
    """Posting someone else's endpoint does not move their notices to you."""
    owner, other = UserFactory(), UserFactory()
    data = _subscription()
    assert _post(login(owner), data).status_code == 200
    before = PushSubscription.objects.get()
    taken = _subscription(data["endpoint"])  # the same endpoint with keys of the poster's choosing
    response = _post(login(other), taken)
    assert response.status_code == 400 and response.json() == {"ok": False, "message": OTHER_ACCOUNT}
    after = PushSubscription.objects.get()
    assert (after.pk, after.user, after.p256dh, after.auth) == (before.pk, owner, before.p256dh, before.auth)
    assert _post(login(other), {"unsubscribe": True, "endpoint": data["endpoint"]}).status_code == 200
    assert PushSubscription.objects.get().user == owner  # nor can the other account turn them off


def test_the_same_browser_subscribing_again_takes_its_new_keys(vapid) -> None:
    user = UserFactory()
    client = login(user)
    assert _post(client, _subscription()).status_code == 200
    renewed = _subscription()
    assert _post(client, renewed).status_code == 200
    sub = PushSubscription.objects.get()
    assert (sub.user, sub.p256dh, sub.auth) == (user, renewed["keys"]["p256dh"], renewed["keys"]["auth"])


# --- the switch on the profile page -------------------------------------------------------------


@pytest.mark.parametrize("public", ["", "BPublicKeyWithoutItsPrivateHalf"], ids=["no-keys", "public-key-only"])
def test_a_site_that_cannot_push_renders_no_switch(settings, public: str) -> None:
    settings.WEBPUSH_VAPID_PUBLIC_KEY, settings.WEBPUSH_VAPID_PRIVATE_KEY = public, ""
    page = login(UserFactory()).get(reverse("accounts-profile")).content.decode()
    assert "Browser notifications are not available on this site." in page
    assert "data-push-on" not in page and "data-push-off" not in page and 'data-key=""' in page


def test_the_profile_tells_push_js_which_browsers_are_the_players(vapid) -> None:
    """Only the player's own endpoints: a browser holding someone else's subscription is not "on" for them."""
    user, other = UserFactory(), UserFactory()
    Browser("https://fcm.googleapis.com/fcm/send/mine").subscribe(user)
    Browser("https://fcm.googleapis.com/fcm/send/theirs").subscribe(other)
    response = login(user).get(reverse("accounts-profile"))
    page = response.content.decode()
    assert 'id="push-endpoints"' in page and "data-push-on" in page and "data-push-off" in page
    assert response.context["push_endpoints"] == ["https://fcm.googleapis.com/fcm/send/mine"]
    assert "theirs" not in page
