"""Vacation: a player stops their own clocks in all their matches, within a yearly budget of days.

While a player is on vacation, each of their awaited seats keeps the time it had left in ``Seat.bank``
and has no deadline, so neither the deadline task nor the sweep can time it out; a seat that becomes
theirs to play meanwhile gets no deadline either (``Seat.clock_paused``, ``Seat.turn_deadline``). When
the vacation ends, by the player or by ``vacation_expire`` once its days are over, every awaited seat
of theirs gets a deadline again from its bank: the same time left as when the vacation began.

Lock order, as in the timeout service: the player's matches first, then the player's row.
"""

from __future__ import annotations

import logging
from datetime import datetime
from functools import partial

from django.db import transaction
from django.utils import dateformat, timezone

from accounts.models import User
from games.clocks import DAY, auto_vacation_extension, days_spent, remaining
from games.errors import Refused
from games.followups import deadline_schedule
from games.models import Match, Seat

log = logging.getLogger(__name__)

# How many vacations one sweep ends; the next sweep takes the rest.
SWEEP_BATCH = 200


def vacation_start(*, user: User, days: int) -> int:
    """Stop the player's clocks for ``days`` days; returns how many running clocks were stopped.

    Refused when already on vacation or when the days are not left in this year's budget. The
    days are spent when the vacation ends, by how long it really lasted (``clocks.days_spent``).
    """
    if days < 1:
        raise Refused("A vacation lasts at least 1 day.")
    now = timezone.now()
    with transaction.atomic():
        _lock_matches(user.pk)
        locked = User.objects.select_for_update().get(pk=user.pk)
        if locked.on_vacation:
            raise Refused(f"You are already on vacation until {_when(locked.vacation_until)}.")
        left = locked.vacation_budget(now=now).days_left
        if days > left:
            raise Refused(
                "You have no vacation days left this year."
                if left == 0
                else f"You have only {_days(left)} left this year; choose {left} or fewer."
            )
        locked.vacation_started_at, locked.vacation_until = now, now + days * DAY
        locked.save(update_fields=["vacation_started_at", "vacation_until"])
        paused = _pause_clocks(user_id=user.pk, now=now)
    user.vacation_started_at, user.vacation_until = locked.vacation_started_at, locked.vacation_until
    return paused


def vacation_end(*, user: User) -> int:
    """The player is back: their clocks run again from where they stopped. Returns the vacation days spent."""
    with transaction.atomic():
        _lock_matches(user.pk)
        locked = User.objects.select_for_update().get(pk=user.pk)
        if not locked.on_vacation:
            raise Refused("You are not on vacation.")
        spent = _end(locked, now=timezone.now())
    for name in ("vacation_started_at", "vacation_until", "vacation_days_used", "vacation_year"):
        setattr(user, name, getattr(locked, name))
    return spent


def vacation_expire() -> int:
    """The sweep: end the vacations whose days are over, and stop any clock left running for a player on vacation.

    A clock is left running when a turn came to a player in the instant their vacation began (the move's
    transaction read them as not on vacation). Safe to run twice: each vacation is ended under its
    player's lock, and only if it is still on and over. Returns how many vacations ended.
    """
    now = timezone.now()
    ended = 0
    due = User.objects.filter(vacation_started_at__isnull=False, vacation_until__lte=now).order_by("vacation_until")
    for user in due.only("pk")[:SWEEP_BATCH]:
        with transaction.atomic():
            _lock_matches(user.pk)
            locked = User.objects.select_for_update().get(pk=user.pk)
            if locked.on_vacation and locked.vacation_until is not None and locked.vacation_until <= now:
                _end(locked, now=now)
                ended += 1
    stray = Seat.objects.filter(
        awaiting=True, deadline__gt=now, user__vacation_started_at__isnull=False, match__status=Match.Status.ACTIVE
    )
    for user_id in set(stray.values_list("user_id", flat=True)[:SWEEP_BATCH]):
        with transaction.atomic():
            _lock_matches(user_id)
            if User.objects.select_for_update().filter(pk=user_id, vacation_started_at__isnull=False).exists():
                _pause_clocks(user_id=user_id, now=now)
    return ended


def auto_vacation_spend(*, seat: Seat, now: datetime) -> datetime | None:
    """For the timeout service, with the match locked: spend a vacation day instead of timing the seat out.

    When the player lets vacation days be spent automatically and has one left, the day is spent and
    the seat's deadline moves a day later (saved here); returns the new deadline. None when the
    timeout should happen. A seat whose bot plays for an absent player is not extended: its player
    has already stopped answering.
    """
    if seat.user_id is None or seat.deadline is None or seat.played_by_bot:
        return None
    user = User.objects.select_for_update().filter(pk=seat.user_id, auto_vacation=True).first()
    if user is None:
        return None
    budget = user.vacation_budget(now=now)
    extension, _ = auto_vacation_extension(days_left=budget.days_left)
    if not extension:
        return None
    user.vacation_days_used, user.vacation_year = budget.used + 1, now.year
    user.save(update_fields=["vacation_days_used", "vacation_year"])
    seat.deadline += extension
    Seat.objects.filter(pk=seat.pk).update(deadline=seat.deadline)
    log.info("Auto vacation: user %s spent a day on match %s seat %s", user.pk, seat.match_id, seat.number)
    return seat.deadline


# --- helpers -----------------------------------------------------------------


def _lock_matches(user_id: int) -> None:
    """Lock the player's active matches, in id order, before the player's row (the timeout service's order).

    A move in one of them then waits for this transaction, so no clock of theirs starts or stops meanwhile.
    """
    ids = Seat.objects.filter(user_id=user_id, match__status=Match.Status.ACTIVE).values("match_id")
    list(Match.objects.select_for_update(of=("self",)).filter(pk__in=ids).order_by("pk").values_list("pk", flat=True))


def _pause_clocks(*, user_id: int, now: datetime) -> int:
    """Each running clock of the player keeps its time left in the bank and loses its deadline.

    A deadline that has already passed is left to the timeout: a vacation does not undo it.
    """
    seats = list(
        Seat.objects.filter(user_id=user_id, awaiting=True, deadline__gt=now, match__status=Match.Status.ACTIVE).only(
            "pk", "deadline"
        )
    )
    for seat in seats:
        assert seat.deadline is not None  # the filter says so; this tells the type checker
        Seat.objects.filter(pk=seat.pk).update(bank=remaining(deadline=seat.deadline, now=now), deadline=None)
    return len(seats)


def _resume_clocks(*, user: User, now: datetime) -> int:
    """Each awaited seat of the player without a deadline gets one, from its bank (the match's clock decides)."""
    seats = (
        Seat.objects.filter(
            user=user, awaiting=True, deadline__isnull=True, absent=False, match__status=Match.Status.ACTIVE
        )
        .select_related("match")
        .defer("match__state", "match__recent_moves", "match__recent_chat")
    )
    resumed = 0
    for seat in seats:
        seat.user = user
        deadline = seat.turn_deadline(clock=seat.match.clock, now=now)
        if deadline is not None:
            Seat.objects.filter(pk=seat.pk).update(deadline=deadline)
            transaction.on_commit(partial(deadline_schedule, seat_id=seat.pk, deadline=deadline))
            resumed += 1
    return resumed


def _end(user: User, *, now: datetime) -> int:
    """End the vacation of the locked ``user`` at ``now`` (or at its planned end, if that came first)."""
    assert user.vacation_started_at is not None and user.vacation_until is not None
    start, end = user.vacation_started_at, min(now, user.vacation_until)
    spent = days_spent(start, end)
    budget = user.vacation_budget(now=start)
    # Never above the allowance: the days were checked at the start, and a vacation cannot outlast them.
    user.vacation_days_used = min(budget.used + spent, budget.yearly_days)
    user.vacation_year = start.year
    user.vacation_started_at = user.vacation_until = None
    user.save(update_fields=["vacation_days_used", "vacation_year", "vacation_started_at", "vacation_until"])
    _resume_clocks(user=user, now=now)
    return spent


def _when(moment: datetime | None) -> str:
    return "further notice" if moment is None else dateformat.format(timezone.localtime(moment), "l j F, H:i")


def _days(count: int) -> str:
    return f"{count} vacation day" if count == 1 else f"{count} vacation days"
