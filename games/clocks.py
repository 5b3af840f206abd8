"""Match clocks, vacations, reminders and quiet hours: pure time arithmetic, no database.

A seat's clock is a bank of time. While the seat is awaited its ``deadline`` is the
moment the bank runs out; after each move the bank left over earns the increment,
up to the cap. One model covers both styles players know: "1 day per move" is a bank
that refills to a full day (initial = increment = cap), Fischer "24 hours + 4 hours a
move up to 3 days" is initial 24 h, increment 4 h, cap 72 h.

Every datetime here is timezone-aware; a naive one raises ``ValueError`` instead of
being read silently in the server's zone. Arithmetic is done in UTC (Python adds and
subtracts two datetimes of the same zone on the wall clock, which is an hour off across
a daylight saving change), and the datetimes returned are in UTC.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Final
from zoneinfo import ZoneInfo

HOUR: Final = timedelta(hours=1)
DAY: Final = timedelta(days=1)

# Limits of a custom time control on the new match form.
MIN_INITIAL: Final = HOUR
MAX_INITIAL: Final = timedelta(days=30)
MAX_CAP: Final = timedelta(days=60)
# The same limits in hours, as the forms take them: each custom clock field's bounds, which the page also
# hands the browser (``min``/``max``), so that it refuses what ``time_control_from_form`` would. The time
# per move is at most the starting time, and the most saved up at least the starting time.
CUSTOM_HOURS: Final[dict[str, tuple[float, float]]] = {
    "initial": (MIN_INITIAL / HOUR, MAX_INITIAL / HOUR),
    "increment": (0.0, MAX_INITIAL / HOUR),
    "cap": (MIN_INITIAL / HOUR, MAX_CAP / HOUR),
}
# What a player is told about a custom clock's hours; the forms' field errors say the same.
HOURS_NOT_NUMBERS: Final = "Enter the times as numbers of hours."
INITIAL_OUT_OF_RANGE: Final = "The starting time must be between 1 hour and 30 days (720 hours)."
INCREMENT_OUT_OF_RANGE: Final = "The time added per move must be between 0 and the starting time."
CAP_BELOW_INITIAL: Final = "The most time a player can save up must be at least the starting time."
CAP_TOO_LONG: Final = "The most time a player can save up is 60 days (1440 hours)."

DEFAULT_REMINDER_OFFSETS: Final = (timedelta(hours=24), timedelta(hours=2))
DEFAULT_TURN_MAIL_GRACE: Final = timedelta(minutes=10)
DEFAULT_PRESENCE_WINDOW: Final = timedelta(minutes=5)


def _utc(value: datetime, name: str) -> datetime:
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{name} must be a timezone-aware datetime, got {value!r}.")
    return value.astimezone(UTC)


# --- Time controls ------------------------------------------------------------------


@dataclass(frozen=True)
class TimeControl:
    """How much time a seat has: ``initial`` to start, ``increment`` added after each move, never above ``cap``."""

    initial: timedelta
    increment: timedelta
    cap: timedelta

    def __post_init__(self) -> None:
        if self.initial <= timedelta(0):
            raise ValueError("A clock needs some starting time.")
        if self.increment < timedelta(0):
            raise ValueError("The time added per move cannot be negative.")
        if self.cap < self.initial:
            raise ValueError("The most time a player can save up cannot be less than the starting time.")
        if self.cap < self.increment:
            raise ValueError("The most time a player can save up cannot be less than the time added per move.")

    @property
    def is_per_move(self) -> bool:
        """A fixed time for every move: the bank refills to the same full amount after each one."""
        return self.initial == self.increment == self.cap

    def to_json(self) -> dict[str, int]:
        """Whole seconds, for a JSONField; a match without a clock stores ``None`` instead."""
        return {
            "initial": int(self.initial.total_seconds()),
            "increment": int(self.increment.total_seconds()),
            "cap": int(self.cap.total_seconds()),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object] | None) -> TimeControl | None:
        """The inverse of ``to_json``; ``None`` (a casual match) gives ``None``."""
        if data is None:
            return None
        return cls(
            initial=_seconds(data, "initial"),
            increment=_seconds(data, "increment"),
            cap=_seconds(data, "cap"),
        )

    def describe(self) -> str:
        """A short English sentence for the match page: "1 day per move", "24 hours, +4 hours a move, up to 3 days"."""
        if self.is_per_move:
            return f"{_span(self.initial, days_from=DAY)} per move"
        if not self.increment:
            return f"{_span(self.initial)} for the whole match"
        return f"{_span(self.initial)}, +{_span(self.increment)} a move, up to {_span(self.cap)}"


def _seconds(data: Mapping[str, object], key: str) -> timedelta:
    value = data.get(key)
    # bool is an int in Python; a stored True is corruption, not one second.
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"The stored time control has no whole number of seconds for {key!r}: {value!r}.")
    return timedelta(seconds=value)


def _span(value: timedelta, *, days_from: timedelta = 2 * DAY) -> str:
    """'3 days', '24 hours', '1 hour 30 minutes'.

    Next to an increment in hours, "24 hours" compares at a glance where "1 day" does not,
    so whole days are named as days only from two days on unless the caller says otherwise.
    """
    seconds = int(value.total_seconds())
    if value >= days_from and seconds % 86400 == 0:
        return _plural(seconds // 86400, "day")
    hours, rest = divmod(seconds, 3600)
    minutes = rest // 60
    parts = [_plural(hours, "hour")] if hours else []
    if minutes or not hours:
        parts.append(_plural(minutes, "minute"))
    return " ".join(parts)


def _plural(count: int, unit: str) -> str:
    return f"{count} {unit}" if count == 1 else f"{count} {unit}s"


def _per_move(days: int) -> TimeControl:
    return TimeControl(initial=days * DAY, increment=days * DAY, cap=days * DAY)


_FISCHER_24_4_72: Final = TimeControl(initial=24 * HOUR, increment=4 * HOUR, cap=72 * HOUR)

# Ordered as the new match form lists them; the labels are the controls' own descriptions.
PRESETS: Final[dict[str, tuple[str, TimeControl | None]]] = {
    "none": ("Casual, no clock", None),
    "1d": (_per_move(1).describe(), _per_move(1)),
    "2d": (_per_move(2).describe(), _per_move(2)),
    "3d": (_per_move(3).describe(), _per_move(3)),
    "7d": (_per_move(7).describe(), _per_move(7)),
    "fischer-24-4-72": (_FISCHER_24_4_72.describe(), _FISCHER_24_4_72),
}


def time_control_from_form(hours_initial: float, hours_increment: float, hours_cap: float) -> TimeControl:
    """A custom time control from the form's hour fields.

    Raises ``ValueError`` with a sentence the form shows to the player as it is.
    """
    for value in (hours_initial, hours_increment, hours_cap):
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise ValueError(HOURS_NOT_NUMBERS)
    # Checked in hours, before any timedelta is made: timedelta(hours=1e30) is an OverflowError, not a refusal.
    low, high = CUSTOM_HOURS["initial"]
    if not low <= hours_initial <= high:
        raise ValueError(INITIAL_OUT_OF_RANGE)
    if not 0 <= hours_increment <= hours_initial:
        raise ValueError(INCREMENT_OUT_OF_RANGE)
    if hours_cap < hours_initial:
        raise ValueError(CAP_BELOW_INITIAL)
    if hours_cap > CUSTOM_HOURS["cap"][1]:
        raise ValueError(CAP_TOO_LONG)
    initial, increment, cap = (_whole_seconds(timedelta(hours=h)) for h in (hours_initial, hours_increment, hours_cap))
    # Whole seconds, so the control survives to_json() unchanged.
    return TimeControl(initial=initial, increment=increment, cap=cap)


def _whole_seconds(value: timedelta) -> timedelta:
    return timedelta(seconds=round(value.total_seconds()))


# --- Bank arithmetic ----------------------------------------------------------------


def deadline_for(*, now: datetime, bank: timedelta) -> datetime:
    """When a seat awaited from ``now`` with ``bank`` left runs out of time."""
    if bank < timedelta(0):
        raise ValueError(f"A bank cannot be negative, got {bank}.")
    return _utc(now, "now") + bank


def bank_after_move(*, tc: TimeControl, deadline: datetime, now: datetime) -> timedelta:
    """The bank a seat keeps after moving at ``now``: time left plus the increment, at most the cap.

    A move made after the deadline (a late worker, the timeout move itself) had no time
    left, so it keeps just the increment: the bank is never negative.
    """
    return min(tc.cap, remaining(deadline=deadline, now=now) + tc.increment)


def remaining(*, deadline: datetime, now: datetime) -> timedelta:
    """Time left on a running clock, zero once the deadline has passed."""
    return max(_utc(deadline, "deadline") - _utc(now, "now"), timedelta(0))


# --- Vacation -----------------------------------------------------------------------
# (The yearly budget is a fact about the player: accounts.vacation_budget.)


def days_spent(start: datetime, end: datetime) -> int:
    """Vacation days a vacation from ``start`` to ``end`` costs.

    Every started 24 hours counts as a whole day, and any vacation costs at least 1 day,
    even one switched off a minute later: otherwise switching vacation on and off would
    stop the clocks for free.
    """
    span = _utc(end, "end") - _utc(start, "start")
    if span < timedelta(0):
        raise ValueError("A vacation cannot end before it starts.")
    return max(1, math.ceil(span / DAY))


def auto_vacation_extension(*, days_left: int) -> tuple[timedelta, int]:
    """Extension when a deadline would pass for a player who lets vacation days be spent automatically.

    Returns the time to add to the deadline and the days left afterwards: one day
    while any are left, nothing once the budget is spent (the timeout then happens).
    """
    if days_left < 0:
        raise ValueError("Vacation days left cannot be negative.")
    if days_left == 0:
        return timedelta(0), 0
    return DAY, days_left - 1


# --- Reminders and quiet hours ------------------------------------------------------


def in_quiet_hours(when: datetime, tz: ZoneInfo, start: time, end: time) -> bool:
    """Whether ``when`` falls in the quiet hours ``[start, end)`` of the player's local clock.

    The range may cross midnight (22:00-07:00). It is read on the wall clock in ``tz``,
    so quiet hours keep their local times across daylight saving changes. ``start ==
    end`` means no quiet hours at all.
    """
    local = _utc(when, "when").astimezone(tz).time()
    if start == end:
        return False
    if start < end:
        return start <= local < end
    return local >= start or local < end


def deliver_at(
    *, due: datetime, deadline: datetime, tz: ZoneInfo, quiet_start: time, quiet_end: time
) -> datetime | None:
    """When to send a notice due at ``due`` about a turn that times out at ``deadline``.

    A notice due inside quiet hours is held until they end, unless the deadline would
    pass by then: it is then sent at ``due``, as a player who would otherwise lose the
    turn is better woken. ``None`` when ``due`` is already after the deadline.
    """
    due, deadline = _utc(due, "due"), _utc(deadline, "deadline")
    if due > deadline:
        return None
    if not in_quiet_hours(due, tz, quiet_start, quiet_end):
        return due
    quiet_over = _quiet_hours_end(due, tz, quiet_end)
    return quiet_over if quiet_over < deadline else due


def _quiet_hours_end(when: datetime, tz: ZoneInfo, end: time) -> datetime:
    """The first instant after ``when`` at which the local clock reaches ``end``.

    Tried in order: today, today's repeat of the same time when the clocks go back, tomorrow.
    """
    today = when.astimezone(tz).date()
    for day in (today, today + timedelta(days=1)):
        for fold in (0, 1):
            candidate = _instant_at(day, end, tz, fold=fold)
            if candidate > when:
                return candidate
    raise AssertionError("The local clock reaches every time of day within two days.")  # pragma: no cover


def _instant_at(day: date, wall: time, tz: ZoneInfo, *, fold: int) -> datetime:
    """The instant (in UTC) the clock in ``tz`` shows ``wall`` on ``day``, or leaps past it.

    When the clocks go back, a wall time happens twice: ``fold`` picks the first (0) or
    the second (1). When they go forward, the wall time never happens; the clock reaches
    it at the leap itself, which lies between the two readings of the missing time.
    """
    local = datetime.combine(day, wall, tzinfo=tz).replace(fold=fold)
    utc = local.astimezone(UTC)
    if utc.astimezone(tz).replace(tzinfo=None) == local.replace(tzinfo=None, fold=0):
        return utc
    # A skipped time read with the offset after the leap (fold=1) lands before it; with the one before, after it.
    before_leap = local.replace(fold=1).astimezone(UTC).replace(microsecond=0)
    after_leap = local.replace(fold=0).astimezone(UTC)
    offset_before = before_leap.astimezone(tz).utcoffset()
    low, high = 0, math.ceil((after_leap - before_leap).total_seconds())
    while high - low > 1:
        middle = (low + high) // 2
        if (before_leap + timedelta(seconds=middle)).astimezone(tz).utcoffset() == offset_before:
            low = middle
        else:
            high = middle
    return before_leap + timedelta(seconds=high)


# --- Turn mail and presence ---------------------------------------------------------


def turn_mail_due(*, turn_started: datetime, grace: timedelta) -> datetime:
    """When a turn mail goes out if the turn is still unanswered: a player who answers within ``grace`` gets none."""
    if grace < timedelta(0):
        raise ValueError("The grace period before a turn mail cannot be negative.")
    return _utc(turn_started, "turn_started") + grace


def is_at_table(*, last_seen: datetime | None, now: datetime, window: timedelta) -> bool:
    """Whether a player saw the match page within ``window`` of ``now``: such a player needs no turn mail.

    A ``last_seen`` slightly after ``now`` (clocks of two web servers) still counts as present.
    """
    if last_seen is None:
        return False
    return _utc(now, "now") - _utc(last_seen, "last_seen") <= window
