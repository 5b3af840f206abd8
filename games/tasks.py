"""Celery tasks: they take ids, load rows, call one service, and are safe to run twice.

The services queue these tasks by name when their transaction commits (``games.followups``), and
beat runs the sweeps (``CELERY_BEAT_SCHEDULE`` in ``config/settings.py``). The tasks import the
services; nothing in the apps imports this module, so a web process loads it only when Celery asks.
The work is elsewhere: a mail's whole life in ``games.outbox`` (this module keeps only the retry,
which needs the task), the timeouts in ``games.services``, reminders and digests in ``games.notify``.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone

from games.errors import MoveRefused
from games.models import Match, Seat
from games.notify import digests_queue, reminders_queue
from games.outbox import MAIL_MAX_ATTEMPTS, MailRetry, mail_attempt, mails_due, mails_lost
from games.services import bot_action, match_expire, match_timeouts, move_submit, seat_timeout, timeouts_batch
from games.vacation import vacation_expire

log = logging.getLogger(__name__)


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
    size = getattr(settings, "GAMES_DEADLINE_SWEEP_BATCH", 25)
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
    """Play the timeouts due in these matches, in one transaction for the batch (``timeouts_batch``); returns how many.

    The matches the batch left out (another transaction held them) are played one by one after it, each
    waiting for its lock. If the batch fails, none of it was written, and each match is played in a
    transaction of its own: a match that fails is logged and left to the next sweep; it does not hold
    up the others.
    """
    try:
        count, left = timeouts_batch(match_ids=match_ids)
    except Exception:
        log.exception("A batch of timeouts failed; playing its matches one by one")
        count, left = 0, list(match_ids)
    for match_id in left:
        try:
            count += match_timeouts(match_id=match_id)
        except Exception:
            log.exception("Timeouts of match %s failed; the next sweep tries again", match_id)
    return count


# --- mail ------------------------------------------------------------------


@shared_task(bind=True, max_retries=MAIL_MAX_ATTEMPTS)
def mail_send(self: Any, mail_id: int) -> bool:
    """Send one outbox mail exactly once (``games.outbox.mail_attempt``); on a mail-server error, try again later.

    The retry lives here, as it needs the task: the outbox has put the mail back to ``pending`` with the
    reason, and says after how long (``MailRetry``).
    """
    try:
        return mail_attempt(mail_id=mail_id)
    except MailRetry as retry:
        raise self.retry(exc=retry.error, countdown=retry.countdown) from retry.error


@shared_task
def mail_due() -> int:
    """Every half minute: queue the held mails that have fallen due (turn mails past their grace period)."""
    ids = mails_due(now=timezone.now())
    for mail_id in ids:
        mail_send.delay(mail_id)
    return len(ids)


@shared_task
def mail_sweep() -> int:
    """Queue again the mails a lost message or a lost worker left behind (``games.outbox.mails_lost``); how many."""
    ids = mails_lost(now=timezone.now())
    for mail_id in ids:
        mail_send.delay(mail_id)
    return len(ids)


@shared_task
def digest_send() -> int:
    """Every hour on the hour: the daily digest of the players whose digest hour it is on their own clock."""
    return digests_queue(now=timezone.now())


@shared_task
def reminder_sweep() -> int:
    """Every minute: reminders before a deadline that are due now, each once (``games.notify``)."""
    return reminders_queue(now=timezone.now())


# --- invitations -------------------------------------------------------------


@shared_task
def waiting_expire() -> int:
    """Every hour: waiting matches past their expiry are abandoned and their invitation links voided; returns how many.

    Each match is claimed by ``match_expire``'s conditional UPDATE, so a second run, or two at once, void nothing twice.
    """
    due = Match.objects.filter(status=Match.Status.WAITING, expires_at__lte=timezone.now()).order_by("expires_at")
    return sum(match_expire(match_id=match_id) for match_id in due.values_list("pk", flat=True)[:500])


# --- vacation ----------------------------------------------------------------


@shared_task
def vacation_sweep() -> int:
    """Every few minutes: end the vacations whose days are over, so their players' clocks run again."""
    return vacation_expire()
