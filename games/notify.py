"""Mail that helps without flooding: presence at the table, reminders, the match-over and absence mails, digests.

- Presence: a seat notes when its player last had the table open (``seat_seen``), at most once a minute.
  A player at the table only delays a turn mail (``games.outbox.turn_mail_verdict``, which holds each
  turn mail for ``GAMES_TURN_MAIL_GRACE_SECONDS`` and drops it at send time if the seat has moved since).
- Reminders before a deadline (the player's ``reminder_offsets``) go from a sweep once a minute, each at
  most once per run of the clock, held back during the player's quiet hours unless the deadline would
  pass first.
- The match-over mail goes once to each human seat whose player wants mail, in the finishing move's
  transaction; the absence mail once per absence; the daily digest at each player's own hour in their
  own time zone; the test notice when a player asks for one from their profile.
- Invitation mails go to an address, not an account, within limits per inviter and per address
  (``check_invitation_limits``), so that they are not a way to mail anyone.

This module decides who is owed which mail and what it says; ``games.outbox`` writes, holds and sends
it, and the words are in ``templates/games/mail/``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.db.models import Count, Q
from django.urls import reverse
from django.utils import timezone

from accounts.models import REMINDER_CHOICES, User
from games.clocks import deliver_at, is_at_table
from games.errors import Refused
from games.models import Mail, Match, Seat
from games.outbox import absolute_url, mail_queue, mail_render, mail_row, mail_safe
from games.presenters import presenter_for
from games.push import push_send

log = logging.getLogger(__name__)

# A seat's last_seen is written at most this often: one UPDATE a minute per player at the table, not per poll.
PRESENCE_EVERY = timedelta(seconds=60)
# What the table and the digest leave in the database.
HEAVY_MATCH_FIELDS = ("match__state", "match__recent_moves", "match__recent_chat", "match__options")


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


# --- the match is over -----------------------------------------------------------


def match_over_mails(*, match: Match, seats: Sequence[Seat]) -> list[Mail]:
    """The "match over" mail for each human seat whose player wants mail, not yet saved: once per seat (its key).

    A player at the table when the match ends sees the result there and gets none. Built from what the
    finishing move read (the seats and their players), with no query.
    """
    now = timezone.now()
    presenter = presenter_for(match.game)
    names = [mail_safe(seat.name) for seat in seats]
    title, url = f"{match.title} #{match.pk}", absolute_url(match.get_absolute_url())
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
        subject, body, html = mail_render("games/mail/over", context)
        key = f"over:{match.pk}:{seat.number}"
        mails.append(mail_row(key=key, recipient=user.email, user=user, subject=subject, body=body, html=html))
    return mails


# --- absence -------------------------------------------------------------------


def absence_mail(*, match: Match, seat: Seat, timeouts: int) -> Mail | None:
    """Tell the player the bot now plays for them, and where to take the seat back.

    Sent whatever their turn-mail choice: it is about their seat, not a turn, and comes once per absence.
    """
    user = seat.user
    if user is None:
        return None
    return mail_queue(
        key=f"absent:{seat.pk}:{match.version}",
        recipient=user.email,
        user=user,
        template="games/mail/absent",
        context={
            "user": user,
            "name": mail_safe(user.name),
            "title": f"{match.title} #{match.pk}",
            "timeouts": timeouts,
            "url": absolute_url(match.get_absolute_url()),
        },
    )


# --- invitations -----------------------------------------------------------------


def check_invitation_limits(*, inviter: User | None, emails: list[str], new: bool = True) -> None:
    """Refuse invitation mails beyond the limits, before anything is written: they are not a way to mail anyone.

    ``new`` invitations count towards the open ones; a mail sent again for an open invitation does not.
    Counted from the database (the seats and the outbox's invitation mails of the last day), so the limits
    hold across processes; the inviter's row is locked so that two of their requests count one after the
    other. ``inviter=None`` (a match the site makes itself) is held to the per-address limit only. The
    sentences are the same whether or not an address has an account.
    """
    if not emails:
        return
    since = timezone.now() - timedelta(days=1)
    if inviter is not None:
        User.objects.select_for_update().filter(pk=inviter.pk).first()
        most = getattr(settings, "GAMES_INVITATIONS_PENDING_MAX", 20)
        mine = Seat.objects.filter(match__created_by=inviter, match__status=Match.Status.WAITING, joined=False)
        pending = mine.exclude(invite_token="").count()
        if new and pending + len(emails) > most:
            raise Refused(
                f"You can have at most {_invitations(most)} waiting for an answer; you have {pending}. "
                "Wait until some are answered or expire, or invite fewer players."
            )
        most = getattr(settings, "GAMES_INVITATIONS_PER_DAY", 30)
        sent = Mail.objects.filter(inviter=inviter, created_at__gte=since).count()
        if sent + len(emails) > most:
            raise Refused(
                f"You can send at most {_invitations(most)} a day; you have sent {sent} since this time yesterday."
            )
    most = getattr(settings, "GAMES_INVITATIONS_PER_ADDRESS_PER_DAY", 3)
    # "invite:" and "invite-again:": every invitation mail, from whoever sent it.
    mailed = Mail.objects.filter(recipient__in=emails, dedupe_key__startswith="invite", created_at__gte=since)
    full = mailed.values("recipient").annotate(n=Count("pk")).filter(n__gte=most).order_by("recipient")
    email = full.values_list("recipient", flat=True).first()
    if email is not None:
        raise Refused(
            f"{email} has had {_invitations(most)} to Parlour in the last day, the most one address gets "
            "from everyone together; invite it again tomorrow."
        )


def _invitations(count: int) -> str:
    return f"{count} invitation" if count == 1 else f"{count} invitations"


def invite_mail(*, match: Match, seat: Seat, key: str) -> Mail | None:
    """The invitation mail to the seat's address; the caller has checked the limits (``check_invitation_limits``).

    No account is looked up for the address: the mail is the same whether or not it has one.
    """
    inviter = match.created_by
    return mail_queue(
        key=key,
        recipient=seat.invite_email,
        user=None,
        inviter=inviter,
        template="games/mail/invite",
        context={
            "match": match,
            "seat": seat,
            # Chosen by the inviter: quoted in the body, never in the subject, without control characters.
            "inviter_name": mail_safe(inviter.name) if inviter is not None else "",
            "url": absolute_url(reverse("games-invite", args=[seat.invite_token])),
        },
    )


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
        "url": absolute_url(match.get_absolute_url()),
        "settings_url": absolute_url(reverse("accounts-profile")),
        "deadline": seat.deadline,
        "now": now,
        "zone": _zone(user),
    }
    return mail_queue(key=key, recipient=user.email, user=user, template="games/mail/reminder", context=context)


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


def digest_queue(*, user: User, day: str, seats: list[Seat]) -> Mail | None:
    """The daily digest: one mail per user per day, listing the matches awaiting them."""
    return mail_queue(
        key=f"digest:{user.pk}:{day}",
        recipient=user.email,
        user=user,
        template="games/mail/digest",
        context={
            "user": user,
            "name": mail_safe(user.name),
            "seats": seats,
            "url": absolute_url(reverse("games-dashboard")),
        },
    )


# --- the test notice -------------------------------------------------------------


def notice_test(*, user: User) -> str:
    """A test notice the way the player chose to hear of turns; the sentence says what was sent where."""
    sent, pushed, url = [], 0, absolute_url(reverse("accounts-profile"))
    if user.turn_push_wanted:
        payload = {"title": "Parlour test notice", "body": "This is how Parlour tells you it is your turn.", "url": url}
        pushed = push_send(user=user, payload=payload)
        sent.append(f"a browser notification to {pushed} browser{'s' if pushed != 1 else ''}")
    # As with a turn: a player who chose push alone, with no browser that took it, gets the mail.
    if user.turn_mail_wanted or pushed == 0:
        context = {"name": mail_safe(user.name), "url": url}
        key = f"notice-test:{user.pk}:{timezone.now().isoformat()}"
        mail_queue(key=key, recipient=user.email, user=user, template="games/mail/notice_test", context=context)
        sent.append(f"a mail to {user.email}")
    return "Test notice sent: " + " and ".join(sent) + "."
