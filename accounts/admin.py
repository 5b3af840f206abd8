from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm

from accounts.models import User

admin.site.site_header = "Parlour administration"
admin.site.site_title = "Parlour admin"


class UserCreationForm(AdminUserCreationForm):
    class Meta(AdminUserCreationForm.Meta):
        model = User
        fields = ("email",)


class UserEditForm(UserChangeForm):
    class Meta(UserChangeForm.Meta):
        model = User
        fields = "__all__"


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    # Django's UserAdmin assumes a username and first/last names; this model has only the email.
    add_form = UserCreationForm
    form = UserEditForm
    ordering = ["email"]
    list_display = ["email", "display_name", "is_staff", "is_active", "date_joined"]
    search_fields = ["email", "display_name"]
    # A vacation starts and ends only through the vacation service, which stops and restarts the player's clocks with it.
    readonly_fields = ["vacation_started_at", "vacation_until"]
    fieldsets = [
        (None, {"fields": ["email", "password"]}),
        ("Profile", {"fields": ["display_name", "time_zone", "notify", "auto_forced_moves"]}),
        # The calendar token is a secret the player resets from the profile page; the admin never shows it.
        (
            "Vacation and reminders",
            {
                "fields": [
                    *("vacation_days_per_year", "vacation_days_used", "vacation_year"),
                    *("vacation_started_at", "vacation_until", "auto_vacation"),
                    *("reminder_hours", "quiet_start", "quiet_end", "digest_hour"),
                ]
            },
        ),
        ("Permissions", {"fields": ["is_active", "is_staff", "is_superuser", "groups", "user_permissions"]}),
        ("Dates", {"fields": ["last_login", "date_joined"]}),
    ]
    add_fieldsets = [
        (None, {"classes": ["wide"], "fields": ["email", "usable_password", "password1", "password2"]}),
    ]
