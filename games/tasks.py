"""Celery tasks: they take ids, load rows, call one service, and are safe to run twice."""

from __future__ import annotations

import logging
import smtplib
import threading
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db.models import F
from django.utils import timezone

from accounts.models import User
from engine import IllegalAction
from engine.bots import choose
from games.models import Mail, Match, Seat
from games.services import MoveRefused, digest_queue, move_submit

log = logging.getLogger(__name__)

MAIL_MAX_ATTEMPTS = 5
MAIL_STALE_AFTER = timedelta(minutes=5)

# Inline bot chains stop here; the sweep picks up a match that is somehow still waiting for a bot.
MAX_EAGER_BOT_MOVES = 5000

_eager = threading.local()


# --- bots ------------------------------------------------------------------


def bot_turn(match_id: int, seat: int, version: int) -> None:
    """Queue a bot move. Run inline (tests, eager mode) the chain of bot moves is a bounded loop, not a recursion.

    Each bot move that commits queues the next bot from its on-commit callback; those land in the
    loop's queue, so an all-bot match would otherwise play to its end inside one call.
    """
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        bot_move.apply_async((match_id, seat, version), retry=False)  # the sweep is the retry
        return
    queue = getattr(_eager, "queue", None)
    if queue is not None:
        queue.append((match_id, seat, version))
        return
    _eager.queue = [(match_id, seat, version)]
    try:
        for _ in range(MAX_EAGER_BOT_MOVES):
            if not _eager.queue:
                break
            bot_move.apply(args=_eager.queue.pop(0))
        else:
            log.warning("Stopped an inline bot chain after %s moves at match %s", MAX_EAGER_BOT_MOVES, match_id)
    finally:
        _eager.queue = None


@shared_task
def bot_move(match_id: int, seat: int, version: int) -> bool:
    """The bot in ``seat`` plays from its own view; a stale or repeated task does nothing."""
    match = Match.objects.filter(pk=match_id, status=Match.Status.ACTIVE).first()
    bot = Seat.objects.filter(match_id=match_id, number=seat).exclude(bot_level="").first()
    if match is None or bot is None or match.version < version:
        return False
    game = match.engine
    legal = game.legal_actions(match.state, seat)
    if not legal:
        return False
    action = choose(match.game, bot.bot_level, game.view(match.state, seat), legal, seed=f"{match.seed}:{match.version}")
    try:
        move_submit(match=match, user=None, seat=seat, action=action, version=version, kind="bot")
    except (MoveRefused, IllegalAction) as exc:  # someone else moved first: the later task will handle it
        log.info("Bot move for match %s seat %s skipped: %s", match_id, seat, exc)
        return False
    return True


@shared_task
def bot_sweep() -> int:
    """Re-queue bots that a lost message left waiting."""
    seats = Seat.objects.filter(awaiting=True, match__status=Match.Status.ACTIVE).exclude(bot_level="")
    seats = seats.filter(match__updated_at__lt=timezone.now() - timedelta(minutes=2)).select_related("match")
    count = 0
    for seat in seats[:200]:
        bot_turn(seat.match_id, seat.number, seat.match.version)
        count += 1
    return count


# --- mail ------------------------------------------------------------------


@shared_task(bind=True, max_retries=MAIL_MAX_ATTEMPTS)
def mail_send(self, mail_id: int) -> bool:  # noqa: ANN001 (Celery's bound task)
    """Send one outbox mail exactly once: claim it with a conditional UPDATE, retry on SMTP errors."""
    claimed = Mail.objects.filter(pk=mail_id, status=Mail.Status.PENDING).update(
        status=Mail.Status.SENDING, attempts=F("attempts") + 1, updated_at=timezone.now()
    )
    if not claimed:
        return False
    mail = Mail.objects.get(pk=mail_id)
    message = EmailMultiAlternatives(mail.subject, mail.body, settings.DEFAULT_FROM_EMAIL, [mail.recipient])
    if mail.html:
        message.attach_alternative(mail.html, "text/html")
    try:
        message.send()
    except (smtplib.SMTPException, OSError) as exc:
        failed = mail.attempts >= MAIL_MAX_ATTEMPTS
        Mail.objects.filter(pk=mail_id).update(
            status=Mail.Status.FAILED if failed else Mail.Status.PENDING, last_error=str(exc)[:1000],
            updated_at=timezone.now(),
        )
        if failed:
            return False
        raise self.retry(exc=exc, countdown=30 * 2 ** mail.attempts) from exc
    Mail.objects.filter(pk=mail_id).update(status=Mail.Status.SENT, sent_at=timezone.now(), updated_at=timezone.now())
    return True


@shared_task
def mail_sweep() -> int:
    """Re-queue outbox mails still pending after a while (a lost message, a broker outage)."""
    stale = Mail.objects.filter(status=Mail.Status.PENDING, updated_at__lt=timezone.now() - MAIL_STALE_AFTER)
    ids = list(stale.values_list("pk", flat=True)[:500])
    for mail_id in ids:
        mail_send.delay(mail_id)
    return len(ids)


@shared_task
def digest_send() -> int:
    """Once a day: one mail per daily-digest player with matches awaiting them."""
    day = timezone.now().date().isoformat()
    awaiting = (
        Seat.objects.filter(awaiting=True, match__status=Match.Status.ACTIVE, user__notify=User.Notify.DAILY)
        .select_related("match", "user")
        .order_by("user_id", "match_id")
    )
    by_user: dict[int, list[Seat]] = {}
    for seat in awaiting:
        by_user.setdefault(seat.user_id, []).append(seat)
    return sum(digest_queue(user=seats[0].user, day=day, seats=seats) is not None for seats in by_user.values())
