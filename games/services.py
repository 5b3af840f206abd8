"""Writes at the table: creating and starting matches, moves, invitations and seats, chat, timeouts.

Every service runs in one transaction, with the match locked where its state changes. What happens
after the commit (mail, bot turns, deadline tasks) is registered with ``transaction.on_commit``
through ``games.followups``, so that a move never fails because of it. Facts about a seat or a
match (its turn deadline, a paused clock, whether a late sealed bid still counts) are the models'
(``games.models``); the clock arithmetic is ``games.clocks`` (pure). A mail is decided by
``games.notify`` and written, held and sent by ``games.outbox``: to change a mail, open the outbox
and its template under ``templates/games/mail/``.

What a person asked for and may not have is refused with the ``Refused`` family
(``games.errors``), whose message is for that person; anything else that escapes
is a bug. Tasks are queued by name: ``games.tasks`` imports this module, never
the other way round.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Case, F, Value, When
from django.utils import timezone

from accounts.models import User
from engine import IllegalAction, get_game
from engine.bots import LEVELS, choose
from engine.play import Apply
from engine.replay import seed_hash
from games.clocks import TimeControl, bank_after_move
from games.errors import IllegalMove, MoveRefused, NotSeated, Refused, Stale
from games.followups import deadline_schedule, move_follow_up
from games.maillinks import LINK_INVALID, TURN_OVER, MoveLink
from games.models import RECENT_CHAT, RECENT_MOVES, ChatMessage, Mail, Match, Move, Seat, SeatSpec
from games.notify import absence_mail, check_invitation_limits, invite_mail, match_over_mails
from games.outbox import mails_add, turn_mail_build
from games.selectors import match_locked, matches_locked
from games.signals import match_finished
from games.vacation import auto_vacation_spend

# Forced moves and engine play-outs happen inline; this bounds a runaway loop.
MAX_FORCED_CHAIN = 500
STALE_MESSAGE = "The table has changed since you loaded it; here is the current state."
# The log line everyone reads when a vacation day is spent for a player instead of a timeout: the clock's
# jump needs a reason, and the days left stay the player's own business.
VACATION_DAY_KIND = "vacation"
VACATION_DAY_TEXT = "ran out of time: a vacation day was spent, a day more to play"


# --- creating and starting -------------------------------------------------


def match_create(
    *,
    game: str,
    players: int,
    options: dict[str, Any] | None,
    created_by: User | None,
    private: bool = False,
    seats: Sequence[SeatSpec],
    time_control: TimeControl | None = None,
    timeout_bot_level: str = "basic",
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
    if timeout_bot_level not in LEVELS:
        raise Refused(f"Unknown bot level {timeout_bot_level!r}; the levels are: {', '.join(LEVELS)}.")
    seed = secrets.randbits(62)
    with transaction.atomic():
        check_invitation_limits(
            inviter=created_by, emails=[s.email.strip().lower() for s in seats if s.email and not s.user]
        )
        now = timezone.now()
        match = Match.objects.create(
            game=game,
            players=players,
            options=options,
            seed=seed,
            seed_hash=seed_hash(seed),
            state=module.new_match(players, options, seed=seed),
            private=private,
            created_by=created_by,
            time_control=time_control.to_json() if time_control is not None else None,
            timeout_bot_level=timeout_bot_level,
            expires_at=now + timedelta(days=getattr(settings, "GAMES_WAITING_EXPIRE_DAYS", 7)),
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
    # The seat is not linked to an account that has this address, and nothing here depends on one:
    # the inviter must not learn whether the address has an account. Whoever follows the link takes the seat.
    email = spec.email.strip().lower()
    seat = Seat.objects.create(match=match, number=number, invite_email=email, invite_token=secrets.token_urlsafe(24))
    invite_mail(match=match, seat=seat, key=f"invite:{seat.pk}")
    return seat


INVITATION_GONE = "This invitation is no longer valid: it has already been used, was withdrawn, or has expired."


def invite_accept(*, token: str, user: User) -> Seat:
    """Whoever holds the link takes the seat; the match starts once every seat is taken.

    The match is locked before the seat, in the order ``match_expire`` takes them, and an invitation
    past its match's expiry is refused even before the sweep has voided it.
    """
    with transaction.atomic():
        match_id = Seat.objects.filter(invite_token=token, joined=False).values_list("match_id", flat=True).first()
        match = Match.objects.select_for_update().filter(pk=match_id).first() if match_id is not None else None
        seat = Seat.objects.select_for_update().filter(invite_token=token, joined=False).first()
        if match is None or seat is None or seat.match_id != match.pk or not match.invitations_open:
            raise Refused(INVITATION_GONE)
        if Seat.objects.filter(match=match, user=user).exists():
            raise Refused("You already have a seat at this table.")
        seat.user, seat.joined, seat.invite_token = user, True, ""
        seat.save(update_fields=["user", "joined", "invite_token"])
        seat.match = match
        _start_if_ready(match)
    return seat


def match_expire(*, match_id: int) -> bool:
    """A waiting match past its expiry is abandoned and its invitation links voided; True if this call did it.

    Safe to run any number of times and beside ``invite_accept``: the match is claimed with a conditional
    UPDATE (still waiting, expired), so only one caller voids it, and a match that started meanwhile is left alone.
    """
    now = timezone.now()
    with transaction.atomic():
        claimed = Match.objects.filter(pk=match_id, status=Match.Status.WAITING, expires_at__lte=now).update(
            status=Match.Status.ABANDONED, finished_at=now, updated_at=now
        )
        if not claimed:
            return False
        Seat.objects.filter(match_id=match_id, joined=False).update(invite_token="")
    return True


def _start_if_ready(match: Match) -> None:
    if match.status != Match.Status.WAITING or match.seats.filter(joined=False).exists():
        return
    match.status = Match.Status.ACTIVE
    seats = list(match.seats.select_related("user"))
    moves = _play_forced(match, seats)
    _save_moves(match, moves, fields=["status"])
    match_bookkeeping(match=match, seats=seats, moved={m.seat for m in moves})


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
        _seat_counters(next(s for s in seats if s.number == number), kind)
        match_bookkeeping(match=locked, seats=seats, moved={m.seat for m in moves})
    _adopt(match, locked, seats)
    return moves[0]


def move_applier(match: Match) -> Apply:
    """An ``apply`` for ``engine.play.play_out`` that plays each action the way the app does: ``move_submit`` for
    the seat's player, or for its bot (kind BOT), then returns the match's state as the move left it.

    Inside a transaction ``move_submit`` has already brought ``match`` up to date (``_adopt``). Outside one
    the move really committed, so bots woken on commit (eager Celery) may have moved since: read it again.
    """
    seats = {s.number: s for s in match.seats.select_related("user")}

    def apply(_state: dict[str, Any], number: int, action: dict[str, Any]) -> dict[str, Any]:
        seat = seats[number]
        kind = Move.Kind.BOT if seat.is_bot else Move.Kind.PLAYER
        move_submit(match=match, user=seat.user, seat=number, action=action, version=match.version, kind=kind)
        if not transaction.get_connection().in_atomic_block:
            match.refresh_from_db(fields=["state", "version", "status", "outcome", "recent_moves"])
        return match.state

    return apply


def move_by_link(*, link: MoveLink) -> Move:
    """Play a mail link's move for its seat's player (``games.maillinks``): ``move_submit`` checks seat, turn
    and version under the lock.

    Refused (``MoveRefused``, changing nothing) once the turn has moved on, including when the link was used.
    """
    seat = Seat.objects.filter(match_id=link.match_id, number=link.seat).select_related("user").first()
    if seat is None or seat.user is None or seat.user_id != link.user_id:
        raise Refused(LINK_INVALID)
    try:
        return move_submit(
            match=Match(pk=link.match_id),
            user=seat.user,
            seat=link.seat,
            action=link.action,
            version=link.version,
            kind=Move.Kind.PLAYER,
        )
    except Refused as exc:
        raise Refused(TURN_OVER) from exc


def _adopt(match: Match, locked: Match, seats: list[Seat]) -> None:
    """The caller's match becomes the one the change left, with its seats (``seat_list``) and their players:
    the htmx answer renders the table from it without reading it again."""
    for field in Match._meta.concrete_fields:
        setattr(match, field.attname, getattr(locked, field.attname))
    match.seat_list = seats
    for seat in seats:
        seat.match = match


def _commit_mode() -> None:
    """Opt-in: let PostgreSQL acknowledge the move before its WAL record reaches the disk.

    The flush is the largest single cost of a move there (a few ms on slow disks). Turning it off
    (``GAMES_MOVE_SYNCHRONOUS_COMMIT = False``) keeps every move atomic and consistent, but a crash
    of the database server may lose the moves of its last fraction of a second. Off by default:
    a player's acknowledged move should survive anything.
    """
    _synchronous_commit(getattr(settings, "GAMES_MOVE_SYNCHRONOUS_COMMIT", True))


def _synchronous_commit(on: bool) -> None:
    """Whether this transaction's commit waits for its WAL record to reach the disk (PostgreSQL only)."""
    if connection.vendor == "postgresql" and not on:
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
    if kind == Move.Kind.BOT and not seat.played_by_bot:
        raise MoveRefused("That seat is not played by a bot.")
    if number not in match.engine.to_act(match.state):
        raise MoveRefused("It is not your turn.")
    if version != match.version and not match.simultaneous_ok(number, version):
        raise Stale(STALE_MESSAGE)
    return number


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
        reasons=game.reasons(before, after),
    )
    line: dict[str, Any] = {"ply": move.ply, "seat": seat, "kind": kind, "text": move.text}
    if move.reasons:  # most moves settle nothing: the snapshot's log lines stay as small as before
        line["reasons"] = move.reasons
    match.recent_moves = [*match.recent_moves[-(RECENT_MOVES - 1) :], line]
    match.state, match.version = after, match.version + 1
    if game.is_over(after):
        match.status, match.finished_at = Match.Status.FINISHED, timezone.now()
        match.outcome = game.outcome(after)
    return move


def _log_note(match: Match, seat: int, kind: str, text: str) -> None:
    """A public line in the table's log that is not a move: kept with the snapshot's log lines, numbered
    with the move before it (it has no ply of its own, and a later move must still read as newer)."""
    ply = match.version - 1
    # Its place among the notes after that move: the page keys the line by move and note (``log_line``).
    note = 1 + sum(1 for m in match.recent_moves if m.get("ply") == ply and "note" in m)
    line = {"ply": ply, "seat": seat, "kind": kind, "text": text, "note": note}
    match.recent_moves = [*match.recent_moves[-(RECENT_MOVES - 1) :], line]


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
            # Apps above games (leagues) hear of it once the finished match is committed.
            transaction.on_commit(partial(match_finished.send_robust, sender=Match, match_id=match.pk))
    match.updated_at = timezone.now()
    names = [*dict.fromkeys(changed), "updated_at"]
    Match.objects.filter(pk=match.pk).update(**{name: getattr(match, name) for name in names})


def _save_moves_of(saves: list[tuple[Match, list[Move]]]) -> None:
    """``_save_moves`` for a batch of matches (the sweep's timeouts): all their moves in one INSERT and all
    their snapshots in one UPDATE."""
    if len(saves) <= 1:
        for match, moves in saves:
            _save_moves(match, moves)
        return
    Move.objects.bulk_create([move for _match, moves in saves for move in moves])
    changed, now = ["state", "version", "recent_moves", "updated_at"], timezone.now()
    for match, _moves in saves:
        match.updated_at = now
        if match.status == Match.Status.FINISHED:
            transaction.on_commit(partial(match_finished.send_robust, sender=Match, match_id=match.pk))
    if any(match.status == Match.Status.FINISHED for match, _moves in saves):
        changed += ["status", "finished_at", "outcome"]  # the others' are written back as they were read, locked
    Match.objects.bulk_update([match for match, _moves in saves], changed)


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
    return [s for s in seats if s.number in to_act and (s.played_by_bot or (s.user and s.user.auto_forced_moves))]


def match_bookkeeping(*, match: Match, seats: list[Seat], moved: set[int]) -> None:
    """Bookkeeping after the state changed: who is awaited, turn mails, deadlines, and follow-ups on commit.

    Run by every change at the table (a move, a start, timeouts), with the match locked; ``moved`` are the
    seats that moved. Only the seats whose row changes are written, and the turn mails go to the outbox
    in one INSERT; one on-commit callback then queues the mails, the bots (and the bot standing in for an
    absent player) and a task for each new deadline (``games.followups.move_follow_up``).
    """
    _bookkeeping([(match, seats, moved)])


Change = tuple[Match, list[Seat], set[int]]  # a locked match, its seats, the seats that moved


def _bookkeeping(changes: list[Change]) -> None:
    """``match_bookkeeping`` for one change or for a batch of matches (the sweep's timeouts): the seats of all
    of them written by one ``seats_save``, their mails by one INSERT, and one on-commit callback per match."""
    now, dirty, mails, follow_ups = timezone.now(), [], [], []
    for match, seats, moved in changes:
        to_act = [] if match.status != Match.Status.ACTIVE else match.engine.to_act(match.state)
        match.seat_list = seats  # every seat with its player, for whoever reads this match next without a query
        own, deadlines = [], []
        for seat in seats:
            before = _seat_key(seat)
            mail = _seat_update(match, seat, to_act, moved, now)
            if mail is not None:
                own.append(mail)
            if _seat_key(seat) != before:
                dirty.append(seat)
                if seat.deadline is not None and seat.deadline != before[2]:  # a new deadline, not one kept
                    deadlines.append((seat.pk, seat.deadline))
        if moved and match.status == Match.Status.FINISHED:  # this change ended the match: it ends only once
            own += match_over_mails(match=match, seats=seats)
        mails += own
        bots = [s.number for s in seats if s.played_by_bot and s.number in to_act]
        follow_ups.append((match.pk, match.version, bots, own, deadlines))
    seats_save(seats=dirty)
    # A mail due now is queued on commit; a held one (a turn mail in its grace period) by the outbox's
    # due-mail run once its time comes (``games.outbox.mails_add``).
    due = set(mails_add(mails))
    for match_id, version, bots, own, deadlines in follow_ups:
        mail_ids = [m.pk for m in own if m.pk in due]
        if bots or mail_ids or deadlines:
            transaction.on_commit(partial(move_follow_up, match_id, version, bots, mail_ids, deadlines))


SeatKey = tuple[bool, datetime | None, datetime | None, timedelta | None]


def _seat_key(seat: Seat) -> SeatKey:
    """The columns ``match_bookkeeping`` may change on a seat."""
    return (seat.awaiting, seat.notified_at, seat.deadline, seat.bank)


def _seat_update(match: Match, seat: Seat, to_act: list[int], moved: set[int], now: datetime) -> Mail | None:
    """New ``awaiting``, ``notified_at`` and ``deadline`` on the seat; the turn mail it is owed, if any.

    A seat that moved may be mailed again; a seat newly to act (wanting each-turn mail)
    is mailed once, and not again while that turn stays unanswered.
    """
    awaited, mail = seat.number in to_act, None
    if seat.number in moved:
        clock = match.clock
        if clock is not None and seat.deadline is not None:
            seat.bank = bank_after_move(tc=clock, deadline=seat.deadline, now=now)
        elif clock is not None and seat.clock_paused:
            # A move on vacation: the stopped clock (its time left is the bank) earns the increment as usual.
            seat.bank = min(clock.cap, (clock.initial if seat.bank is None else seat.bank) + clock.increment)
        seat.notified_at = seat.deadline = None
    user = seat.turn_mail_reader if awaited else None
    if user is not None:
        seat.notified_at = now
        # Written even for a player at the table as the turn begins: presence only delays the mail
        # (``outbox.turn_mail_verdict``), so a player who leaves without moving is still told.
        mail = turn_mail_build(match=match, seat=seat, user=user)
    if awaited and seat.deadline is None:
        seat.deadline = seat.turn_deadline(clock=match.clock, now=now)
    elif not awaited:
        seat.deadline = None
    seat.awaiting = awaited
    return mail


def seats_save(*, seats: list[Seat]) -> None:
    """One UPDATE per distinct set of new values: usually two (the seat that moved, the next to act).

    About half the time of ``bulk_update``, whose CASE per column costs more to build than a second
    statement costs to run; from three sets on (a simultaneous step starting, each seat with its own
    clock) one ``bulk_update`` is cheaper. The rows were read with the match locked: the values in
    memory are the ones in the database.
    """
    groups: dict[SeatKey, list[int]] = {}
    for seat in seats:
        groups.setdefault(_seat_key(seat), []).append(seat.pk)
    if len(groups) > 2:
        Seat.objects.bulk_update(seats, ["awaiting", "notified_at", "deadline", "bank"])
        return
    for (awaiting, notified_at, deadline, bank), ids in groups.items():
        Seat.objects.filter(pk__in=ids).update(awaiting=awaiting, notified_at=notified_at, deadline=deadline, bank=bank)


def _seat_counters(seat: Seat, kind: str) -> None:
    """What a move tells about its seat's player: back at the table, or played for by the bot.

    A player's own move ends a run of timeouts; a bot's move for an absent player is counted.
    (A timeout move is counted by ``seat_timeout``'s claim.) No statement for an ordinary move.
    """
    if kind == Move.Kind.PLAYER and seat.timeouts_in_row:
        seat.timeouts_in_row = 0
        Seat.objects.filter(pk=seat.pk).update(timeouts_in_row=0)
    elif kind == Move.Kind.BOT and not seat.is_bot:
        seat.bot_moves += 1
        Seat.objects.filter(pk=seat.pk).update(bot_moves=seat.bot_moves)


# --- clocks: timeouts, absence, bots ---------------------------------------


def bot_action(*, match: Match, seat: int, level: str) -> dict[str, Any]:
    """The move a bot of ``level`` makes for ``seat``, from that seat's view only.

    Seeded by the match's seed and version, so that a task run twice chooses the same move.
    """
    game = match.engine
    legal = game.legal_actions(match.state, seat)
    return choose(match.game, level, game.view(match.state, seat), legal, seed=f"{match.seed}:{match.version}")


def seat_timeout(*, seat_id: int, deadline: datetime) -> bool:
    """The seat's time ran out at ``deadline``: the match's timeout bot plays its move, recorded as ``timeout``.

    Safe to call any number of times, from the scheduled task and the sweep at once: in one transaction
    the match is locked and the deadline claimed with a conditional UPDATE; whoever claims it plays, and
    a deadline that has moved on (the player moved, the clock was paused) or not yet passed is left alone.
    A worker that dies before committing leaves the deadline in place, for the sweep. True if it played.
    """
    match_id = Seat.objects.filter(pk=seat_id).values_list("match_id", flat=True).first()
    if match_id is None:
        return False
    with transaction.atomic():
        _timeouts_commit_mode()
        found = match_locked(match_id)
        if found is None:
            return False
        match, seats = found
        seat = next(s for s in seats if s.pk == seat_id)
        now = timezone.now()
        if not _timeout_due(match, seat, deadline, now):
            return False
        return _timeouts_play([(match, seats, [seat])], now) == 1


def match_timeouts(*, match_id: int) -> int:
    """Every seat of the match whose deadline has passed times out, in one transaction; returns how many.

    What the sweep does per match: the seats of a simultaneous step time out together, under one
    lock and with one write of the moves. A seat whose next deadline is already due (a clock with
    nothing left) waits for the next task or sweep: each seat times out at most once per call.
    """
    with transaction.atomic():
        _timeouts_commit_mode()
        found = match_locked(match_id)
        if found is None:
            return 0
        match, seats = found
        now = timezone.now()
        due = [s for s in seats if _timeout_due(match, s, s.deadline, now)]
        return _timeouts_play([(match, seats, due)], now) if due else 0


def timeouts_batch(*, match_ids: list[int]) -> tuple[int, list[int]]:
    """The sweep's batch: every seat of these matches whose deadline has passed times out, all in one
    transaction; returns how many, and the matches it left out for ``match_timeouts``.

    Exactly once, as for one match: each match is locked and its due seats' deadlines are claimed with a
    conditional UPDATE, here one for the whole batch. A match that another transaction holds (a player
    moving, its own deadline task) is left out rather than waited for (``selectors.matches_locked``): the
    caller plays it with ``match_timeouts`` once this batch has committed. Anything that fails rolls the
    whole batch back, so that the caller can play each match on its own and one broken match does not
    hold up the others' timeouts.
    """
    with transaction.atomic():
        _timeouts_commit_mode()
        found, left = matches_locked(match_ids)
        now = timezone.now()
        tables = [
            (match, seats, [s for s in seats if _timeout_due(match, s, s.deadline, now)]) for match, seats in found
        ]
        return _timeouts_play([table for table in tables if table[2]], now), left


def _timeouts_commit_mode() -> None:
    """On PostgreSQL, timeouts commit without waiting for the disk (``GAMES_TIMEOUT_SYNCHRONOUS_COMMIT``).

    Safe where a player's move is not: a timeout lost with the last instant before a database crash
    leaves its deadline in the database, and the sweep plays it again. The flush is the largest cost
    of a timeout, and a backlog of them (a broker outage, a busy machine) is worked through faster.
    """
    _synchronous_commit(getattr(settings, "GAMES_TIMEOUT_SYNCHRONOUS_COMMIT", False))


def _timeout_due(match: Match, seat: Seat, deadline: datetime | None, now: datetime) -> bool:
    """On the locked match: the seat is awaited, its running deadline is ``deadline``, and it has passed."""
    if match.status != Match.Status.ACTIVE or not seat.awaiting or deadline is None:
        return False
    return seat.deadline == deadline and deadline <= now and not seat.clock_paused


Due = tuple[Match, list[Seat], list[Seat]]  # a locked match, its seats, the seats whose deadline has passed


def _timeouts_play(tables: list[Due], now: datetime) -> int:
    """Claim the due seats' deadlines and play their timeout moves, then the forced moves that follow, in one
    match or in a batch of them (the sweep's), every one locked.

    What a move does, for several at once and over all the matches: the moves in one INSERT, the snapshots
    in one UPDATE, the claim (with the seats' counts) in one conditional UPDATE per clock, and the seats
    whose row changed in one or two. A player who lets vacation days be spent gets a day more instead
    (``games.vacation``), and a line in the log says so. Returns how many seats timed out.
    """
    played: list[tuple[Match, list[Seat], list[Move], list[Seat]]] = []
    for match, seats, due in tables:
        moves, claimed, noted = _timeouts_choose(match, due, now)
        if claimed:
            played.append((match, seats, moves, claimed))
        elif noted:
            _save_moves(match, [], fields=["recent_moves"])
    if not played:
        return 0
    newly_absent = _timeouts_claim([(match, claimed) for match, _seats, _moves, claimed in played], now)
    for match, seats, moves, _claimed in played:
        moves += _play_forced(match, seats)
    _save_moves_of([(match, moves) for match, _seats, moves, _claimed in played])
    _bookkeeping([(match, seats, {m.seat for m in moves}) for match, seats, moves, _claimed in played])
    for match, seat in newly_absent:
        absence_mail(match=match, seat=seat, timeouts=seat.timeouts_in_row)
    return sum(len(claimed) for _match, _seats, _moves, claimed in played)


def _timeouts_choose(match: Match, due: list[Seat], now: datetime) -> tuple[list[Move], list[Seat], bool]:
    """The timeout bot's moves for the due seats still to act, applied to the snapshot in memory; the seats
    they are for; and whether a vacation day was spent for a seat instead (a line in the log, no move)."""
    game, moves, claimed, noted = match.engine, [], [], False
    for seat in due:
        if match.status != Match.Status.ACTIVE or seat.number not in game.to_act(match.state):
            continue
        # Only a player who chose it is asked (and locked): the flag came with the seats, for free.
        extended = auto_vacation_spend(seat=seat, now=now) if seat.user and seat.user.auto_vacation else None
        if extended is not None:  # the player lets a vacation day be spent for a day more instead
            transaction.on_commit(partial(deadline_schedule, seat_id=seat.pk, deadline=extended))
            _log_note(match, seat.number, VACATION_DAY_KIND, VACATION_DAY_TEXT)
            noted = True
            continue
        action = bot_action(match=match, seat=seat.number, level=match.timeout_bot_level)
        moves.append(_advance(match, seat.number, action, Move.Kind.TIMEOUT))
        claimed.append(seat)
    return moves, claimed, noted


def _timeouts_claim(claims: list[tuple[Match, list[Seat]]], now: datetime) -> list[tuple[Match, Seat]]:
    """Claim the seats' deadlines with one conditional UPDATE per bank the claim leaves (one per kind of clock
    in the batch), counting the timeout on each seat; returns the seats that the timeout made absent.

    A move that ran out of time keeps no time of its own: the bank is the increment.
    """
    absent_after = getattr(settings, "GAMES_TIMEOUTS_BEFORE_ABSENT", 3)
    by_bank: dict[timedelta | None, list[int]] = {}
    newly_absent = []
    for match, claimed in claims:
        clock = match.clock
        bank = bank_after_move(tc=clock, deadline=now, now=now) if clock is not None else None
        by_bank.setdefault(bank, []).extend(seat.pk for seat in claimed)
        for seat in claimed:
            seat.deadline, seat.bank = None, seat.bank if bank is None else bank
            seat.timeouts_in_row, seat.bot_moves = seat.timeouts_in_row + 1, seat.bot_moves + 1
            if not seat.absent and seat.timeouts_in_row >= absent_after:
                seat.absent = True
                newly_absent.append((match, seat))
    for bank, ids in by_bank.items():
        taken = Seat.objects.filter(pk__in=ids, awaiting=True, deadline__lte=now).update(
            deadline=None,
            timeouts_in_row=F("timeouts_in_row") + 1,
            bot_moves=F("bot_moves") + 1,
            absent=Case(When(timeouts_in_row__gte=absent_after - 1, then=Value(True)), default=F("absent")),
            **({} if bank is None else {"bank": bank}),
        )
        if taken != len(ids):  # seats change only under their match's lock, which is held: a bug, not a race
            raise RuntimeError(f"Claimed {taken} of the deadlines of seats {ids}.")
    return newly_absent


def seat_reclaim(*, match: Match, user: User) -> Seat:
    """The player takes back a seat the bot was playing while they were absent.

    Their run of timeouts starts again from nothing, and a seat awaited now gets a fresh deadline:
    at least the time one move earns (the increment, or the initial time on a clock without one),
    so that coming back is never an instant timeout. Taking back a seat that is not absent changes nothing.
    """
    with transaction.atomic():
        locked, seats = _lock(match.pk)
        seat = next((s for s in seats if user is not None and s.user_id == user.pk and s.joined), None)
        if seat is None:
            raise NotSeated("You do not have a seat at this table.", private=locked.private)
        if not seat.absent:
            return seat
        seat.absent, seat.timeouts_in_row = False, 0
        clock = locked.clock
        if seat.awaiting and locked.status == Match.Status.ACTIVE and clock is not None:
            seat.bank = seat.bank_when_reclaimed(clock)
            seat.deadline = seat.turn_deadline(clock=clock, now=timezone.now())
        Seat.objects.filter(pk=seat.pk).update(absent=False, timeouts_in_row=0, bank=seat.bank, deadline=seat.deadline)
        if seat.deadline is not None:
            transaction.on_commit(partial(deadline_schedule, seat_id=seat.pk, deadline=seat.deadline))
    return seat


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


# --- waiting seats: the creator's controls and the invitee's answer ---------------

# How often the creator may send the same invitation again: a reminder, not a way to flood an inbox.
MAX_INVITE_RESENDS = 2


def _waiting_seat(match_id: int, number: int, by: User) -> tuple[Match, Seat]:
    """The match locked and its seat, for a change only the creator may make while the match waits."""
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None:
        raise NotSeated("There is no such match.", private=True)
    if match.created_by_id != by.pk:
        raise Refused("Only the player who created this match can change its seats.")
    if match.status != Match.Status.WAITING:
        raise Refused("The match has started: its seats are taken.")
    seat = Seat.objects.filter(match=match, number=number).first()
    if seat is None:
        raise Refused("There is no such seat at this table.")
    if seat.joined:
        raise Refused("That seat is already taken.")
    return match, seat


def _seat_open(seat: Seat) -> None:
    """No one invited any more: the seat waits for the creator to invite someone or put a bot in it."""
    seat.user, seat.invite_email, seat.invite_token = None, "", ""
    seat.save(update_fields=["user", "invite_email", "invite_token"])


def invite_cancel(*, match_id: int, number: int, by: User) -> Seat:
    """The creator takes an invitation back; its link stops working and the seat is open again."""
    with transaction.atomic():
        _match, seat = _waiting_seat(match_id, number, by)
        if not seat.invite_token:
            raise Refused("That seat has no open invitation.")
        _seat_open(seat)
    return seat


def invite_resend(*, match_id: int, number: int, by: User) -> Seat:
    """The same invitation by mail once more, at most ``MAX_INVITE_RESENDS`` times per invitation."""
    with transaction.atomic():
        match, seat = _waiting_seat(match_id, number, by)
        if not seat.invite_token:
            raise Refused("That seat has no open invitation.")
        prefix = f"invite-again:{seat.pk}:{seat.invite_token[:12]}:"
        sent = Mail.objects.filter(dedupe_key__startswith=prefix).count()
        if sent >= MAX_INVITE_RESENDS:
            raise Refused(
                f"This invitation has already been sent again {sent} times. Cancel it, or put a bot in the seat."
            )
        check_invitation_limits(inviter=by, emails=[seat.invite_email], new=False)
        invite_mail(match=match, seat=seat, key=f"{prefix}{sent + 1}")
    return seat


def seat_invite(*, match_id: int, number: int, email: str, by: User) -> Seat:
    """The creator invites someone (else) to an open seat."""
    email = email.strip().lower()
    with transaction.atomic():
        match, seat = _waiting_seat(match_id, number, by)
        if seat.invite_token:
            raise Refused("That seat already has an invitation: cancel it first.")
        # Compared by address among this match's invitations only: looking at the seated players' accounts
        # would tell the creator that the address has one.
        if Seat.objects.filter(match=match, invite_email__iexact=email).exclude(pk=seat.pk).exists():
            raise Refused(f"{email} already has a seat at this table.")
        check_invitation_limits(inviter=by, emails=[email])
        seat.invite_email, seat.invite_token = email, secrets.token_urlsafe(24)
        seat.save(update_fields=["invite_email", "invite_token"])
        invite_mail(match=match, seat=seat, key=f"invite:{seat.pk}:{seat.invite_token[:12]}")
    return seat


def seat_bot_put(*, match_id: int, number: int, level: str, by: User) -> Seat:
    """The creator puts a bot in a seat that waits; the match starts if that was the last one."""
    if level not in LEVELS:
        raise Refused(f"Unknown bot level {level!r}; the levels are: {', '.join(LEVELS)}.")
    with transaction.atomic():
        match, seat = _waiting_seat(match_id, number, by)
        seat.user, seat.invite_email, seat.invite_token = None, "", ""
        seat.bot_level, seat.joined = level, True
        seat.save(update_fields=["user", "invite_email", "invite_token", "bot_level", "joined"])
        _start_if_ready(match)
    return seat


def invite_decline(*, token: str) -> Seat:
    """The invited player says no: the link stops working and the creator sees the seat open again."""
    with transaction.atomic():
        seat = Seat.objects.select_for_update().filter(invite_token=token, joined=False).first() if token else None
        if seat is None:
            raise Refused(INVITATION_GONE)
        _seat_open(seat)
    return seat


def seat_substitute(*, match: Match, number: int, user: User) -> int:
    """``user`` takes seat ``number`` and plays on from here: its bot (or the absent player's) stops, and a seat
    awaited now gets a fresh deadline, as one taken back does. Returns the number of the first move they make."""
    with transaction.atomic():
        locked, seats = _lock(match.pk)
        if locked.status != Match.Status.ACTIVE:
            raise Refused("This match is over: its seats can no longer change hands.")
        seat = next((s for s in seats if s.number == number), None)
        if seat is None:
            raise Refused("There is no such seat at this table.")
        if any(s.user_id == user.pk and s.number != number for s in seats):
            raise Refused("You already have a seat at this table.")
        seat.user, seat.bot_level, seat.absent = user, "", False  # the deadline is the new player's
        clock, deadline = locked.clock, None
        if seat.awaiting and clock is not None:
            seat.bank = seat.bank_when_reclaimed(clock)
            deadline = seat.turn_deadline(clock=clock, now=timezone.now())
        fresh = {"bot_level": "", "joined": True, "absent": False, "timeouts_in_row": 0, "notified_at": None}
        Seat.objects.filter(pk=seat.pk).update(user=user, bank=seat.bank, deadline=deadline, **fresh)
        if deadline is not None:
            transaction.on_commit(partial(deadline_schedule, seat_id=seat.pk, deadline=deadline))
        return locked.version + 1  # the version counts the moves made (each move is ply ``version``)
