"""Time travel for the clock tests: ``World`` is the clock (``django.utils.timezone.now``), the broker and
beat at once (the ``world`` fixture, tests/games/conftest.py, puts it in place).

Every task the code queues is held with the moment it is due (its ``eta``, its ``countdown``, or at once) and
runs only when a test moves the clock there, as a worker would; emptying ``world.queue`` is a broker that
lost its messages. Beat's half-minute task that queues the held mails falling due (``mail_due``) runs as
the clock passes each half minute; the deadline sweep is called by the tests, as beat would call it.
Matches on a clock (``clocked``) and their seats' moves and timeouts come with it.
"""

from __future__ import annotations

import heapq
import itertools
import math
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from celery import current_app
from django.db.models import F

from accounts.models import User
from games import tasks
from games.clocks import TimeControl
from games.models import Mail, Match, Move, Seat
from games.services import SeatSpec, match_create, move_submit
from tests.games.factories import UserFactory, quick_options

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
MINUTE = timedelta(minutes=1)
# Ten minutes a move: near enough that each deadline is scheduled as a task (GAMES_DEADLINE_ETA_HORIZON_SECONDS).
TEN_MINUTES = TimeControl(initial=10 * MINUTE, increment=10 * MINUTE, cap=10 * MINUTE)
QUEUED_TASKS = ("bot_move", "deadline_fire", "deadline_batch", "mail_send")


@dataclass(order=True)
class Message:
    due: datetime
    seq: int
    task: str = field(compare=False)
    args: tuple[Any, ...] = field(compare=False)


class World:
    """The clock and the broker: tasks run in the order they fall due, and the clock moves to each."""

    # How often beat runs ``mail_due`` (config/settings.py); its runs fall on START plus whole multiples of it.
    MAIL_DUE_EVERY = timedelta(seconds=30)

    def __init__(self) -> None:
        self.now = START
        self.queue: list[Message] = []
        self.published: list[Message] = []
        self.ran: list[str] = []
        self._seq = itertools.count()

    def __call__(self) -> datetime:
        return self.now

    def publish(self, task: str, args: Any = (), kwargs: Any = None, **options: Any) -> None:
        due = options.get("eta") or self.now + timedelta(seconds=options.get("countdown") or 0)
        message = Message(due, next(self._seq), task, tuple(args or ()))
        heapq.heappush(self.queue, message)
        self.published.append(message)

    def run(self, *, until: datetime | None = None, limit: int = 5000) -> int:
        """Run the tasks due by ``until`` (now by default), moving the clock forward to each; how many ran."""
        until = until or self.now
        ran = 0
        while True:
            beat = self._mail_due_run()
            if self.queue and self.queue[0].due <= until and (beat is None or self.queue[0].due <= beat):
                assert ran < limit, f"more than {limit} tasks: a runaway chain"
                self.step()
                ran += 1
            elif beat is not None and beat <= until:  # beat's run: the mails it queues are due at once
                self.now = max(self.now, beat)
                current_app.tasks["games.tasks.mail_due"].apply(throw=True)
            else:
                break
        self.now = max(self.now, until)
        return ran

    def _mail_due_run(self) -> datetime | None:
        """Beat's first run of ``mail_due`` that finds a held mail due; the runs that would find none are skipped."""
        held = Mail.objects.filter(status=Mail.Status.PENDING, updated_at__lt=F("send_after"))
        first = held.order_by("send_after").values_list("send_after", flat=True).first()
        if first is None:
            return None
        runs = math.ceil((max(first, self.now) - START) / self.MAIL_DUE_EVERY)
        return START + runs * self.MAIL_DUE_EVERY

    def advance(self, delta: timedelta) -> int:
        return self.run(until=self.now + delta)

    def step(self) -> None:
        """Run the next task, moving the clock to when it falls due if that is later."""
        assert self.queue, "nothing is queued"
        message = heapq.heappop(self.queue)
        self.now = max(self.now, message.due)
        current_app.tasks[f"games.tasks.{message.task}"].apply(args=message.args, throw=True)
        self.ran.append(message.task)

    def sweep(self) -> int:
        """What beat does every minute: the deadline sweep; its batches join the queue, due at once."""
        return tasks.deadline_sweep.apply(throw=True).result


# --- matches on the clock ---------------------------------------------------------------------------------------------


def clocked(
    game: str,
    *,
    humans: int,
    bots: int = 0,
    clock: TimeControl | None = TEN_MINUTES,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    level: str = "random",
    **user_fields: Any,
) -> Match:
    """A match of ``humans`` players (no turn mail) and ``bots`` bots on ``clock``, its timeouts played by a random bot."""
    users = [UserFactory(notify=User.Notify.NEVER, **user_fields) for _ in range(humans)]
    seats = [SeatSpec(user=u) for u in users] + [SeatSpec(bot=level)] * bots
    return match_create(
        game=game,
        players=players or humans + bots,
        options=quick_options(game) if options is None else options,
        created_by=users[0] if users else None,
        seats=seats,
        time_control=clock,
        timeout_bot_level="random",
    )


def awaited(match: Match) -> list[Seat]:
    """The seats the match waits for now, with their players."""
    return list(match.seats.filter(awaiting=True).select_related("user"))


def move_first_legal(match: Match, seat: Seat) -> Move:
    """The seat's player makes its first legal move, through the service the play view calls."""
    match.refresh_from_db()
    action = match.engine.legal_actions(match.state, seat.number)[0]
    return move_submit(match=match, user=seat.user, seat=seat.number, action=action, version=match.version)


def timeouts(match: Match, **filters: Any) -> int:
    """How many of the match's moves were timeouts (``filters``: of one seat, say)."""
    return Move.objects.filter(match=match, kind=Move.Kind.TIMEOUT, **filters).count()
