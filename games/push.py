"""Web Push: a turn notice in the player's browser, beside or instead of the turn mail.

A player turns it on from the profile (``static/js/push.js`` subscribes with the VAPID public key and
posts the subscription here). A push goes where a turn mail goes, decided at the same moment: when the
held turn mail is claimed for sending and ``games.outbox.turn_mail_verdict`` has let it through, so
the grace period, presence at the table and the player's choices apply to both alike (the outbox asks
``turn_notice``; the test notice is ``games.notify.notice_test``). Settings:
``WEBPUSH_ENABLED``, ``WEBPUSH_VAPID_PUBLIC_KEY``, ``WEBPUSH_VAPID_PRIVATE_KEY``, ``WEBPUSH_VAPID_SUBJECT``,
``WEBPUSH_ALLOWED_HOSTS`` (the push services' names; ``endpoint_allowed`` is the one check of an address).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.db import transaction
from pywebpush import WebPushException, webpush  # type: ignore[import-untyped]
from urllib3.util import parse_url

from accounts.models import User
from games.errors import Refused
from games.models import Mail, PushSubscription

log = logging.getLogger(__name__)

# The push service says the subscription is gone for good: it is deleted.
GONE = frozenset({404, 410})
# A browser's keys and endpoint as the Push API hands them out (base64url), within generous bounds.
_KEY = re.compile(r"[A-Za-z0-9_-]{16,200}={0,2}")
# Push services of the browsers: a subscription elsewhere would have the server post to any address.
DEFAULT_PUSH_HOSTS = (
    "fcm.googleapis.com",
    "android.googleapis.com",
    "updates.push.services.mozilla.com",
    "push.services.mozilla.com",
    "web.push.apple.com",
    "notify.windows.com",
)
MAX_SUBSCRIPTIONS = 10
TTL_SECONDS = 24 * 3600


def push_public_key() -> str:
    return str(getattr(settings, "WEBPUSH_VAPID_PUBLIC_KEY", ""))


def push_enabled() -> bool:
    """On when switched on (the default) and both VAPID keys are set."""
    private = getattr(settings, "WEBPUSH_VAPID_PRIVATE_KEY", "")
    return bool(getattr(settings, "WEBPUSH_ENABLED", True) and private and push_public_key())


# An endpoint as the push services hand them out: https, a host name, at most the default port, then the path.
# Anything a URL parser might read two ways (a backslash, userinfo, another port, an IP address, a trailing
# dot, percent-escapes or spaces in the host) is refused before any parser is asked.
_ENDPOINT = re.compile(r"https://(?P<host>[A-Za-z0-9.-]{1,253})(?::443)?(?P<rest>[/?][!-~]*)?")
_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")
ENDPOINT_MAX = 1000
OTHER_ACCOUNT = "This browser already receives notifications for another account; turn them off there first."


def _allowed_names() -> Iterable[str]:
    names = getattr(settings, "WEBPUSH_ALLOWED_HOSTS", DEFAULT_PUSH_HOSTS)
    return (str(name).lower().rstrip(".") for name in names)


def endpoint_allowed(endpoint: object) -> bool:
    """True when ``endpoint`` is a browser push service's address that every URL parser reads the same way.

    Checked when a browser subscribes and again before every push, so that a row stored any other way is
    never posted to. pywebpush posts with requests, which parses with urllib3; the check parses with both
    that and the standard library and wants the same https host (on the allow-list) and port from each.
    """
    if not isinstance(endpoint, str) or len(endpoint) > ENDPOINT_MAX or "\\" in endpoint or "@" in endpoint:
        return False
    found = _ENDPOINT.fullmatch(endpoint)
    if found is None:
        return False
    host = found["host"].lower()
    if not all(_LABEL.fullmatch(label) for label in host.split(".")) or host.replace(".", "").isdigit():
        return False
    if not any(host == name or host.endswith("." + name) for name in _allowed_names() if name):
        return False
    try:
        ours, theirs = urlsplit(endpoint), parse_url(endpoint)
        ports = {ours.port, theirs.port}
    except ValueError:  # urllib3's LocationParseError is a ValueError too
        return False
    return (
        ours.scheme == theirs.scheme == "https"
        and ours.hostname == (theirs.host or "").lower() == host
        and ports <= {None, 443}
        and not ours.username
        and not theirs.auth
    )


def push_subscribe(*, user: User, data: Any) -> PushSubscription:
    """Store a browser's subscription for this player, as ``PushSubscription.toJSON()`` gives it.

    A browser's endpoint is that browser's alone: one already stored for another account is refused and
    left with its owner, so that nobody can take over someone else's notices by posting their endpoint.
    """
    if not push_enabled():
        raise Refused("Browser notifications are not available on this site.")
    keys = data.get("keys") if isinstance(data, dict) else None
    endpoint = data.get("endpoint") if isinstance(data, dict) else None
    if not isinstance(endpoint, str) or not isinstance(keys, dict) or len(endpoint) > ENDPOINT_MAX:
        raise Refused("Your browser sent a subscription this site cannot read.")
    if not endpoint_allowed(endpoint):
        raise Refused("Your browser's push service is not one this site can send to.")
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    if (
        not isinstance(p256dh, str)
        or not isinstance(auth, str)
        or not (_KEY.fullmatch(p256dh) and _KEY.fullmatch(auth))
    ):
        raise Refused("Your browser sent a subscription this site cannot read.")
    with transaction.atomic():
        sub, created = PushSubscription.objects.select_for_update().get_or_create(
            endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth}
        )
        if sub.user_id != user.pk:
            raise Refused(OTHER_ACCOUNT)
        if not created and (sub.p256dh, sub.auth) != (p256dh, auth):  # the browser renewed its keys
            sub.p256dh, sub.auth = p256dh, auth
            sub.save(update_fields=["p256dh", "auth"])
        # A player with many old browsers keeps the newest few.
        old = PushSubscription.objects.filter(user=user).order_by("-created", "-pk")[MAX_SUBSCRIPTIONS:]
        PushSubscription.objects.filter(pk__in=list(old.values_list("pk", flat=True))).delete()
    return sub


def push_unsubscribe(*, user: User, endpoint: str) -> int:
    """Forget one of the player's browsers; returns how many rows went (0 or 1)."""
    if not endpoint_allowed(endpoint):
        return 0  # a row that fails the check is never posted to (and goes at the next push); no lookup for it
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return deleted


def push_endpoints_for(*, user: User) -> list[str]:
    """The endpoints of the player's browsers: the profile tells this browser whether it is one of them."""
    return list(PushSubscription.objects.filter(user=user).order_by("pk").values_list("endpoint", flat=True))


def push_send(*, user: User, payload: dict[str, Any]) -> int:
    """Send ``payload`` (JSON) to each of the player's browsers; returns how many took it.

    A subscription the push service says is gone (404, 410), or whose endpoint is not a push service's, is
    deleted; any other failure is logged and left for the next notice: a push is a courtesy, never a reason
    for a task to fail.
    """
    if not push_enabled():
        return 0
    data = json.dumps(payload, ensure_ascii=False)
    with requests.Session() as session:
        # The push service answers the post itself: following a redirect would aim it at another address.
        session.max_redirects = 0
        return sum(_push_one(sub, data, session) for sub in PushSubscription.objects.filter(user=user))


def _push_one(sub: PushSubscription, data: str, session: requests.Session) -> bool:
    if not endpoint_allowed(sub.endpoint):  # stored some other way than push_subscribe: never posted to
        log.warning("Push subscription %s has an endpoint that is not a push service's; deleting it", sub.pk)
        PushSubscription.objects.filter(pk=sub.pk).delete()
        return False
    claims = {"sub": str(getattr(settings, "WEBPUSH_VAPID_SUBJECT", "mailto:parlour@localhost"))}
    try:
        webpush(
            sub.info,
            data,
            vapid_private_key=str(getattr(settings, "WEBPUSH_VAPID_PRIVATE_KEY", "")),
            vapid_claims=claims,
            ttl=TTL_SECONDS,
            timeout=10,
            requests_session=session,
        )
    except WebPushException as exc:
        if exc.status_code in GONE:
            log.info("Push subscription %s is gone (%s); deleting it", sub.pk, exc.status_code)
            PushSubscription.objects.filter(pk=sub.pk).delete()
        else:
            log.warning("Push to subscription %s failed: %s", sub.pk, exc)
        return False
    # Whatever else pywebpush, py_vapid, http_ece, cryptography or requests raise (the network, keys they
    # cannot use, a bug of theirs): logged, and the turn mail goes on as if no browser had taken the push.
    except Exception as exc:
        log.warning("Push to subscription %s failed: %s: %s", sub.pk, type(exc).__name__, exc)
        return False
    return True


def turn_payload(*, mail: Mail, url: str) -> dict[str, Any]:
    """What a turn push says and where it leads: ``url``, the table (the links in a mail stay in the mail)."""
    return {"title": mail.subject, "body": "It is your turn.", "url": url, "tag": f"turn-{mail.match_id}"}


def turn_notice(*, mail: Mail, url: str) -> bool:
    """A turn mail cleared for sending: push it to the player's browsers if they chose push; True to mail it too.

    ``url`` is the table's address on this site (the outbox knows the site: ``games.outbox.absolute_url``).
    Pushed on the first attempt only, so that a mail retried after a mail-server error pushes once.
    A player who chose push alone but has no browser that took it gets the mail instead: no turn
    goes unannounced.
    """
    if mail.turn_version is None or mail.match_id is None or mail.user_id is None:
        return True
    user = mail.user
    if user is None or not user.turn_push_wanted:
        return True
    if mail.attempts > 1:  # an earlier attempt chose to mail it (a push-only mail would have ended then)
        return True
    pushed = push_send(user=user, payload=turn_payload(mail=mail, url=url))
    return user.turn_mail_wanted or pushed == 0
