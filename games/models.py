"""Matches played by correspondence: who sits where, every move, the chat, and the mail outbox.

The engine's state is stored as a snapshot on the match; the moves are the
append-only record from which the snapshot can always be rebuilt.

Facts about a seat or a match live here, and the services ask them: a seat's turn deadline, whether
its clock is paused, who is owed its turn mail, whether a late sealed bid still counts. To change a
clock, open ``games.clocks`` (the arithmetic, pure) and these methods.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from engine import Game, get_game
from engine.bots import LEVELS
from games.clocks import TimeControl, deadline_for

if TYPE_CHECKING:
    from accounts.models import User

RECENT_MOVES = 30
RECENT_CHAT = 50


class Match(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for players"
        ACTIVE = "active", "In play"
        FINISHED = "finished", "Finished"
        ABANDONED = "abandoned", "Abandoned"

    game = models.CharField(max_length=32)
    players = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict, blank=True)
    # The seed stays secret until the end; the hash is the commitment shown from the start.
    seed = models.BigIntegerField()
    seed_hash = models.CharField(max_length=64)
    state = models.JSONField()
    version = models.PositiveIntegerField(default=0, help_text="The number of moves made so far.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.WAITING)
    private = models.BooleanField(default=False, help_text="Only the seated players may watch.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    outcome = models.JSONField(null=True, blank=True)
    # Copies of the newest log lines and chat messages, kept with the snapshot so the
    # table page needs no query for them; Move and ChatMessage remain the record.
    recent_moves = models.JSONField(default=list, blank=True)
    recent_chat = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Set at creation: a match still waiting for invited players then is abandoned and its links voided
    # (games.tasks.waiting_expire), so that an invitation cannot be held open for ever.
    expires_at = models.DateTimeField(null=True, blank=True)
    # TimeControl.to_json(); None for a casual match, whose turns never time out.
    time_control = models.JSONField(null=True, blank=True)
    timeout_bot_level = models.CharField(
        max_length=16,
        choices=[(level, level.title()) for level in LEVELS],
        default="basic",
        help_text="The bot that plays a move when a player's time runs out, and plays for an absent player.",
    )

    # Not columns: what the selectors attach to a match they read for a page, with it in the same queries.
    seat_list: list[Seat]  # every seat with its player (match_for_viewer)
    viewer_awaiting: int | None  # how many matches await the viewer, when read with the table (match_for_viewer)
    my_seat: Seat  # the viewer's seat (dashboard_for)

    class Meta:
        verbose_name_plural = "matches"
        indexes = [models.Index(fields=["status", "-updated_at"])]

    def __str__(self) -> str:
        return f"{self.title} #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("games-match", args=[self.pk])

    @property
    def engine(self) -> Game:
        return get_game(self.game)

    @property
    def title(self) -> str:
        return getattr(self.engine, "TITLE", self.game.title())

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABANDONED)

    @property
    def invitations_open(self) -> bool:
        """Whether an invited player may still take a seat: the match waits and has not expired.

        Read at the moment of asking: a match past ``expires_at`` that the sweep has not reached yet is closed too.
        """
        return self.status == self.Status.WAITING and (self.expires_at is None or self.expires_at > timezone.now())

    @property
    def clock(self) -> TimeControl | None:
        return TimeControl.from_json(self.time_control)

    @property
    def chat_mark(self) -> int:
        """The id of the newest chat message: part of the polling token with the version."""
        return self.recent_chat[-1]["id"] if self.recent_chat else 0

    def simultaneous_ok(self, seat: int, version: int) -> bool:
        """Whether ``seat`` may still answer the older ``version`` it was shown: a sealed bid may arrive on
        an older version when others bid meanwhile.

        Accepted only if the seat was awaited at the version it saw and at every move since,
        and made none of them: it was answering the very step it was shown. One query.
        """
        if not 0 <= version < self.version:
            return False
        since = list(Move.objects.filter(match=self, ply__gte=version).values_list("seat", "awaited"))
        return len(since) == self.version - version and all(s != seat and seat in awaited for s, awaited in since)


class Seat(models.Model):
    class BotLevel(models.TextChoices):
        RANDOM = "random", "Random"
        BASIC = "basic", "Basic"
        STRONG = "strong", "Strong"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats"
    )
    bot_level = models.CharField(max_length=16, choices=BotLevel.choices, blank=True)
    joined = models.BooleanField(default=False, help_text="A bot, or a human who accepted the seat.")
    invite_email = models.EmailField(blank=True)
    invite_token = models.CharField(max_length=64, blank=True, db_index=True)
    awaiting = models.BooleanField(default=False, help_text="The engine waits for this seat now.")
    # Set when a turn mail is queued, cleared when the seat moves: one mail per unanswered turn.
    notified_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    # The time left on the seat's clock between its turns; None until its first turn (it then has the initial time).
    bank = models.DurationField(null=True, blank=True)
    # Timeouts since the player last moved; at GAMES_TIMEOUTS_BEFORE_ABSENT the seat is marked absent.
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    absent = models.BooleanField(
        default=False, help_text="The player stopped answering: the bot plays until they return."
    )
    bot_moves = models.PositiveIntegerField(
        default=0, help_text="Moves a bot made for this player: timeouts and absence."
    )
    # When the player last had the table open (a page load or a poll), written at most once a minute:
    # a player at the table has their turn mail held (games.outbox) and no reminder (games.notify).
    last_seen = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        indexes = [
            models.Index(fields=["user", "awaiting"]),
            # The deadline sweep reads only the few seats with a running clock.
            models.Index(fields=["deadline"], condition=Q(deadline__isnull=False), name="seat_deadline_running"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="seat_unique_number"),
            models.UniqueConstraint(
                fields=["match", "user"], condition=Q(user__isnull=False), name="seat_one_per_user"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} at {self.match}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def played_by_bot(self) -> bool:
        """A bot seat, or a human seat the bot plays while its player is absent."""
        return bool(self.bot_level) or self.absent

    @property
    def name(self) -> str:
        if self.bot_level:
            return f"Bot {self.number + 1} ({self.get_bot_level_display().lower()})"
        if self.joined and self.user is not None:
            return self.user.name
        # An open invitation names neither its address nor an account the address may belong to: either
        # would tell a reader who is invited, or that an address has an account. The creator's table
        # shows the address (games.presenters.base.Presenter.seats).
        return f"Seat {self.number + 1} (invited)" if self.invite_token else f"Seat {self.number + 1}"

    @property
    def clock_paused(self) -> bool:
        """Whether the seat's clock stands still now: while its player is on vacation (``games.vacation``).

        Read from the seat's player as loaded with the seat (``selectors.MOVE_SEAT_FIELDS`` includes the field).
        """
        user = self.user
        return user is not None and user.vacation_started_at is not None

    @property
    def turn_mail_reader(self) -> User | None:
        """The player to mail now that the seat is awaited: wants each-turn mail and has not had it for this turn."""
        user = self.user
        # An absent player has had the absence mail; the bot plays their turns until they come back.
        if self.played_by_bot or user is None or self.notified_at is not None or user.notify != user.Notify.EACH_TURN:
            return None
        return user

    def turn_deadline(self, *, clock: TimeControl | None, now: datetime) -> datetime | None:
        """When a turn of this seat that starts ``now`` runs out under ``clock`` (its match's): when the
        seat's bank (the initial time at first) is spent.

        None for a casual match, a seat the bot plays (a bot, an absent player) and a paused clock.
        A running deadline is kept until the seat moves, so a seat in a simultaneous step keeps the
        clock it started with.
        """
        if clock is None or self.played_by_bot or self.clock_paused:
            return None
        return deadline_for(now=now, bank=clock.initial if self.bank is None else self.bank)

    def bank_when_reclaimed(self, clock: TimeControl) -> timedelta:
        """The time left on the seat's clock when its player takes it back from the bot (``services.seat_reclaim``):
        at least what one move earns (the increment, or the initial time on a clock without one), so that
        coming back is never an instant timeout."""
        least = clock.increment or clock.initial
        return max(clock.initial if self.bank is None else self.bank, least)


@dataclass(frozen=True)
class SeatSpec:
    """Who sits in a seat at creation (``services.match_create``): a user (seated at once), a bot level, or an
    email invitation. Not a row: what the create forms and the leagues hand the service."""

    user: User | None = None
    bot: str = ""
    email: str = ""


class Move(models.Model):
    class Kind(models.TextChoices):
        PLAYER = "player", "Player"
        BOT = "bot", "Bot"
        FORCED = "forced", "Forced"
        TIMEOUT = "timeout", "Timeout"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.PLAYER)
    text = models.CharField(max_length=300, help_text="The public sentence for the log.")
    # Who the engine awaited just before this move: tells a late sealed bid from a stale page.
    awaited = models.JSONField(default=list)
    # Why it happened: what this move settled (a trick, a hand, a showdown), as the engine's ``reasons`` say.
    reasons = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["ply"]
        constraints = [models.UniqueConstraint(fields=["match", "ply"], name="move_unique_ply")]

    def __str__(self) -> str:
        return f"{self.match} ply {self.ply}: seat {self.seat} {self.text}"


class ChatMessage(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    text = models.TextField(max_length=1000)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return self.text[:50]


class Mail(models.Model):
    """The outbox: a row per mail, written in the same transaction as the move that caused it."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        SENDING = "sending", "Sending"
        SENT = "sent", "Sent"
        FAILED = "failed", "Failed"
        # Not sent, on purpose: a held turn mail the player no longer needs (the reason is in last_error).
        CANCELLED = "cancelled", "Cancelled"

    recipient = models.EmailField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Who sent an invitation mail: the invitation limits count a player's mails of the last day by it.
    inviter = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    subject = models.CharField(max_length=200)
    body = models.TextField()
    html = models.TextField(blank=True)
    # Whatever could send the same mail twice (a retried move, a second digest run) hits this.
    dedupe_key = models.CharField(max_length=200, unique=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    # Not sent before this moment: a turn mail waits out a grace period, in which the player may answer.
    send_after = models.DateTimeField(null=True, blank=True)
    # The turn a turn mail is about: the seat awaited once the match reached this version. At send time
    # the mail is dropped if that seat has moved since, or held while its player is at the table (games.outbox).
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    seat_number = models.PositiveSmallIntegerField(null=True, blank=True)
    turn_version = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["status", "updated_at"]),
            # The invitation limits count the invitations an address was sent lately (games.notify).
            models.Index(fields=["recipient", "created_at"], name="mail_recipient_created"),
        ]

    def __str__(self) -> str:
        return f"{self.subject} to {self.recipient} ({self.status})"


class PushSubscription(models.Model):
    """A browser's Web Push subscription for one player (``games.push``): where to send and the keys to encrypt with."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    # The push service's URL for this browser: unique, so that subscribing again updates the row.
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200, help_text="The browser's public key (base64url).")
    auth = models.CharField(max_length=100, help_text="The browser's authentication secret (base64url).")
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Push subscription {self.pk} of {self.user_id}"

    @property
    def info(self) -> dict[str, Any]:
        """The subscription as ``pywebpush.webpush`` takes it."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}
