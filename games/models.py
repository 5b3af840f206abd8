"""Matches played by correspondence: who sits where, every move, the chat, and the mail outbox.

The engine's state is stored as a snapshot on the match; the moves are the
append-only record from which the snapshot can always be rebuilt.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from engine import Game, get_game

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

    # Not columns: what the selectors attach to a match they read for a page, with it in the same queries.
    seat_list: list[Seat]  # every seat with its player (match_for_viewer)
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
    def chat_mark(self) -> int:
        """The id of the newest chat message: part of the polling token with the version."""
        return self.recent_chat[-1]["id"] if self.recent_chat else 0


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

    class Meta:
        ordering = ["number"]
        indexes = [models.Index(fields=["user", "awaiting"])]
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
    def name(self) -> str:
        if self.bot_level:
            return f"Bot {self.number + 1} ({self.get_bot_level_display().lower()})"
        if self.joined and self.user is not None:
            return self.user.name
        # An open invitation names neither its address nor an account the address may belong to: either
        # would tell a reader who is invited, or that an address has an account. The creator's table
        # shows the address (games.presenters.base.Presenter.seats).
        return f"Seat {self.number + 1} (invited)" if self.invite_token else f"Seat {self.number + 1}"


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

    recipient = models.EmailField()
    user = models.ForeignKey(
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

    class Meta:
        indexes = [models.Index(fields=["status", "updated_at"])]

    def __str__(self) -> str:
        return f"{self.subject} to {self.recipient} ({self.status})"
