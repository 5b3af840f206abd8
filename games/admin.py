"""Staff pages for matches, moves, chat and the outbox.

Staff are players too, so the admin follows the table's rule: what is hidden at the table (the seed,
the full state, the moves' actions: a sealed bid, a passed card) stays hidden until the match is over,
and an invitation token (a credential) is never shown. Hiding a field from the form is not enough:
the changelist answers lookups on any local field (``?seed__gt=N`` bisects a seed,
``?state__hands__1__0=<card>`` tests a guess), so lookups through those fields are refused too.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

from games.models import ChatMessage, Mail, Match, Move, Seat

# Field paths (as the admin's lookups spell them, from each model) that must never filter a list.
SECRET_PATHS = {
    Match: {"seed", "state", "outcome", "seats__invite_token", "moves__action", "moves__awaited"},
    Move: {"action", "awaited", "match__seed", "match__state", "match__outcome", "match__seats__invite_token"},
    ChatMessage: {
        "match__seed",
        "match__state",
        "match__outcome",
        "match__moves__action",
        "match__seats__invite_token",
    },
    Mail: {"body", "html"},
}


def lookup_is_secret(model: type[Model], lookup: str) -> bool:
    parts = lookup.split("__")
    return any(parts[: len(path.split("__"))] == path.split("__") for path in SECRET_PATHS.get(model, set()))


class RefuseSecretLookups:
    """Admin mixin: a lookup through a secret field is refused (Django answers 400)."""

    model: type[Model]

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        if lookup_is_secret(self.model, lookup):
            return False
        return super().lookup_allowed(lookup, value, request)  # type: ignore[misc]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    # invite_token stays out: it lets whoever holds it take the seat. Read only: seating oneself (or anyone)
    # at an active match by hand would show that seat's hidden hand at the table.
    fields = ("number", "user", "bot_level", "joined", "invite_email", "awaiting", "notified_at", "deadline")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(RefuseSecretLookups, admin.ModelAdmin):
    list_display = ("pk", "game", "players", "status", "version", "private", "updated_at")
    list_filter = ("game", "status", "private")
    # The seed, state and outcome never appear in the form. The status, game, players and options are read
    # only: "finishing" an active match by hand would open its replay and export, and so its deal.
    fields = (
        "game",
        "players",
        "options",
        "status",
        "private",
        "created_by",
        "seed_hash",
        "version",
        "outcome_when_over",
        "seed_when_over",
        "recent_log",
        "recent_chat",
        "created_at",
        "finished_at",
    )
    readonly_fields = (
        "game",
        "players",
        "options",
        "status",
        "created_by",
        "seed_hash",
        "version",
        "outcome_when_over",
        "seed_when_over",
        "recent_log",
        "recent_chat",
        "created_at",
        "finished_at",
    )
    inlines = [SeatInline]

    @admin.display(description="outcome")
    def outcome_when_over(self, obj: Match) -> Any:
        return obj.outcome if obj.is_over else "Shown when the match is over."

    @admin.display(description="recent moves")
    def recent_log(self, obj: Match) -> Any:
        """The log's lines without the engine's reasons: a reason names the cards of a trick as codes, which a
        later deal may have put into a hand again (the table says them in words, as the moves' text does)."""
        return json.dumps([{k: v for k, v in line.items() if k != "reasons"} for line in obj.recent_moves])

    @admin.display(description="seed")
    def seed_when_over(self, obj: Match) -> Any:
        return obj.seed if obj.is_over else "Shown when the match is over."


@admin.register(Move)
class MoveAdmin(RefuseSecretLookups, admin.ModelAdmin):
    list_display = ("match", "ply", "seat", "kind", "text", "created_at")
    list_filter = ("kind",)
    raw_id_fields = ("match",)
    # The public sentence only; the action itself (a sealed bid, a passed card) once the match is over.
    fields = ("match", "ply", "seat", "kind", "text", "action_when_over", "created_at")
    readonly_fields = fields

    @admin.display(description="action")
    def action_when_over(self, obj: Move) -> Any:
        return json.dumps(obj.action) if obj.match.is_over else "Shown when the match is over."

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # the log is append-only


@admin.register(ChatMessage)
class ChatMessageAdmin(RefuseSecretLookups, admin.ModelAdmin):
    list_display = ("match", "user", "text", "created_at")
    fields = ("match", "user", "text", "created_at")
    readonly_fields = fields

    # Staff may remove a message (moderation) but not write one in a player's name.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Mail)
class MailAdmin(RefuseSecretLookups, admin.ModelAdmin):
    list_display = ("subject", "recipient", "status", "attempts", "created_at", "sent_at")
    list_filter = ("status",)
    search_fields = ("recipient", "dedupe_key")
    # The body is left out: an invitation mail carries a live invitation link (a credential for the seat).
    fields = (
        "recipient",
        "user",
        "subject",
        "dedupe_key",
        "status",
        "attempts",
        "last_error",
        "created_at",
        "updated_at",
        "sent_at",
    )
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
