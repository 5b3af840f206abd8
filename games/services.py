"""Writes: creating matches, moves, chat, invitations and the mails they cause.

Every service runs in one transaction. Follow-ups that are slow or may fail
(sending mail, bot turns) are registered with ``transaction.on_commit`` so a
move never fails because of them; mails go through the ``Mail`` outbox.

What a person asked for and may not have is refused with the ``Refused`` family
(``games.errors``), whose message is for that person; anything else that escapes
is a bug. Tasks are queued by name: ``games.tasks`` imports this module, never
the other way round.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from engine import IllegalAction, get_game
from engine.bots import LEVELS
from engine.replay import seed_hash
from games.errors import IllegalMove, MoveRefused, NotSeated, Refused, Stale
from games.models import RECENT_CHAT, RECENT_MOVES, ChatMessage, Mail, Match, Move, Seat
from games.selectors import match_locked

log = logging.getLogger(__name__)

# Forced moves and engine play-outs happen inline; this bounds a runaway loop.
MAX_FORCED_CHAIN = 500
STALE_MESSAGE = "The table has changed since you loaded it; here is the current state."


@dataclass(frozen=True)
class SeatSpec:
    """Who sits in a seat at creation: a user (seated at once), a bot level, or an email invitation."""

    user: User | None = None
    bot: str = ""
    email: str = ""


# --- creating and starting -------------------------------------------------


def match_create(
    *,
    game: str,
    players: int,
    options: dict[str, Any] | None,
    created_by: User | None,
    private: bool = False,
    seats: Sequence[SeatSpec],
) -> Match:
    """A new match; it starts at once when no seat waits for an invited player.

    Refused for an unknown game, a wrong table or options the game does not take. The engine's
    ``new_match`` is then given checked options: an error there is a bug, not a refusal.
    """
    module = _game_or_refuse(game)
    _check_players(module, players, seats)
    try:
        options = module.validate_options(players, options or {})
    except ValueError as exc:  # the engine's sentence says which option and why
        raise Refused(str(exc)) from exc
    seed = secrets.randbits(62)
    with transaction.atomic():
        match = Match.objects.create(
            game=game,
            players=players,
            options=options,
            seed=seed,
            seed_hash=seed_hash(seed),
            state=module.new_match(players, options, seed=seed),
            private=private,
            created_by=created_by,
        )
        for number, spec in enumerate(seats):
            _seat_create(match, number, spec)
        _start_if_ready(match)
    return match


def _game_or_refuse(game: str) -> Any:
    try:
        return get_game(game)
    except KeyError as exc:
        raise Refused(exc.args[0]) from None


def _check_players(module: Any, players: int, seats: Sequence[SeatSpec]) -> None:
    lo, hi = module.MIN_PLAYERS, module.MAX_PLAYERS
    if not lo <= players <= hi:
        raise Refused(f"{module.TITLE} is played by {lo} to {hi} players, not {players}.")
    if len(seats) != players:
        raise Refused(f"Say who sits in each of the {players} seats.")
    users = [s.user.pk for s in seats if s.user is not None]
    emails = [s.email.strip().lower() for s in seats if s.email]
    if len(users) != len(set(users)) or len(emails) != len(set(emails)):
        raise Refused("A player can hold only one seat at a table.")
    for spec in seats:
        if spec.bot and spec.bot not in LEVELS:
            raise Refused(f"Unknown bot level {spec.bot!r}; the levels are: {', '.join(LEVELS)}.")
        if not (spec.user or spec.bot or spec.email):
            raise Refused("Every seat needs a player, a bot or an email address to invite.")


def _seat_create(match: Match, number: int, spec: SeatSpec) -> Seat:
    if spec.user is not None:
        return Seat.objects.create(match=match, number=number, user=spec.user, joined=True)
    if spec.bot:
        return Seat.objects.create(match=match, number=number, bot_level=spec.bot, joined=True)
    email = spec.email.strip().lower()
    invitee = User.objects.filter(email__iexact=email).first()
    if invitee is not None and match.seats.filter(user=invitee).exists():
        raise Refused(f"{email} already has a seat at this table.")
    seat = Seat.objects.create(
        match=match, number=number, user=invitee, invite_email=email, invite_token=secrets.token_urlsafe(24)
    )
    _mail_queue(
        key=f"invite:{seat.pk}",
        recipient=email,
        user=invitee,
        template="invite",
        context={
            "match": match,
            "seat": seat,
            "inviter": match.created_by,
            "url": _absolute(reverse("games-invite", args=[seat.invite_token])),
        },
    )
    return seat


def invite_accept(*, token: str, user: User) -> Seat:
    """The invited player takes the seat; the match starts once every seat is taken."""
    with transaction.atomic():
        seat = Seat.objects.select_for_update().select_related("match").filter(invite_token=token).first()
        if seat is None or seat.joined:
            raise Refused("This invitation has already been used or does not exist.")
        if seat.user_id is not None and seat.user_id != user.pk:
            raise Refused("This invitation is for another player.")
        if Seat.objects.filter(match=seat.match, user=user).exclude(pk=seat.pk).exists():
            raise Refused("You already have a seat at this table.")
        seat.user, seat.joined, seat.invite_token = user, True, ""
        seat.save(update_fields=["user", "joined", "invite_token"])
        match = Match.objects.select_for_update().get(pk=seat.match_id)
        _start_if_ready(match)
    return seat


def _start_if_ready(match: Match) -> None:
    if match.status != Match.Status.WAITING or match.seats.filter(joined=False).exists():
        return
    match.status = Match.Status.ACTIVE
    seats = list(match.seats.select_related("user"))
    moves = _play_forced(match, seats)
    _save_moves(match, moves, fields=["status"])
    _after_change(match, seats, moved={m.seat for m in moves})


# --- moves -----------------------------------------------------------------


def move_submit(
    *, match: Match, user: User | None, seat: int | None, action: Any, version: int, kind: str = Move.Kind.PLAYER
) -> Move:
    """Play ``action`` for ``seat`` (None: the user's own seat): checked, applied, recorded.

    Raises MoveRefused (NotSeated for someone without a seat, Stale for an old page, IllegalMove
    with the engine's reason), changing nothing. The move and any forced moves after it are written
    with one INSERT, the snapshot with one UPDATE, and the seats that changed with one or two more.
    """
    with transaction.atomic():
        _commit_mode()
        locked, seats = _lock(match.pk)
        number = _check_move(locked, seats, user, seat, version, kind)
        if not isinstance(action, dict):
            raise IllegalMove("That is not a move of this game.")
        try:
            moves = [_advance(locked, number, action, kind)]
        except IllegalAction as exc:  # the engine's sentence names what is wrong with the move
            raise IllegalMove(str(exc)) from exc
        moves += _play_forced(locked, seats)
        _save_moves(locked, moves)
        _after_change(locked, seats, moved={m.seat for m in moves})
    for name in ("state", "version", "status", "outcome", "finished_at", "updated_at", "recent_moves"):
        setattr(match, name, getattr(locked, name))
    return moves[0]


def _commit_mode() -> None:
    """Opt-in: let PostgreSQL acknowledge the move before its WAL record reaches the disk.

    The flush is the largest single cost of a move there (a few ms on slow disks). Turning it off
    (``GAMES_MOVE_SYNCHRONOUS_COMMIT = False``) keeps every move atomic and consistent, but a crash
    of the database server may lose the moves of its last fraction of a second. Off by default:
    a player's acknowledged move should survive anything.
    """
    if connection.vendor == "postgresql" and not getattr(settings, "GAMES_MOVE_SYNCHRONOUS_COMMIT", True):
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit TO OFF")


def _lock(match_id: int) -> tuple[Match, list[Seat]]:
    """The match row locked for this transaction, and its seats with their players."""
    found = match_locked(match_id)
    if found is None:
        raise NotSeated("There is no such match.", private=True)
    return found


def _check_move(match: Match, seats: list[Seat], user: User | None, number: int | None, version: int, kind: str) -> int:
    if number is None:
        own = next((s for s in seats if user is not None and s.user_id == user.pk and s.joined), None)
        if own is None:
            raise NotSeated("You do not have a seat at this table.", private=match.private)
        number = own.number
    if match.status != Match.Status.ACTIVE:
        raise MoveRefused("This match is over." if match.is_over else "This match has not started yet.")
    seat = next((s for s in seats if s.number == number), None)
    if seat is None:
        raise MoveRefused("There is no such seat at this table.")
    if kind in (Move.Kind.PLAYER, Move.Kind.FORCED) and (user is None or seat.user_id != user.pk):
        raise MoveRefused("That is not your seat.")
    if kind == Move.Kind.BOT and not seat.is_bot:
        raise MoveRefused("That seat is not played by a bot.")
    if number not in match.engine.to_act(match.state):
        raise MoveRefused("It is not your turn.")
    if version != match.version and not _simultaneous_ok(match, number, version):
        raise Stale(STALE_MESSAGE)
    return number


def _simultaneous_ok(match: Match, seat: int, version: int) -> bool:
    """A sealed bid may arrive on an older version when others bid meanwhile.

    Accepted only if the seat was awaited at the version it saw and at every move since,
    and made none of them: it was answering the very step it was shown.
    """
    if not 0 <= version < match.version:
        return False
    since = list(Move.objects.filter(match=match, ply__gte=version).values_list("seat", "awaited"))
    return len(since) == match.version - version and all(s != seat and seat in awaited for s, awaited in since)


def _advance(match: Match, seat: int, action: Any, kind: str) -> Move:
    """Apply one action to the snapshot in memory; ``_save_moves`` writes the result once.

    The engine's IllegalAction passes through: only the caller knows whether a person chose the
    action (a refusal) or the app did (a bug).
    """
    game = match.engine
    before = match.state
    after = game.apply(before, seat, action)  # IllegalAction leaves everything as it was
    move = Move(
        match=match,
        ply=match.version,
        seat=seat,
        action=action,
        kind=kind,
        text=game.describe(before, seat, action)[:300],
        awaited=game.to_act(before),
    )
    line = {"ply": move.ply, "seat": seat, "kind": kind, "text": move.text}
    match.recent_moves = [*match.recent_moves[-(RECENT_MOVES - 1) :], line]
    match.state, match.version = after, match.version + 1
    if game.is_over(after):
        match.status, match.finished_at = Match.Status.FINISHED, timezone.now()
        match.outcome = game.outcome(after)
    return move


def _save_moves(match: Match, moves: list[Move], *, fields: Sequence[str] = ()) -> None:
    """One INSERT for the moves and one UPDATE of the snapshot's changed fields.

    A forced run costs no more statements than one move.
    """
    if not moves and not fields:
        return
    changed = [*fields]
    if moves:
        Move.objects.bulk_create(moves)
        changed += ["state", "version", "recent_moves"]
        if match.status == Match.Status.FINISHED:
            changed += ["status", "finished_at", "outcome"]
    match.updated_at = timezone.now()
    names = [*dict.fromkeys(changed), "updated_at"]
    Match.objects.filter(pk=match.pk).update(**{name: getattr(match, name) for name in names})


def _play_forced(match: Match, seats: list[Seat]) -> list[Move]:
    """Seats with exactly one legal action play it at once, if they want that (bots always do).

    Returns the moves, not yet saved. A bounded loop, not recursion: a hand can end in a long forced run.
    """
    game, moves = match.engine, []
    for _ in range(MAX_FORCED_CHAIN):
        if match.status != Match.Status.ACTIVE:
            break
        candidates = _forced_candidates(seats, game.to_act(match.state))
        legal = ((s.number, game.legal_actions(match.state, s.number)) for s in candidates)
        forced = next(((number, actions[0]) for number, actions in legal if len(actions) == 1), None)
        if forced is None:
            break
        moves.append(_advance(match, forced[0], forced[1], Move.Kind.FORCED))
    return moves


def _forced_candidates(seats: list[Seat], to_act: list[int]) -> list[Seat]:
    return [s for s in seats if s.number in to_act and (s.is_bot or (s.user and s.user.auto_forced_moves))]


def _after_change(match: Match, seats: list[Seat], *, moved: set[int]) -> None:
    """Bookkeeping after the state changed: who is awaited, turn mails, deadlines, and follow-ups on commit.

    Only the seats whose row changes are written, and the turn mails go to the outbox in one INSERT;
    one on-commit callback then queues the mails and the bots.
    """
    to_act = [] if match.status != Match.Status.ACTIVE else match.engine.to_act(match.state)
    now, dirty, mails = timezone.now(), [], []
    for seat in seats:
        before = (seat.awaiting, seat.notified_at, seat.deadline)
        mail = _seat_update(match, seat, to_act, moved, now)
        if mail is not None:
            mails.append(mail)
        if (seat.awaiting, seat.notified_at, seat.deadline) != before:
            dirty.append(seat)
    _seats_save(dirty)
    # An id the database could not return (an old SQLite) leaves that mail to the sweep.
    mail_ids = [m.pk for m in Mail.objects.bulk_create(mails) if m.pk is not None] if mails else []
    bots = [s.number for s in seats if s.is_bot and s.number in to_act]
    if bots or mail_ids:
        transaction.on_commit(partial(_follow_up, match.pk, match.version, bots, mail_ids))


def _seat_update(match: Match, seat: Seat, to_act: list[int], moved: set[int], now: datetime) -> Mail | None:
    """New ``awaiting``, ``notified_at`` and ``deadline`` on the seat; the turn mail it is owed, if any.

    A seat that moved may be mailed again; a seat newly to act (wanting each-turn mail)
    is mailed once, and not again while that turn stays unanswered.
    """
    awaited, mail = seat.number in to_act, None
    if seat.number in moved:
        seat.notified_at = seat.deadline = None
    user = _turn_mail_reader(seat) if awaited else None
    if user is not None:
        mail = _turn_mail(match, seat, user)
        seat.notified_at = now
    if awaited and seat.deadline is None:
        seat.deadline = turn_deadline(match=match, seat=seat, now=now)
    elif not awaited:
        seat.deadline = None
    seat.awaiting = awaited
    return mail


def _seats_save(seats: list[Seat]) -> None:
    """One UPDATE per distinct set of new values: usually two (the seat that moved, the next to act).

    About half the time of ``bulk_update``, whose CASE per column costs more to build than a second
    statement costs to run. The rows were read with the match locked: the values in memory are the
    ones in the database.
    """
    groups: dict[tuple[bool, datetime | None, datetime | None], list[int]] = {}
    for seat in seats:
        groups.setdefault((seat.awaiting, seat.notified_at, seat.deadline), []).append(seat.pk)
    for (awaiting, notified_at, deadline), ids in groups.items():
        Seat.objects.filter(pk__in=ids).update(awaiting=awaiting, notified_at=notified_at, deadline=deadline)


def turn_deadline(*, match: Match, seat: Seat, now: datetime) -> datetime | None:
    """When a turn that starts ``now`` runs out: the hook for match clocks (a later issue).

    Until then turns have no time limit. A running deadline is kept until the seat moves,
    so a seat in a simultaneous step keeps the clock it started with.
    """
    return None


def _turn_mail_reader(seat: Seat) -> User | None:
    """The player to mail now that the seat is awaited: wants each-turn mail and has not had it for this turn."""
    user = seat.user
    if seat.is_bot or user is None or seat.notified_at is not None or user.notify != User.Notify.EACH_TURN:
        return None
    return user


def _follow_up(match_id: int, version: int, bots: list[int], mail_ids: list[int]) -> None:
    """On commit, once per change: queue the new outbox rows for sending, then wake the bots to act.

    Mails first, then the bots. A broker outage must not fail the move: pending mails and waiting
    bots are found again by the sweeps.
    """
    for mail_id in mail_ids:
        _enqueue("games.tasks.mail_send", mail_id)
    for seat in bots:
        _enqueue("games.tasks.bot_move", match_id, seat, version)


def _enqueue(task: str, *args: Any) -> None:
    """Hand a task to the broker by its name, so that this module need not import the tasks.

    No publish retries: the player's request must not wait on a struggling broker; the sweeps are the retry.
    """
    try:
        current_app.tasks[task].apply_async(args, retry=False)
    except Exception:  # the work stays in the database (a pending mail, an awaited bot) for the sweep
        log.exception("Could not queue %s%r", task, args)


def _turn_mail(match: Match, seat: Seat, user: User) -> Mail:
    """The outbox row for a turn mail, not yet saved.

    Rendered inside the move's transaction on every turn: three small templates, cached once loaded.
    """
    context = {"user": user, "title": f"{match.title} #{match.pk}", "url": _absolute(match.get_absolute_url())}
    subject, body, html = _render_mail("turn", context)
    # The key holds the version this move created, so it cannot clash: no savepoint needed.
    return Mail(
        recipient=user.email,
        user=user,
        subject=subject,
        body=body,
        html=html,
        dedupe_key=f"turn:{match.pk}:{seat.number}:{match.version}",
    )


# --- chat ------------------------------------------------------------------


def chat_post(*, match: Match, user: User, text: str) -> ChatMessage:
    """A message to the whole table: partners talk only in the open."""
    text = (text or "").strip()
    if not text:
        raise Refused("Write something before sending.")
    if len(text) > 1000:
        raise Refused("A message can be at most 1000 characters long.")
    with transaction.atomic():
        recent = Match.objects.select_for_update().filter(pk=match.pk).values_list("recent_chat", flat=True).get()
        message = ChatMessage.objects.create(match=match, user=user, text=text)
        line = {"id": message.pk, "name": user.name, "text": text}
        match.recent_chat = [*recent[-(RECENT_CHAT - 1) :], line]
        Match.objects.filter(pk=match.pk).update(recent_chat=match.recent_chat)
    return message


# --- mail ------------------------------------------------------------------


def _absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def _mail_queue(*, key: str, recipient: str, user: User | None, template: str, context: dict[str, Any]) -> Mail | None:
    """Render a mail from ``games/mail/<template>*`` into the outbox."""
    subject, body, html = _render_mail(template, context)
    return _outbox_add(key=key, recipient=recipient, user=user, subject=subject, body=body, html=html)


def _render_mail(template: str, context: dict[str, Any]) -> tuple[str, str, str]:
    """The subject, text and HTML of a mail from ``games/mail/<template>_subject.txt``, ``.txt`` and ``.html``."""
    subject = render_to_string(f"games/mail/{template}_subject.txt", context).strip()
    body = render_to_string(f"games/mail/{template}.txt", context)
    html = render_to_string(f"games/mail/{template}.html", context)
    return subject, body, html


def _outbox_add(*, key: str, recipient: str, user: User | None, subject: str, body: str, html: str) -> Mail | None:
    """Write a mail to the outbox (once per key) and hand it to the sender when the transaction commits."""
    fields = {"recipient": recipient, "user": user, "subject": subject, "body": body, "html": html, "dedupe_key": key}
    try:
        with transaction.atomic():
            mail = Mail.objects.create(**fields)
    except IntegrityError:
        return None
    transaction.on_commit(partial(_enqueue, "games.tasks.mail_send", mail.pk))
    return mail


def digest_queue(*, user: User, day: str, seats: list[Seat]) -> Mail | None:
    """The daily digest: one mail per user per day, listing the matches awaiting them."""
    return _mail_queue(
        key=f"digest:{user.pk}:{day}",
        recipient=user.email,
        user=user,
        template="digest",
        context={"user": user, "seats": seats, "url": _absolute(reverse("games-dashboard"))},
    )
