"""Staff pages for clubs, leagues and seasons.

Standings, meetings, ratings and the audit trail are read-only here: they are sums kept up to
date result by result, and a hand edit would leave them disagreeing with the results (organizers
correct a result with ``result_adjust``, which keeps the sums right and says so in the audit).
Invitation tokens are credentials and never shown; a fixture's match is not a way to look into
the match's hidden state.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from leagues.models import (
    AuditEntry,
    Club,
    ClubInvitation,
    Entrant,
    Fixture,
    League,
    Membership,
    Rating,
    RatingChange,
    Round,
    Season,
    Standing,
)


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ("user",)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "public", "created_at")
    search_fields = ("name", "slug")
    inlines = [MembershipInline]


@admin.register(ClubInvitation)
class ClubInvitationAdmin(admin.ModelAdmin):
    list_display = ("email", "club", "role", "created_at", "accepted_at", "expires_at")
    fields = ("club", "email", "role", "invited_by", "expires_at", "accepted_at", "accepted_by")
    readonly_fields = ("invited_by", "accepted_at", "accepted_by")

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        return not lookup.startswith("token") and super().lookup_allowed(lookup, value, request)  # type: ignore[arg-type]


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "game", "table_size", "scoring", "rated")
    list_filter = ("game", "rated")
    search_fields = ("name", "club__name")


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ("__str__", "number", "status", "starts_on", "ends_on", "divisions", "rounds", "frozen_at")
    list_filter = ("status",)
    readonly_fields = ("frozen_at", "seed", "previous")


@admin.register(Entrant)
class EntrantAdmin(admin.ModelAdmin):
    list_display = ("user", "season", "division", "seed_rank")
    search_fields = ("user__email", "user__display_name")


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("__str__", "division", "opens_at", "play_by", "opened_at", "settled_at")
    readonly_fields = ("opened_at", "settled_at", "byes")


@admin.register(Fixture)
class FixtureAdmin(ReadOnly):
    list_display = ("__str__", "match", "counted_at", "how")
    list_filter = ("how",)

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        # Only the match's own id: anything further (its seed, its state) would leak hidden cards.
        if lookup.startswith("match__") and lookup not in ("match__id", "match__id__exact", "match__exact"):
            return False
        return super().lookup_allowed(lookup, value, request)  # type: ignore[arg-type]


@admin.register(Standing)
class StandingAdmin(ReadOnly):
    list_display = ("entrant", "season", "division", "played", "points", "wins")
    list_filter = ("season",)


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnly):
    list_display = ("at", "entry_club", "season", "kind", "actor", "text")
    list_filter = ("kind",)
    # The club of a season's entry is its league's: read in the list's one query, not once per row.
    list_select_related = ("club", "season__league__club", "actor")

    @admin.display(description="club")
    def entry_club(self, entry: AuditEntry) -> Club | None:
        return entry.club_of()


@admin.register(Rating)
class RatingAdmin(ReadOnly):
    list_display = ("user", "game", "ordinal", "mu", "sigma", "matches", "updated_at")
    list_filter = ("game",)


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnly):
    list_display = ("rating", "delta", "ordinal", "fixture", "at")
