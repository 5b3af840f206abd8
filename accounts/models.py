"""Players: a user signs in by email and keeps a small profile on the same row."""

from __future__ import annotations

import zoneinfo
from typing import ClassVar

from django.contrib.auth.models import AbstractUser, BaseUserManager
from django.db import models

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


TIME_ZONE_CHOICES = [(name, name.replace("_", " ")) for name in sorted(zoneinfo.available_timezones())]


class User(AbstractUser):
    class Notify(models.TextChoices):
        EACH_TURN = "each_turn", "Every time it is my turn"
        DAILY = "daily", "A daily digest"
        NEVER = "never", "Never"

    username = None  # type: ignore[assignment]
    first_name = None  # type: ignore[assignment]
    last_name = None  # type: ignore[assignment]
    email = models.EmailField("email address", unique=True)
    display_name = models.CharField(
        max_length=40, blank=True, help_text="The name other players see.", validators=[validate_display_name]
    )
    time_zone = models.CharField(max_length=64, default="UTC", choices=TIME_ZONE_CHOICES)
    notify = models.CharField("turn notifications", max_length=16, choices=Notify.choices, default=Notify.EACH_TURN)
    auto_forced_moves = models.BooleanField(
        "play forced moves for me", default=True, help_text="When you have only one legal move, play it at once."
    )

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
