"""The SMTP server down for a while: the worker's attempts fail, and once it is back every mail goes out once.

A tiny SMTP server on 127.0.0.1 (a thread in the test) counts what it receives; "down" is its port
with nothing listening, so every connection is refused.
"""

from __future__ import annotations

import socket
import socketserver
import threading
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from games.models import Mail
from games.services import SeatSpec, match_create
from tests.faults import running, wait_until
from tests.faults.matches import a_player

# `make test` runs these one at a time after the rest: they share a Redis database, and one of them empties it.
pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow, pytest.mark.timeout(120)]


class SMTPHandler(socketserver.StreamRequestHandler):
    """Just enough SMTP for smtplib: greet, say yes to everything, keep each message's recipients."""

    server: SMTPServer

    def reply(self, line: str) -> None:
        self.wfile.write(f"{line}\r\n".encode())

    def handle(self) -> None:
        self.reply("220 faults.test ESMTP")
        recipients: list[str] = []
        while line := self.rfile.readline():
            verb = line[:4].upper()
            if verb == b"EHLO":
                self.reply("250-faults.test")
                self.reply("250 8BITMIME")
            elif verb == b"RCPT":
                recipients.append(line.decode().split(":", 1)[1].strip().strip("<>"))
                self.reply("250 OK")
            elif verb == b"DATA":
                self.reply("354 Go ahead")
                while self.rfile.readline() not in (b".\r\n", b".\n", b""):
                    pass
                with self.server.lock:
                    self.server.received.append(recipients)
                recipients = []
                self.reply("250 OK: queued")
            elif verb == b"QUIT":
                self.reply("221 Bye")
                return
            else:  # HELO, MAIL, RSET, NOOP
                self.reply("250 OK")


class SMTPServer(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True

    def __init__(self, port: int) -> None:
        super().__init__(("127.0.0.1", port), SMTPHandler)
        self.received: list[list[str]] = []
        self.lock = threading.Lock()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def a_while_passes() -> None:
    """The mail sweep re-sends only mails pending for five minutes: let them be that old."""
    Mail.objects.filter(status=Mail.Status.PENDING).update(updated_at=timezone.now() - timedelta(minutes=6))


@pytest.mark.django_db(transaction=True)
def test_it_sends_every_mail_once_when_the_smtp_server_returns(tmp_path: Path) -> None:
    port = free_port()
    mailer = (
        'MAILERS = {"default": {"BACKEND": "django.core.mail.backends.smtp.EmailBackend",'
        f' "OPTIONS": {{"host": "127.0.0.1", "port": {port}, "timeout": 5}}}}}}\n'
    )
    for n in range(4):
        creator = a_player()
        seats = [SeatSpec(user=creator), SeatSpec(email=f"invited{n}@faults.test"), SeatSpec(bot="random")]
        match_create(game="renfield", players=3, options={}, created_by=creator, seats=seats)
    mails = list(Mail.objects.values_list("pk", flat=True))
    assert len(mails) == 4
    server = None
    with running(tmp_path, "worker-1", extra_settings=mailer) as stack:
        try:
            a_while_passes()
            stack.send("mail_sweep")
            tried = wait_until(
                lambda: Mail.objects.filter(status=Mail.Status.PENDING, attempts__gte=1).count() == len(mails),
                timeout=30,
            )
            assert tried, f"The worker did not try to send while the server was down.\n{stack.logs()}"
            assert all(Mail.objects.filter(pk__in=mails).values_list("last_error", flat=True))

            server = SMTPServer(port)
            threading.Thread(target=server.serve_forever, daemon=True).start()
            a_while_passes()
            stack.send("mail_sweep")
            sent = wait_until(lambda: Mail.objects.filter(status=Mail.Status.SENT).count() == len(mails), timeout=30)
            assert sent, f"Not every mail went out once the server was back.\n{stack.logs()}"
            # A late retry or a second sweep (the worker's own retries are still on their way) sends nothing more.
            for mail_id in mails:
                stack.send("mail_send", mail_id)
            stack.send("mail_sweep")
            wait_until(lambda: False, timeout=3)
        finally:
            if server is not None:
                server.shutdown()
                server.server_close()
    recipients = sorted(r for message in server.received for r in message)
    assert recipients == sorted(f"invited{n}@faults.test" for n in range(4))
