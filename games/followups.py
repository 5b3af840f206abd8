"""What runs after a commit: tasks queued by name, a change's follow-ups at a table, deadline tasks.

The services register these with ``transaction.on_commit``, so that slow or failing I/O (the broker)
never fails a player's request and a rolled-back change queues nothing. Tasks are queued by their
names (``games.tasks.*``): no module here imports the task modules, which import the services.
Nothing queued here is the only record of its work: a pending mail, an awaited bot and a running
deadline stay in the database, and the sweeps (``games.tasks``) find whatever a lost message missed.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.utils import timezone

log = logging.getLogger(__name__)


def enqueue(task_name: str, *args: Any, **options: Any) -> None:
    """Hand a task to the broker by its name, so that the caller need not import the tasks.

    No publish retries: the player's request must not wait on a struggling broker; the sweeps are the retry.
    """
    try:
        current_app.tasks[task_name].apply_async(args, retry=False, **options)
    except Exception:  # the work stays in the database (a pending mail, an awaited bot, a deadline) for the sweep
        log.exception("Could not queue %s%r", task_name, args)


def move_follow_up(
    match_id: int,
    version: int,
    bots: list[int],
    mail_ids: list[int],
    deadlines: Sequence[tuple[int, datetime]] = (),
) -> None:
    """On commit, once per change at a table: queue the new outbox rows due now, wake the bots, schedule the deadlines.

    Mails first, then the bots, after a short delay so that a player watching the table sees their
    moves land one by one. A broker outage must not fail the move: pending mails, waiting bots and
    passed deadlines are found again by the sweeps.
    """
    for mail_id in mail_ids:
        enqueue("games.tasks.mail_send", mail_id)
    delay = getattr(settings, "BOT_MOVE_DELAY_SECONDS", 2)
    for seat in bots:
        enqueue("games.tasks.bot_move", match_id, seat, version, countdown=delay)
    for seat_id, deadline in deadlines:
        deadline_schedule(seat_id=seat_id, deadline=deadline)


def deadline_schedule(*, seat_id: int, deadline: datetime) -> None:
    """Queue the task that plays the timeout when ``deadline`` passes, if it is near enough.

    A deadline further off than ``GAMES_DEADLINE_ETA_HORIZON_SECONDS`` is left to the sweep, which
    runs every minute: Redis hands a message not acknowledged within its visibility timeout (an
    hour) to a worker again, so a task held for days would run again every hour, and every worker
    would hold every such message in memory meanwhile.
    """
    horizon = timedelta(seconds=getattr(settings, "GAMES_DEADLINE_ETA_HORIZON_SECONDS", 1800))
    if deadline - timezone.now() <= horizon:
        enqueue("games.tasks.deadline_fire", seat_id, deadline.isoformat(), eta=deadline)
