"""The outbox: a mail's whole life, from the row a service writes to the message that leaves.

To change a mail, open this module (how it is written, held, rendered and sent) and its templates:
``templates/games/mail/<name>_subject.txt``, ``<name>.txt`` and ``<name>.html`` (the leagues' under
``templates/leagues/mail/``, text only). What a mail says and when it is owed is decided by whoever
writes it (``games.services``, ``games.notify``, ``leagues.clubs``, ``leagues.seasons``); how it goes is decided here.

- Writing: ``mail_queue`` renders a mail (``mail_render``) and ``mail_add`` writes it to the outbox, once
  per dedupe key, and hands it to the sender when the transaction commits. Every app's mail goes through
  them. A change at a table writes its mails (held turn mails, the match-over mails) in one INSERT
  (``mails_add``), from rows built the same way (``mail_row``).
- The turn mail: the move writes it with its subject only, held for a grace period (``turn_mail_build``).
  When it falls due, ``turn_mail_verdict`` cancels it if the seat has moved, or holds it again while the
  player is at the table; otherwise its text is written from the match as it is then
  (``turn_mail_render``): the seat's short view and a signed link per move (``games.maillinks``).
- Sending: ``mail_attempt`` claims a row with a conditional UPDATE, asks the verdict, pushes a turn notice
  (``games.push``), writes and delivers the mail, and ends it ``sent``, ``failed`` or ``cancelled``, or
  raises ``MailRetry`` for the task to try again (``games.tasks.mail_send``). ``mails_due`` and
  ``mails_lost`` find the rows the beat schedule's tasks queue again.

User-chosen text goes into a mail through ``mail_safe``, and every link through ``absolute_url``.
"""

from __future__ import annotations

import json
import logging
import smtplib
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.template import TemplateDoesNotExist
from django.template.loader import get_template, render_to_string
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.clocks import turn_mail_due
from games.followups import enqueue
from games.maillinks import MAX_LINKS, link_token, link_url
from games.models import Mail, Match, Move, Seat
from games.presenters import Presenter, presenter_for
from games.push import turn_notice
from games.selectors import match_and_seats

log = logging.getLogger(__name__)

MAIL_MAX_ATTEMPTS = 5
# A pending mail this old lost its message (a broker outage, a failed publish): queue it again.
MAIL_STALE_AFTER = timedelta(minutes=5)
# A held mail (a turn mail's grace period) still pending this long after its time lost its message.
MAIL_HELD_LATE_AFTER = timedelta(minutes=1)
# The most held mails ``mails_due`` hands out in one run; the rest wait for the next run, half a minute later.
MAIL_DUE_BATCH = 2000
# A mail claimed for sending this long ago lost its worker: an attempt ends far sooner (EMAIL_TIMEOUT).
MAIL_SENDING_STALE_AFTER = timedelta(minutes=10)
# What the mail server or the network may get over; anything else is wrong with the mail itself.
MAIL_TRANSIENT_ERRORS = (smtplib.SMTPException, OSError)
PUSHED_INSTEAD = "The player takes turn notices as browser notifications only: sent as a push instead."
RENDER_FAILED = "The turn mail could not be written:"
AT_THE_TABLE = "The player is at the table: the mail waits until a grace period after they were last seen there."
WORKER_LOST = "The worker sending this mail stopped before it finished."
# What "the others just did" in a turn mail: at most this many log lines, the newest.
MAX_SINCE = 12


# --- what goes into a mail ---------------------------------------------------

# None belongs in a mail, and in a header a line break is an injection. Control characters (line breaks,
# tabs, NUL) and line or paragraph separators part words, so they become a space; format characters
# (right-to-left overrides, zero-width spaces) are invisible and go.
_BREAKS = frozenset({"Cc", "Zl", "Zp"})


def mail_safe(text: str) -> str:
    """User-chosen text (a display name) as it may appear in a mail: on one line, without control characters."""
    kept = []
    for ch in text:
        category = unicodedata.category(ch)
        if category in _BREAKS:
            kept.append(" ")
        elif category != "Cf":
            kept.append(ch)
    return " ".join("".join(kept).split())


def absolute_url(path: str) -> str:
    """A path of this site as a mail or a push links to it: under ``SITE_URL``."""
    return settings.SITE_URL.rstrip("/") + path


def mail_render(template_prefix: str, context: dict[str, Any]) -> tuple[str, str, str]:
    """The subject, text and HTML of a mail from ``<prefix>_subject.txt``, ``<prefix>.txt`` and ``<prefix>.html``.

    ``template_prefix`` names the templates in full ("games/mail/turn", "leagues/mail/club_invite"). A mail
    without an HTML template (the leagues' are text only) has "" for its HTML.
    """
    subject = render_to_string(f"{template_prefix}_subject.txt", context).strip()
    body = render_to_string(f"{template_prefix}.txt", context)
    return subject, body, _html(f"{template_prefix}.html", context)


def _html(name: str, context: dict[str, Any]) -> str:
    # Only the template's own absence means "no HTML part": a template it includes that is missing still raises
    # when it renders.
    try:
        template = get_template(name)
    except TemplateDoesNotExist:
        return ""
    return template.render(context)


# --- writing to the outbox -----------------------------------------------------


def mail_row(
    *,
    key: str,
    recipient: str,
    user: User | None,
    subject: str,
    body: str = "",
    html: str = "",
    inviter: User | None = None,
    send_after: datetime | None = None,
    match: Match | None = None,
    seat_number: int | None = None,
    turn_version: int | None = None,
) -> Mail:
    """An outbox row, not yet saved: what ``mail_add`` writes alone and ``mails_add`` in a batch.

    ``inviter`` for an invitation mail (the invitation limits count by it); ``send_after`` holds the mail
    until then; ``match``, ``seat_number`` and ``turn_version`` name the turn a turn mail is about.
    """
    return Mail(
        recipient=recipient,
        user=user,
        subject=subject,
        body=body,
        html=html,
        dedupe_key=key,
        inviter=inviter,
        send_after=send_after,
        match=match,
        seat_number=seat_number,
        turn_version=turn_version,
    )


def _held(mail: Mail, now: datetime | None = None) -> bool:
    """Whether the mail waits for its time (a turn mail's grace period): ``mails_due`` queues it then, not its writer."""
    return mail.send_after is not None and mail.send_after > (now or timezone.now())


def mail_add(
    *,
    key: str,
    recipient: str,
    user: User | None,
    subject: str,
    body: str,
    html: str = "",
    inviter: User | None = None,
    send_after: datetime | None = None,
) -> Mail | None:
    """Write a mail to the outbox, once per key, and hand it to the sender when the transaction commits.

    In a savepoint, so that a key already written (a retried request, a second run of a sweep) leaves the
    caller's transaction alone: None then. A held mail (``send_after`` to come) is queued by ``mails_due``.
    """
    mail = mail_row(
        key=key,
        recipient=recipient,
        user=user,
        subject=subject,
        body=body,
        html=html,
        inviter=inviter,
        send_after=send_after,
    )
    try:
        with transaction.atomic():
            mail.save(force_insert=True)
    except IntegrityError:
        return None
    if not _held(mail):
        transaction.on_commit(partial(enqueue, "games.tasks.mail_send", mail.pk))
    return mail


def mail_queue(
    *,
    key: str,
    recipient: str,
    user: User | None,
    template: str,
    context: dict[str, Any],
    inviter: User | None = None,
) -> Mail | None:
    """Render a mail from its templates (``template`` is their prefix, "games/mail/invite") into the outbox.

    What most senders call; ``inviter`` for an invitation mail. None if the key was written before.
    """
    subject, body, html = mail_render(template, context)
    return mail_add(key=key, recipient=recipient, user=user, subject=subject, body=body, html=html, inviter=inviter)


def mails_add(mails: list[Mail]) -> list[int]:
    """Write rows built by ``mail_row`` in one INSERT (a change's turn and match-over mails); the ids due now.

    No savepoint: each key names the change that wrote it (the version it created, the seat), so it cannot
    clash. The caller hands the ids to the sender on commit with its other follow-ups
    (``games.followups.move_follow_up``). A held mail (a turn mail in its grace period) is queued by
    ``mails_due`` once its time comes: most are never sent, as the player answers first, and a message
    held for minutes would cost every move a publish and every worker the memory of thousands of them.
    An id the database could not return (an old SQLite) leaves that mail to the sweep too.
    """
    saved = Mail.objects.bulk_create(mails) if mails else []
    now = timezone.now()
    return [m.pk for m in saved if m.pk is not None and not _held(m, now)]


# --- the turn mail -------------------------------------------------------------


def turn_mail_grace() -> timedelta:
    """How long a turn mail waits for the player to answer before it goes (default 10 minutes)."""
    return timedelta(seconds=getattr(settings, "GAMES_TURN_MAIL_GRACE_SECONDS", 600))


def turn_mail_build(*, match: Match, seat: Seat, user: User) -> Mail:
    """The outbox row for a turn mail, not yet saved, held for the grace period (``turn_mail_grace``).

    It names the turn (match, seat, version) so that the sender can drop it if the seat has moved by
    then. Only the subject (the match's title) is written here: the short view and the move links
    are the costly part of a move's mail, and most held turn mails are never sent, so the text and
    HTML are rendered by the sender, from the match as it is then (``turn_mail_render``).
    """
    subject = render_to_string("games/mail/turn_subject.txt", {"title": f"{match.title} #{match.pk}"}).strip()
    # The key holds the version this move created, so it cannot clash: no savepoint needed (``mails_add``).
    return mail_row(
        key=f"turn:{match.pk}:{seat.number}:{match.version}",
        recipient=user.email,
        user=user,
        subject=subject,
        send_after=turn_mail_due(turn_started=timezone.now(), grace=turn_mail_grace()),
        match=match,
        seat_number=seat.number,
        turn_version=match.version,
    )


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
    if seat.last_seen is not None and (seen_until := seat.last_seen + turn_mail_grace()) > now:
        return TurnMailVerdict(wait_until=seen_until)
    return TurnMailVerdict()


def turn_mail_render(*, mail: Mail) -> None:
    """Write a turn mail's subject, text and HTML, from the match as it is now, for the seat's own view.

    Called by the sender once the mail is cleared to go (the turn is still the seat's): the move links
    are bound to the match's current version, which is the one the player can still answer. The text
    is saved on the row, so the outbox keeps what was sent. Raises if the turn's match or seat is gone.
    """
    found = match_and_seats(mail.match_id, whole_users=True) if mail.match_id is not None else None
    seat = next((s for s in found[1] if s.number == mail.seat_number), None) if found is not None else None
    if found is None or seat is None or seat.user is None:
        raise ValueError("The match or the seat of this turn mail no longer exists.")
    match, seats = found
    user = seat.user
    title, url = f"{match.title} #{match.pk}", absolute_url(match.get_absolute_url())
    context = {"user": user, "name": mail_safe(user.name), "title": title, "url": url}
    # The seat's own view in short and a signed link per move: the player may answer from the mail itself.
    context |= turn_mail_context(match=match, seat=seat, seats=seats)
    mail.subject, mail.body, mail.html = mail_render("games/mail/turn", context)
    Mail.objects.filter(pk=mail.pk).update(subject=mail.subject, body=mail.body, html=mail.html)


def turn_mail_context(*, match: Match, seat: Seat, seats: list[Seat]) -> dict[str, Any]:
    """What ``games/mail/turn.*`` shows beyond the greeting: the short view and a link per move (or none)."""
    assert seat.user_id is not None  # a turn mail goes to a seat's player
    choices = move_choices(match=match, seat=seat.number)
    links = [
        {
            "label": choice["label"],
            "url": absolute_url(
                link_url(
                    link_token(
                        match_id=match.pk,
                        seat=seat.number,
                        user_id=seat.user_id,
                        version=match.version,
                        action=choice["action"],
                    )
                )
            ),
        }
        for choice in choices or []
    ]
    # Where the player changes how often we write: the profile, as an address a plain-text mail can show.
    settings_url = absolute_url(reverse("accounts-profile"))
    return {
        "short": short_view(match=match, seat=seat.number, seats=seats),
        "links": links,
        "settings_url": settings_url,
    }


def short_view(*, match: Match, seat: int, seats: list[Seat]) -> dict[str, Any]:
    """The seat's own view in short, as plain data: the hand, the trick or centre, the scores, what the others did.

    Everything shown comes from the seat's own view (``engine.view``), never from the state. The page that
    confirms a move from the mail shows it too (``games.views_mail``).
    """
    presenter, names = presenter_for(match.game), [mail_safe(s.name) for s in seats]
    view = match.engine.view(match.state, seat)
    scores = view.get("scores") or []
    short: dict[str, Any] = {
        "hand": presenter.cards(view.get("hand")),
        "card_sets": presenter.card_sets(view),
        "centre": presenter.cards(view.get("centre")),
        "trick": presenter.trick_board(view, names)["plays"] if isinstance(view.get("trick"), list) else [],
        "trump": presenter.suit_name(view["trump"]) if isinstance(view.get("trump"), str) and view["trump"] else "",
        "hand_title": presenter.hand_title(view),
        "scores": [
            {"name": name, "score": presenter.score_text(scores[n]) if n < len(scores) else "", "me": n == seat}
            for n, name in enumerate(names)
        ],
        "since": _since(match, seat, names, presenter),
    }
    return short


def _since(match: Match, seat: int, names: list[str], presenter: Presenter) -> list[dict[str, Any]]:
    """The log lines after the seat's own last move (of those kept with the snapshot), newest last.

    Each as the table's log shows it to this reader (``Presenter.log_entry``: the kind as the reader may see it,
    and ``why``, the why lines of a move that settled a trick, a hand or a showdown, worded as at the table).
    """
    moves = list(match.recent_moves)
    mine = [i for i, m in enumerate(moves) if m.get("seat") == seat and m.get("kind") != "forced"]
    later = moves[mine[-1] + 1 :] if mine else moves
    return [presenter.log_entry(m, names, reader=seat, over=match.is_over) for m in later[-MAX_SINCE:]]


def move_choices(*, match: Match, seat: int) -> list[dict[str, Any]] | None:
    """Each legal move of the seat as ``{"label", "action"}``; None when they are too many or composed.

    Composed: what the table offers as a choice to put together (a suit order, what a wild card
    stands for), which a row of links would not show well. Moves that read the same are offered once.
    """
    game, presenter = match.engine, presenter_for(match.game)
    view = game.view(match.state, seat)
    legal = game.legal_actions(match.state, seat)
    if not legal:
        return None
    groups = presenter.action_groups(legal, view)
    if any(g["type"] == "wild" or presenter.group_widget(g["type"], []) == "select" for g in groups):
        return None
    choices = [{"label": c["label"], "action": json.loads(c["value"])} for g in groups for c in g["choices"]]
    return choices if len(choices) <= MAX_LINKS else None


# --- sending -------------------------------------------------------------------


class MailRetry(Exception):
    """An attempt failed on the mail server or the network and has tries left: the mail is pending again.

    The retry is the task's (``games.tasks.mail_send`` calls ``self.retry``): after ``countdown`` seconds,
    with ``error`` as the reason Celery records.
    """

    def __init__(self, error: Exception, countdown: int) -> None:
        super().__init__(str(error))
        self.error, self.countdown = error, countdown


def mail_attempt(*, mail_id: int) -> bool:
    """Send one outbox mail exactly once: claim it with a conditional UPDATE; True if it went.

    Every attempt ends the mail ``sent``, ``failed`` with the reason, or back to ``pending`` with the
    reason, raising ``MailRetry`` so that the task tries again; a turn mail whose text cannot be written
    ends ``failed``. Only a worker that dies mid-attempt leaves it ``sending``: ``mails_lost`` reclaims
    those. A held turn mail is not claimed before its ``send_after``; once claimed it ends ``cancelled``
    with the reason if the player no longer needs it, or is held again while they are at the table
    (``turn_mail_verdict``).
    """
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
    if not turn_notice(mail=mail, url=_table_url(mail)):
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
        raise MailRetry(exc, countdown=30 * 2**mail.attempts) from exc
    except Exception as exc:  # the mail itself is wrong (a header with a line break): another try cannot help
        log.exception("Mail %s cannot be sent", mail_id)
        _mail_end(mail_id, Mail.Status.FAILED, f"{type(exc).__name__}: {exc}")
        return False
    now = timezone.now()
    Mail.objects.filter(pk=mail_id).update(status=Mail.Status.SENT, sent_at=now, updated_at=now)
    return True


def _table_url(mail: Mail) -> str:
    """Where a turn notice leads: the table of the mail's turn ("" for a mail about no match)."""
    return absolute_url(reverse("games-match", args=[mail.match_id])) if mail.match_id is not None else ""


def _deliver(mail: Mail) -> None:
    message = EmailMultiAlternatives(mail.subject, mail.body, settings.DEFAULT_FROM_EMAIL, [mail.recipient])
    if mail.html:
        message.attach_alternative(mail.html, "text/html")
    message.send()


def _mail_end(mail_id: int, status: str, reason: str) -> None:
    Mail.objects.filter(pk=mail_id).update(status=status, last_error=reason[:1000], updated_at=timezone.now())


def mails_due(*, now: datetime) -> list[int]:
    """The held mails that have fallen due (turn mails past their grace period), for the task to queue.

    Each once: a mail handed out here is marked by its ``updated_at``, which then passes its ``send_after``.
    One whose message is lost stays pending, and ``mails_lost`` hands it out again a few minutes later.
    """
    due = Mail.objects.filter(status=Mail.Status.PENDING, send_after__lte=now, updated_at__lt=F("send_after"))
    ids = list(due.order_by("send_after").values_list("pk", flat=True)[:MAIL_DUE_BATCH])
    Mail.objects.filter(pk__in=ids, status=Mail.Status.PENDING).update(updated_at=now)
    return ids


def mails_lost(*, now: datetime) -> list[int]:
    """The mails a lost message or a lost worker left behind, for the task to queue again.

    Pending after a while: the message to send it was lost. Sending for far longer than an attempt
    takes: its worker died. Those go back to pending and are sent again, or fail once they have
    had all their attempts.
    """
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
    return ids + reclaim
