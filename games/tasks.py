"""Celery tasks: they take ids, load rows, call one service, and are safe to run twice.

The services queue these tasks by name when their transaction commits; the tasks import the
services inside their bodies, so neither module imports the other when it loads.
"""

from __future__ import annotations

import logging
import smtplib
from datetime import datetime, timedelta
from typing import Any

from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from games.models import Mail, Match, Seat

log = logging.getLogger(__name__)

MAIL_MAX_ATTEMPTS = 5
# A pending mail this old lost its message (a broker outage, a failed publish): queue it again.
MAIL_STALE_AFTER = timedelta(minutes=5)
# A held mail (a turn mail's grace period) still pending this long after its time lost its message.
MAIL_HELD_LATE_AFTER = timedelta(minutes=1)
# The most held mails ``mail_due`` queues in one run; the rest wait for the next run, half a minute later.
MAIL_DUE_BATCH = 2000
# A mail claimed for sending this long ago lost its worker: an attempt ends far sooner (EMAIL_TIMEOUT).
MAIL_SENDING_STALE_AFTER = timedelta(minutes=10)
# What the mail server or the network may get over; anything else is wrong with the mail itself.
MAIL_TRANSIENT_ERRORS = (smtplib.SMTPException, OSError)
PUSHED_INSTEAD = "The player takes turn notices as browser notifications only: sent as a push instead."
RENDER_FAILED = "The turn mail could not be written:"
AT_THE_TABLE = "The player is at the table: the mail waits until a grace period after they were last seen there."
WORKER_LOST = "The worker sending this mail stopped before it finished."


# --- bots ------------------------------------------------------------------


def bot_turn(match_id: int, seat: int, version: int) -> None:
    """Queue a bot move, without publish retries: the sweep is the retry."""
    bot_move.apply_async((match_id, seat, version), retry=False)


# A bot seat, or a human seat the bot plays while its player is absent.
PLAYED_BY_BOT = Q(absent=True) | ~Q(bot_level="")


@shared_task
def bot_move(match_id: int, seat: int, version: int) -> bool:
    """The bot in ``seat`` (or the match's timeout bot for an absent player) plays from the seat's own view.

    A stale or repeated task does nothing; so does one for a player who took their seat back meanwhile
    (``move_submit`` checks that under the match's lock).
    """
    from games.errors import MoveRefused
    from games.services import bot_action, move_submit

    match = Match.objects.filter(pk=match_id, status=Match.Status.ACTIVE).first()
    bot = Seat.objects.filter(PLAYED_BY_BOT, match_id=match_id, number=seat).first()
    if match is None or bot is None or match.version < version:
        return False
    if not match.engine.legal_actions(match.state, seat):
        return False
    action = bot_action(match=match, seat=seat, level=bot.bot_level or match.timeout_bot_level)
    try:
        move_submit(match=match, user=None, seat=seat, action=action, version=version, kind="bot")
    except MoveRefused as exc:  # someone else moved first: the later task will handle it
        log.info("Bot move for match %s seat %s skipped: %s", match_id, seat, exc)
        return False
    return True


@shared_task
def bot_sweep() -> int:
    """Re-queue bots (and the bots playing for absent players) that a lost message left waiting."""
    seats = Seat.objects.filter(PLAYED_BY_BOT, awaiting=True, match__status=Match.Status.ACTIVE)
    seats = seats.filter(match__updated_at__lt=timezone.now() - timedelta(minutes=2)).select_related("match")
    count = 0
    for seat in seats[:200]:
        bot_turn(seat.match_id, seat.number, seat.match.version)
        count += 1
    return count


# --- deadlines -------------------------------------------------------------

# Kombu's Redis transport takes priority 0 first and 9 last (other transports ignore it).
SWEEP_PRIORITY = 9


@shared_task
def deadline_fire(seat_id: int, deadline: str) -> bool:
    """Queued for the moment a seat's time runs out: play its timeout, unless someone already did."""
    from games.services import seat_timeout

    return seat_timeout(seat_id=seat_id, deadline=datetime.fromisoformat(deadline))


@shared_task
def deadline_sweep() -> int:
    """Every minute: the matches with a passed deadline that no task handled (a lost message, a far
    deadline never scheduled), handed out in batches; returns how many matches.

    One indexed range scan on the running deadlines, oldest first. A batch per
    ``GAMES_DEADLINE_SWEEP_BATCH`` matches keeps every worker process busy while leaving room between
    batches for other work, and the batches are queued at the lowest priority: on Redis every other
    message (a deadline falling due now, a bot's move, a mail) is taken before them, so a backlog
    of old deadlines does not make new ones late. A batch queued twice (a sweep running again before
    the last one's batches were done) finds nothing left to do.
    """
    limit = getattr(settings, "GAMES_DEADLINE_SWEEP_LIMIT", 20_000)
    size = getattr(settings, "GAMES_DEADLINE_SWEEP_BATCH", 10)
    due = overdue_seats(now=timezone.now()).values_list("match_id", flat=True)[:limit]
    match_ids = list(dict.fromkeys(due))
    for start in range(0, len(match_ids), size):
        batch = match_ids[start : start + size]
        try:
            deadline_batch.apply_async((batch,), retry=False, priority=SWEEP_PRIORITY)
        except Exception:  # a broker that fails now: play this batch here, the next sweep gets any left
            log.exception("Could not queue a deadline batch; playing it in the sweep")
            deadline_batch(batch)
    return len(match_ids)


def overdue_seats(*, now: datetime) -> QuerySet[Seat]:
    """Seats whose deadline has passed, oldest first: a range scan of the partial index on running deadlines."""
    return Seat.objects.filter(deadline__lte=now).order_by("deadline")


@shared_task
def deadline_batch(match_ids: list[int]) -> int:
    """Play the timeouts due in each of these matches, one transaction per match; returns how many.

    A match that fails is logged and left to the next sweep; it does not hold up the others.
    """
    from games.services import match_timeouts

    count = 0
    for match_id in match_ids:
        try:
            count += match_timeouts(match_id=match_id)
        except Exception:
            log.exception("Timeouts of match %s failed; the next sweep tries again", match_id)
    return count


# --- mail ------------------------------------------------------------------


@shared_task(bind=True, max_retries=MAIL_MAX_ATTEMPTS)
def mail_send(self: Any, mail_id: int) -> bool:
    """Send one outbox mail exactly once: claim it with a conditional UPDATE, retry on SMTP errors.

    Every attempt ends the mail ``sent``, ``failed`` with the reason, or back to ``pending`` with the
    reason and a retry on its way; a turn mail whose text cannot be written ends ``failed``. Only a
    worker that dies mid-attempt leaves it ``sending``: the sweep reclaims those. A held turn mail is
    not claimed before its ``send_after``; once claimed it ends ``cancelled`` with the reason if the
    player no longer needs it, or is held again while they are at the table (``games.notify.turn_mail_verdict``).
    """
    from games.notify import turn_mail_verdict
    from games.push import turn_notice
    from games.services import turn_mail_render

    now = timezone.now()
    due = Q(send_after__isnull=True) | Q(send_after__lte=now)
    claimed = Mail.objects.filter(due, pk=mail_id, status=Mail.Status.PENDING).update(
        status=Mail.Status.SENDING, attempts=F("attempts") + 1, updated_at=now
    )
    if not claimed:
        return False
    mail = Mail.objects.get(pk=mail_id)
    verdict = turn_mail_verdict(mail=mail, now=now)
    if verdict.cancel:
        _mail_end(mail_id, Mail.Status.CANCELLED, verdict.cancel)
        return False
    if verdict.wait_until is not None:  # the player is at the table: held again, the attempt not counted
        Mail.objects.filter(pk=mail_id, status=Mail.Status.SENDING).update(
            status=Mail.Status.PENDING,
            send_after=verdict.wait_until,
            attempts=F("attempts") - 1,
            last_error=AT_THE_TABLE,
            updated_at=now,
        )
        return False
    # The push goes at the same moment as the turn mail, under the same rules (games.push).
    if not turn_notice(mail=mail):
        _mail_end(mail_id, Mail.Status.CANCELLED, PUSHED_INSTEAD)
        return False
    # A turn mail's text is written when it goes, not in the move (the push needs only its subject).
    if mail.turn_version is not None and not mail.body:
        try:
            turn_mail_render(mail=mail)
        except Exception as exc:  # whatever broke will break again: recorded, never left sending
            log.exception("Turn mail %s cannot be written", mail_id)
            _mail_end(mail_id, Mail.Status.FAILED, f"{RENDER_FAILED} {type(exc).__name__}: {exc}")
            return False
    try:
        _deliver(mail)
    except MAIL_TRANSIENT_ERRORS as exc:
        if mail.attempts >= MAIL_MAX_ATTEMPTS:
            _mail_end(mail_id, Mail.Status.FAILED, f"Gave up after {mail.attempts} attempts: {exc}")
            return False
        _mail_end(mail_id, Mail.Status.PENDING, str(exc))
        raise self.retry(exc=exc, countdown=30 * 2**mail.attempts) from exc
    except Exception as exc:  # the mail itself is wrong (a header with a line break): another try cannot help
        log.exception("Mail %s cannot be sent", mail_id)
        _mail_end(mail_id, Mail.Status.FAILED, f"{type(exc).__name__}: {exc}")
        return False
    now = timezone.now()
    Mail.objects.filter(pk=mail_id).update(status=Mail.Status.SENT, sent_at=now, updated_at=now)
    return True


def _deliver(mail: Mail) -> None:
    message = EmailMultiAlternatives(mail.subject, mail.body, settings.DEFAULT_FROM_EMAIL, [mail.recipient])
    if mail.html:
        message.attach_alternative(mail.html, "text/html")
    message.send()


def _mail_end(mail_id: int, status: str, reason: str) -> None:
    Mail.objects.filter(pk=mail_id).update(status=status, last_error=reason[:1000], updated_at=timezone.now())


@shared_task
def mail_due() -> int:
    """Every half minute: queue the held mails that have fallen due (turn mails past their grace period).

    Each once: a mail queued here is marked by its ``updated_at``, which then passes its ``send_after``.
    One whose message is lost stays pending, and ``mail_sweep`` queues it again a few minutes later.
    """
    now = timezone.now()
    due = Mail.objects.filter(status=Mail.Status.PENDING, send_after__lte=now, updated_at__lt=F("send_after"))
    ids = list(due.order_by("send_after").values_list("pk", flat=True)[:MAIL_DUE_BATCH])
    Mail.objects.filter(pk__in=ids, status=Mail.Status.PENDING).update(updated_at=now)
    for mail_id in ids:
        mail_send.delay(mail_id)
    return len(ids)


@shared_task
def mail_sweep() -> int:
    """Queue again the mails a lost message or a lost worker left behind; returns how many.

    Pending after a while: the message to send it was lost. Sending for far longer than an attempt
    takes: its worker died. Those go back to pending and are sent again, or fail once they have
    had all their attempts.
    """
    now = timezone.now()
    pending = Mail.objects.filter(status=Mail.Status.PENDING, updated_at__lt=now - MAIL_STALE_AFTER)
    # A held mail is not sent early: only once its own task should have run, a while ago.
    pending = pending.filter(Q(send_after__isnull=True) | Q(send_after__lte=now - MAIL_HELD_LATE_AFTER))
    ids = list(pending.values_list("pk", flat=True)[:500])
    lost = Mail.objects.filter(status=Mail.Status.SENDING, updated_at__lt=now - MAIL_SENDING_STALE_AFTER)
    lost.filter(attempts__gte=MAIL_MAX_ATTEMPTS).update(
        status=Mail.Status.FAILED,
        last_error=f"{WORKER_LOST} It had had all its {MAIL_MAX_ATTEMPTS} attempts.",
        updated_at=now,
    )
    reclaim = list(lost.filter(attempts__lt=MAIL_MAX_ATTEMPTS).values_list("pk", flat=True)[:500])
    # Conditional, like the claim: a mail that has moved on since it was listed is left alone.
    Mail.objects.filter(
        pk__in=reclaim, status=Mail.Status.SENDING, updated_at__lt=now - MAIL_SENDING_STALE_AFTER
    ).update(status=Mail.Status.PENDING, last_error=f"{WORKER_LOST} Sending it again.", updated_at=now)
    ids += reclaim
    for mail_id in ids:
        mail_send.delay(mail_id)
    return len(ids)


@shared_task
def digest_send() -> int:
    """Every hour on the hour: the daily digest of the players whose digest hour it is on their own clock."""
    from games.notify import digests_queue

    return digests_queue(now=timezone.now())


@shared_task
def reminder_sweep() -> int:
    """Every minute: reminders before a deadline that are due now, each once (``games.notify``)."""
    from games.notify import reminders_queue

    return reminders_queue(now=timezone.now())


# --- invitations -------------------------------------------------------------


@shared_task
def waiting_expire() -> int:
    """Every hour: waiting matches past their expiry are abandoned and their invitation links voided; returns how many.

    Each match is claimed by ``match_expire``'s conditional UPDATE, so a second run, or two at once, void nothing twice.
    """
    from games.services import match_expire

    due = Match.objects.filter(status=Match.Status.WAITING, expires_at__lte=timezone.now()).order_by("expires_at")
    return sum(match_expire(match_id=match_id) for match_id in due.values_list("pk", flat=True)[:500])


# --- vacation ----------------------------------------------------------------


@shared_task
def vacation_sweep() -> int:
    """Every few minutes: end the vacations whose days are over, so their players' clocks run again."""
    from games.vacation import vacation_expire

    return vacation_expire()
