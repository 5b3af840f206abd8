"""Web Push: a turn notice in the player's browser, beside or instead of the turn mail.

A player turns it on from the profile (``static/js/push.js`` subscribes with the VAPID public key and
posts the subscription here). A push goes where a turn mail goes, decided at the same moment: when the
held turn mail is claimed for sending and ``games.notify.turn_mail_unwanted`` has let it through, so
the grace period, presence at the table and the player's choices apply to both alike. Settings:
``WEBPUSH_ENABLED``, ``WEBPUSH_VAPID_PUBLIC_KEY``, ``WEBPUSH_VAPID_PRIVATE_KEY``, ``WEBPUSH_VAPID_SUBJECT``.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.db import transaction
from django.urls import reverse
from pywebpush import WebPushException, webpush  # type: ignore[import-untyped]

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


def _host_allowed(host: str) -> bool:
    allowed = getattr(settings, "WEBPUSH_ALLOWED_HOSTS", DEFAULT_PUSH_HOSTS)
    return any(host == name or host.endswith("." + name) for name in allowed)


def push_subscribe(*, user: User, data: Any) -> PushSubscription:
    """Store (or move to this player) a browser's subscription, as ``PushSubscription.toJSON()`` gives it."""
    if not push_enabled():
        raise Refused("Browser notifications are not available on this site.")
    keys = data.get("keys") if isinstance(data, dict) else None
    endpoint = data.get("endpoint") if isinstance(data, dict) else None
    if not isinstance(endpoint, str) or not isinstance(keys, dict) or len(endpoint) > 1000:
        raise Refused("Your browser sent a subscription this site cannot read.")
    parts = urlsplit(endpoint)
    if parts.scheme != "https" or not parts.hostname or not _host_allowed(parts.hostname):
        raise Refused("Your browser's push service is not one this site can send to.")
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    if (
        not isinstance(p256dh, str)
        or not isinstance(auth, str)
        or not (_KEY.fullmatch(p256dh) and _KEY.fullmatch(auth))
    ):
        raise Refused("Your browser sent a subscription this site cannot read.")
    with transaction.atomic():
        sub, _created = PushSubscription.objects.update_or_create(
            endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth}
        )
        # A player with many old browsers keeps the newest few.
        old = PushSubscription.objects.filter(user=user).order_by("-created", "-pk")[MAX_SUBSCRIPTIONS:]
        PushSubscription.objects.filter(pk__in=list(old.values_list("pk", flat=True))).delete()
    return sub


def push_unsubscribe(*, user: User, endpoint: str) -> int:
    """Forget one of the player's browsers; returns how many rows went (0 or 1)."""
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return deleted


def push_send(*, user: User, payload: dict[str, Any]) -> int:
    """Send ``payload`` (JSON) to each of the player's browsers; returns how many took it.

    A subscription the push service says is gone (404, 410) is deleted; any other failure is logged
    and left for the next notice: a push is a courtesy, never a reason for a task to fail.
    """
    if not push_enabled():
        return 0
    data = json.dumps(payload, ensure_ascii=False)
    return sum(_push_one(sub, data) for sub in PushSubscription.objects.filter(user=user))


def _push_one(sub: PushSubscription, data: str) -> bool:
    claims = {"sub": str(getattr(settings, "WEBPUSH_VAPID_SUBJECT", "mailto:parlour@localhost"))}
    try:
        webpush(
            sub.info,
            data,
            vapid_private_key=str(getattr(settings, "WEBPUSH_VAPID_PRIVATE_KEY", "")),
            vapid_claims=claims,
            ttl=TTL_SECONDS,
            timeout=10,
        )
    except WebPushException as exc:
        if exc.status_code in GONE:
            log.info("Push subscription %s is gone (%s); deleting it", sub.pk, exc.status_code)
            PushSubscription.objects.filter(pk=sub.pk).delete()
        else:
            log.warning("Push to subscription %s failed: %s", sub.pk, exc)
        return False
    except (requests.RequestException, ValueError) as exc:  # the network, or keys the library cannot use
        log.warning("Push to subscription %s failed: %s", sub.pk, exc)
        return False
    return True


def turn_payload(*, mail: Mail) -> dict[str, Any]:
    """What a turn push says and where it leads: the table (the links in a mail stay in the mail)."""
    from games.services import _absolute  # games.services imports the modules that import this one

    assert mail.match_id is not None
    url = _absolute(reverse("games-match", args=[mail.match_id]))
    return {"title": mail.subject, "body": "It is your turn.", "url": url, "tag": f"turn-{mail.match_id}"}


def turn_notice(*, mail: Mail) -> bool:
    """A turn mail cleared for sending: push it to the player's browsers if they chose push; True to mail it too.

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
    pushed = push_send(user=user, payload=turn_payload(mail=mail))
    return user.turn_mail_wanted or pushed == 0


def notice_test(*, user: User) -> str:
    """A test notice the way the player chose to hear of turns; the sentence says what was sent where."""
    from django.utils import timezone

    from games.services import _absolute, _outbox_add, _render_mail, mail_safe

    sent, pushed, url = [], 0, _absolute(reverse("accounts-profile"))
    if user.turn_push_wanted:
        payload = {"title": "Parlour test notice", "body": "This is how Parlour tells you it is your turn.", "url": url}
        pushed = push_send(user=user, payload=payload)
        sent.append(f"a browser notification to {pushed} browser{'s' if pushed != 1 else ''}")
    # As with a turn: a player who chose push alone, with no browser that took it, gets the mail.
    if user.turn_mail_wanted or pushed == 0:
        context = {"name": mail_safe(user.name), "url": url}
        subject, body, html = _render_mail("notice_test", context)
        key = f"notice-test:{user.pk}:{timezone.now().isoformat()}"
        _outbox_add(key=key, recipient=user.email, user=user, subject=subject, body=body, html=html)
        sent.append(f"a mail to {user.email}")
    return "Test notice sent: " + " and ".join(sent) + "."
