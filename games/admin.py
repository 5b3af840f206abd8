from django.contrib import admin

from games.models import ChatMessage, Mail, Match, Move, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "user", "bot_level", "joined", "invite_email", "awaiting", "notified_at", "deadline")
    raw_id_fields = ("user",)


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("pk", "game", "players", "status", "version", "private", "updated_at")
    list_filter = ("game", "status", "private")
    # The seed and state stay out of the form: the seed is secret until the end.
    exclude = ("seed", "state")
    readonly_fields = ("seed_hash", "version", "outcome", "finished_at")
    inlines = [SeatInline]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("match", "ply", "seat", "kind", "text", "created_at")
    list_filter = ("kind",)
    raw_id_fields = ("match",)

    def has_change_permission(self, request, obj=None) -> bool:  # noqa: ANN001 - the log is append-only
        return False


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("match", "user", "text", "created_at")
    raw_id_fields = ("match", "user")


@admin.register(Mail)
class MailAdmin(admin.ModelAdmin):
    list_display = ("subject", "recipient", "status", "attempts", "created_at", "sent_at")
    list_filter = ("status",)
    search_fields = ("recipient", "dedupe_key")
