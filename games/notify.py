"""Mail that helps without flooding: presence at the table, held turn mail, reminders, the match-over mail, digests.

- Presence: a seat notes when its player last had the table open (``seat_seen``), at most once a minute.
- Turn mail waits out a grace period (``GAMES_TURN_MAIL_GRACE_SECONDS``) and is dropped at send time
  (``turn_mail_verdict``) if the seat has moved since: a player who answers at once gets none. A
  player at the table only delays it, to a grace period after they were last seen there.
- Reminders before a deadline (the player's ``reminder_offsets``) go from a sweep once a minute, each at
  most once per run of the clock, held back during the player's quiet hours unless the deadline would
  pass first.
- The match-over mail goes once to each human seat whose player wants mail, in the finishing move's
  transaction; the daily digest at each player's own hour in their own time zone.

``games.services`` imports this module inside its functions (this one imports the services).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from accounts.models import REMINDER_CHOICES, User
from games.clocks import deliver_at, is_at_table
from games.models import Mail, Match, Move, Seat
from games.presenters import presenter_for
from games.services import _absolute, _outbox_add, _render_mail, digest_queue, mail_safe

log = logging.getLogger(__name__)

# A seat's last_seen is written at most this often: one UPDATE a minute per player at the table, not per poll.
PRESENCE_EVERY = timedelta(seconds=60)
# What the table and the digest leave in the database.
HEAVY_MATCH_FIELDS = ("match__state", "match__recent_moves", "match__recent_chat", "match__options")


def turn_mail_grace() -> timedelta:
    """How long a turn mail waits for the player to answer before it goes (default 10 minutes)."""
    return timedelta(seconds=getattr(settings, "GAMES_TURN_MAIL_GRACE_SECONDS", 600))


def presence_window() -> timedelta:
    """A player seen this recently counts as at the table (default 5 minutes)."""
    return timedelta(seconds=getattr(settings, "GAMES_PRESENCE_WINDOW_SECONDS", 300))


def seat_at_table(seat: Seat, now: datetime) -> bool:
    """Whether the seat's player had the table open within the presence window before ``now``, or since."""
    return is_at_table(last_seen=seat.last_seen, now=now, window=presence_window())


# --- presence ----------------------------------------------------------------


def seat_seen(*, seat: Seat, now: datetime | None = None) -> bool:
    """The seat's player has the table open: note it, with at most one UPDATE a minute; True if written.

    The condition is repeated in the UPDATE, so two polls at once write once.
    """
    now = now or timezone.now()
    if seat.last_seen is not None and now - seat.last_seen < PRESENCE_EVERY:
        return False
    stale = Q(last_seen__isnull=True) | Q(last_seen__lt=now - PRESENCE_EVERY)
    Seat.objects.filter(stale, pk=seat.pk).update(last_seen=now)
    seat.last_seen = now
    return True


# --- turn mail -----------------------------------------------------------------


@dataclass(frozen=True)
class TurnMailVerdict:
    """What becomes of a held turn mail as it falls due: it goes, it is cancelled (why), or it waits (until when)."""

    cancel: str = ""
    wait_until: datetime | None = None


def turn_mail_verdict(*, mail: Mail, now: datetime) -> TurnMailVerdict:
    """Read when a held turn mail is claimed for sending.

    Cancelled, with the reason for ``last_error``, when the player no longer needs it: the seat has moved
    since the turn began (or the match ended), the bot plays it, or the player no longer wants a mail
    for each turn. Presence only delays it: a player seen at the table within the grace period is
    watching the turn, so the mail waits until a grace period after they were last seen, and goes
    then if the turn is still theirs. A player who looked at the table just before their turn began,
    or who closes the tab without moving, is told all the same.
    """
    if mail.match_id is None or mail.seat_number is None or mail.turn_version is None:
        return TurnMailVerdict()
    seat = (
        Seat.objects.filter(match_id=mail.match_id, number=mail.seat_number)
        .select_related("match", "user")
        .only("number", "awaiting", "absent", "bot_level", "last_seen", "match__status", "user__notify")
        .first()
    )
    if seat is None or seat.match.status != Match.Status.ACTIVE:
        return TurnMailVerdict(cancel="The match is over.")
    moved = Move.objects.filter(match_id=mail.match_id, seat=mail.seat_number, ply__gte=mail.turn_version)
    if not seat.awaiting or moved.exists():
        return TurnMailVerdict(cancel="The seat has moved since the turn began.")
    if seat.played_by_bot:
        return TurnMailVerdict(cancel="The bot plays this seat while its player is absent.")
    if seat.user is None or seat.user.notify != User.Notify.EACH_TURN:
        return TurnMailVerdict(cancel="The player no longer wants a mail for each turn.")
    if seat.last_seen is not None and seat.last_seen + turn_mail_grace() > now:
        return TurnMailVerdict(wait_until=seat.last_seen + turn_mail_grace())
    return TurnMailVerdict()


# --- the match is over -----------------------------------------------------------


def match_over_mails(*, match: Match, seats: Sequence[Seat]) -> list[Mail]:
    """The "match over" mail for each human seat whose player wants mail, not yet saved: once per seat (its key).

    A player at the table when the match ends sees the result there and gets none. Built from what the
    finishing move read (the seats and their players), with no query.
    """
    now = timezone.now()
    presenter = presenter_for(match.game)
    names = [mail_safe(seat.name) for seat in seats]
    title, url = f"{match.title} #{match.pk}", _absolute(match.get_absolute_url())
    mails = []
    for seat in seats:
        user = seat.user
        if seat.is_bot or user is None or user.notify == User.Notify.NEVER:
            continue
        if seat_at_table(seat, now):
            continue
        standings = presenter.result_table(match.outcome, names, seat.number)
        summary = presenter.result_summary(match.outcome, names, seat.number)
        context = {
            "name": mail_safe(user.name),
            "title": title,
            "url": url,
            "place": summary["place"],
            "winners": summary["winners"],
            "standings": standings,
        }
        subject, body, html = _render_mail("over", context)
        mails.append(
            Mail(
                recipient=user.email,
                user=user,
                subject=subject,
                body=body,
                html=html,
                dedupe_key=f"over:{match.pk}:{seat.number}",
            )
        )
    return mails


# --- reminders -----------------------------------------------------------------


def reminder_horizon() -> timedelta:
    """The furthest ahead of a deadline a player may be reminded: the largest choice on the profile."""
    hours = getattr(settings, "GAMES_REMINDER_HORIZON_HOURS", max(hours for hours, _label in REMINDER_CHOICES))
    return timedelta(hours=hours)


def reminders_queue(*, now: datetime) -> int:
    """Write the reminders due now to the outbox; returns how many.

    One range scan of the running deadlines within the horizon. A seat's reminder for an offset is due
    once ``deadline - offset`` has passed, if that moment falls after its clock started running
    (a 24-hour reminder is no use on a turn that starts with 24 hours), and is sent at the end of the
    player's quiet hours if it falls in them, unless the deadline would pass first. Of several due at
    once (a sweep that was down) only the nearest the deadline goes. Nobody is reminded while at the
    table or on vacation (their clock is stopped anyway). The key names the seat, the start of the
    clock's run and the offset: once each per turn, across any number of sweeps.
    """
    seats = (
        Seat.objects.filter(
            deadline__gt=now,
            deadline__lte=now + reminder_horizon(),
            awaiting=True,
            absent=False,
            user__isnull=False,
            user__vacation_started_at__isnull=True,
            match__status=Match.Status.ACTIVE,
        )
        .select_related("match", "user")
        .defer(*HEAVY_MATCH_FIELDS, "user__password")
        .order_by("deadline")
    )
    due: list[tuple[Seat, timedelta, str]] = []
    for seat in seats[: getattr(settings, "GAMES_REMINDER_SWEEP_LIMIT", 5000)]:
        offset = _reminder_due(seat, now)
        if offset is not None:
            due.append((seat, offset, _reminder_key(seat, offset)))
    sent = set(Mail.objects.filter(dedupe_key__in=[key for *_rest, key in due]).values_list("dedupe_key", flat=True))
    count = 0
    for seat, offset, key in due:
        if key not in sent and _reminder_mail(seat, offset, key, now) is not None:
            count += 1
    return count


def _clock_started(seat: Seat) -> datetime | None:
    """When the seat's clock began this run: its deadline less the bank it ran on (the initial time at first)."""
    clock = seat.match.clock
    if clock is None or seat.deadline is None:
        return None
    return seat.deadline - (clock.initial if seat.bank is None else seat.bank)


def _reminder_due(seat: Seat, now: datetime) -> timedelta | None:
    """The offset whose reminder should go now, the nearest the deadline of those due; None for none."""
    user, started, deadline = seat.user, _clock_started(seat), seat.deadline
    if user is None or started is None or deadline is None:
        return None
    if seat_at_table(seat, now):
        return None
    tz = _zone(user)
    ready = []
    for offset in user.reminder_offsets:
        when = deadline - offset
        if when <= started:
            continue
        if user.has_quiet_hours:
            assert user.quiet_start is not None and user.quiet_end is not None  # has_quiet_hours says so
            at = deliver_at(due=when, deadline=deadline, tz=tz, quiet_start=user.quiet_start, quiet_end=user.quiet_end)
        else:
            at = when
        if at is not None and at <= now:
            ready.append(offset)
    return min(ready, default=None)


def _reminder_key(seat: Seat, offset: timedelta) -> str:
    started = _clock_started(seat)
    assert started is not None  # only seats with a running clock are due
    return f"remind:{seat.pk}:{int(started.timestamp())}:{int(offset.total_seconds()) // 60}"


def _reminder_mail(seat: Seat, offset: timedelta, key: str, now: datetime) -> Mail | None:
    user, match = seat.user, seat.match
    assert user is not None and seat.deadline is not None
    context = {
        "name": mail_safe(user.name),
        "title": f"{match.title} #{match.pk}",
        "url": _absolute(match.get_absolute_url()),
        "deadline": seat.deadline,
        "now": now,
        "zone": _zone(user),
    }
    subject, body, html = _render_mail("reminder", context)
    return _outbox_add(key=key, recipient=user.email, user=user, subject=subject, body=body, html=html)


def _zone(user: User) -> ZoneInfo:
    try:
        return ZoneInfo(user.time_zone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        log.warning("User %s has an unknown time zone %r; using UTC", user.pk, user.time_zone)
        return ZoneInfo("UTC")


# --- the daily digest ------------------------------------------------------------


def digests_queue(*, now: datetime) -> int:
    """The daily digest for every daily-digest player for whom it is now their digest hour, on their own clock.

    Run every hour on the hour. Two queries: the time zones of the players concerned, then their awaited
    seats in the zones where the local hour is their digest hour. The key (player, local date) keeps it
    to one a day. Returns how many were written.
    """
    awaiting = Seat.objects.filter(awaiting=True, match__status=Match.Status.ACTIVE, user__notify=User.Notify.DAILY)
    zones = set(awaiting.order_by().values_list("user__time_zone", flat=True).distinct())
    local = {}
    for name in zones:
        try:
            local[name] = now.astimezone(ZoneInfo(name))
        except (ZoneInfoNotFoundError, ValueError):
            log.warning("Skipping the digest for players with an unknown time zone %r", name)
    if not local:
        return 0
    hour_here = Q()
    for name, moment in local.items():
        hour_here |= Q(user__time_zone=name, user__digest_hour=moment.hour)
    seats = (
        awaiting.filter(hour_here)
        .select_related("match", "user")
        .defer(*HEAVY_MATCH_FIELDS, "user__password")
        .order_by("user_id", "match_id")
    )
    by_user: dict[User, list[Seat]] = {}
    for seat in seats:
        if seat.user is not None:  # the filter on the player's choice says so; this tells the type checker
            by_user.setdefault(seat.user, []).append(seat)
    count = 0
    for user, user_seats in by_user.items():
        day = local[user.time_zone].date().isoformat()
        count += digest_queue(user=user, day=day, seats=user_seats) is not None
    return count
