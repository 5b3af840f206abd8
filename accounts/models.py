"""Players: a user signs in by email and keeps a small profile on the same row."""

from __future__ import annotations

import secrets
import zoneinfo
from datetime import datetime, time, timedelta
from typing import ClassVar

from django.conf import settings
from django.contrib.auth.models import AbstractUser, BaseUserManager
from django.core.validators import MaxValueValidator
from django.db import models

from accounts.vacation_budget import DEFAULT_VACATION_DAYS, VacationBudget
from accounts.validators import display_name_problem, validate_display_name


class UserManager(BaseUserManager["User"]):
    use_in_migrations = True

    def _create_user(self, email: str, password: str | None, **extra: object) -> User:
        if not email:
            raise ValueError("An email address is required.")
        user = self.model(email=self.normalize_email(email), **extra)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_user(self, email: str, password: str | None = None, **extra: object) -> User:
        extra.setdefault("is_staff", False)
        extra.setdefault("is_superuser", False)
        return self._create_user(email, password, **extra)

    def create_superuser(self, email: str, password: str | None = None, **extra: object) -> User:
        extra.setdefault("is_staff", True)
        extra.setdefault("is_superuser", True)
        return self._create_user(email, password, **extra)


# Reminders a player may ask for, in hours before a deadline; the default is 24 h and 2 h.
REMINDER_CHOICES = [
    (24 * 2, "2 days"),
    (24, "24 hours"),
    (12, "12 hours"),
    (6, "6 hours"),
    (2, "2 hours"),
    (1, "1 hour"),
]
DEFAULT_REMINDER_HOURS = [24, 2]
DEFAULT_QUIET_START = time(22, 0)
DEFAULT_QUIET_END = time(7, 0)


def default_vacation_days() -> int:
    """The yearly vacation allowance a new player starts with (setting ``ACCOUNTS_VACATION_DAYS_PER_YEAR``)."""
    return int(getattr(settings, "ACCOUNTS_VACATION_DAYS_PER_YEAR", DEFAULT_VACATION_DAYS))


def default_reminder_hours() -> list[int]:
    return list(DEFAULT_REMINDER_HOURS)


def new_calendar_token() -> str:
    return secrets.token_urlsafe(24)


TIME_ZONE_CHOICES = [(name, name.replace("_", " ")) for name in sorted(zoneinfo.available_timezones())]


class User(AbstractUser):
    class Notify(models.TextChoices):
        EACH_TURN = "each_turn", "Every time it is my turn"
        DAILY = "daily", "A daily digest"
        NEVER = "never", "Never"

    class NotifyBy(models.TextChoices):
        """How a turn notice reaches the player who asked for one each turn: a mail, a browser push, or both."""

        MAIL = "mail", "By mail"
        PUSH = "push", "By a browser notification"
        BOTH = "both", "Both"

    username = None  # type: ignore[assignment]
    first_name = None  # type: ignore[assignment]
    last_name = None  # type: ignore[assignment]
    email = models.EmailField("email address", unique=True)
    display_name = models.CharField(
        max_length=40, blank=True, help_text="The name other players see.", validators=[validate_display_name]
    )
    time_zone = models.CharField(max_length=64, default="UTC", choices=TIME_ZONE_CHOICES)
    notify = models.CharField("turn notifications", max_length=16, choices=Notify.choices, default=Notify.EACH_TURN)
    notify_by = models.CharField(
        "each turn, tell me",
        max_length=8,
        choices=NotifyBy.choices,
        default=NotifyBy.MAIL,
        help_text="A browser notification needs notifications turned on in that browser (below).",
    )
    auto_forced_moves = models.BooleanField(
        "play forced moves for me", default=True, help_text="When you have only one legal move, play it at once."
    )

    # Vacation: a yearly budget of days; the days used belong to ``vacation_year`` and start again from 0 in a new year.
    vacation_days_per_year = models.PositiveSmallIntegerField(
        default=default_vacation_days, validators=[MaxValueValidator(366)]
    )
    vacation_days_used = models.PositiveSmallIntegerField(default=0)
    vacation_year = models.PositiveSmallIntegerField(null=True, blank=True)
    vacation_started_at = models.DateTimeField(null=True, blank=True)
    vacation_until = models.DateTimeField(null=True, blank=True, db_index=True)
    auto_vacation = models.BooleanField(
        "spend vacation days for me",
        default=False,
        help_text="When a deadline would pass, spend one vacation day to give you a day more, while any are left.",
    )
    # Both empty: no quiet hours. Read on the player's own clock (time_zone).
    quiet_start = models.TimeField("quiet hours from", null=True, blank=True, default=DEFAULT_QUIET_START)
    quiet_end = models.TimeField("quiet hours until", null=True, blank=True, default=DEFAULT_QUIET_END)
    reminder_hours = models.JSONField(
        "reminders", default=default_reminder_hours, blank=True, help_text="Hours before a deadline to remind you."
    )
    digest_hour = models.PositiveSmallIntegerField(
        "digest hour",
        default=7,
        validators=[MaxValueValidator(23)],
        help_text="The hour of the day (on your own clock) at which the daily digest is sent.",
    )
    # The secret in the private calendar URL; resetting it makes the old URL stop working.
    calendar_token = models.CharField(max_length=64, unique=True, default=new_calendar_token, editable=False)

    USERNAME_FIELD = "email"
    REQUIRED_FIELDS: ClassVar[list[str]] = []

    # Django's own UserManager needs a username; this model has none, so the stubs' type cannot fit.
    objects: ClassVar[UserManager] = UserManager()  # type: ignore[assignment]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        if self.display_name:
            return self.display_name
        # The start of the address, unless it would pass for a bot or a seat ("bot2@example.com").
        local = self.email.split("@")[0]
        return local if display_name_problem(local) is None else f"Player {self.pk}"

    @property
    def turn_mail_wanted(self) -> bool:
        """A turn notice for this player goes by mail (their choice of each-turn notices says mail or both)."""
        return self.notify_by != self.NotifyBy.PUSH

    @property
    def turn_push_wanted(self) -> bool:
        return self.notify_by in (self.NotifyBy.PUSH, self.NotifyBy.BOTH)

    @property
    def on_vacation(self) -> bool:
        """Whether the player's clocks are stopped; a vacation lasts until the sweep or the player ends it."""
        return self.vacation_started_at is not None

    def vacation_budget(self, *, now: datetime) -> VacationBudget:
        """This year's budget: the days used count only in the year they were spent."""
        used = self.vacation_days_used if self.vacation_year == now.year else 0
        return VacationBudget(yearly_days=self.vacation_days_per_year, used=used)

    @property
    def reminder_offsets(self) -> list[timedelta]:
        """The reminders before a deadline, earliest first, as the match clocks take them."""
        return [timedelta(hours=hours) for hours in sorted(set(self.reminder_hours or []), reverse=True)]

    @property
    def has_quiet_hours(self) -> bool:
        return self.quiet_start is not None and self.quiet_end is not None and self.quiet_start != self.quiet_end
