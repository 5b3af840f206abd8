"""Web Push for the tests: a browser's subscription keys (``Browser``, which decrypts what it is sent), a tiny
push service on 127.0.0.1 that records each POST (``PushService``), and fresh VAPID keys."""

from __future__ import annotations

import base64
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from accounts.models import User
from games.models import PushSubscription

# The push service the tests' subscriptions name: requests to it reach a PushService instead (the
# ``service`` fixture of test_push.py routes them).
PUSH_HOST = "fcm.googleapis.com"


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


class Browser:
    """A test subscription: the key pair and auth secret a browser keeps, and the endpoint a push service gives."""

    def __init__(self, endpoint: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.endpoint, self.p256dh = endpoint, _b64(public)

    def keys(self) -> dict[str, str]:
        """The keys as ``PushSubscription.toJSON()`` gives them."""
        return {"p256dh": self.p256dh, "auth": _b64(self.auth)}

    def subscribe(self, user: User) -> PushSubscription:
        return PushSubscription.objects.create(
            user=user, endpoint=self.endpoint, p256dh=self.p256dh, auth=_b64(self.auth)
        )

    def decrypt(self, body: bytes) -> Any:
        return json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"))


class PushService:
    """A tiny push service on 127.0.0.1: records each POST and answers with ``status`` (and ``location``)."""

    def __init__(self) -> None:
        self.received: list[tuple[str, dict[str, str], bytes]] = []
        self.status = 201
        self.location = ""
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                service.received.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(service.status)
                if service.location:
                    self.send_header("Location", service.location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @staticmethod
    def endpoint(path: str) -> str:
        """A subscription's address at the real push service's name, which the ``service`` fixture routes here."""
        return f"https://{PUSH_HOST}{path}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def vapid_keys() -> tuple[str, str]:
    """A fresh VAPID key pair as the settings take it: (private, public), base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = _b64(key.private_numbers().private_value.to_bytes(32, "big"))
    public = _b64(
        key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    return private, public
