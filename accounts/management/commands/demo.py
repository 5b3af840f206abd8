"""Demo players (and, through the games app, their matches) for `make run`. Safe to run again."""

from __future__ import annotations

from typing import Any

from allauth.account.models import EmailAddress
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from accounts.models import User

DEMO_PASSWORD = "parlour-demo"
DEMO_PLAYERS = [
    ("alice@example.com", "Alice"),
    ("bob@example.com", "Bob"),
    ("carol@example.com", "Carol"),
]
DEMO_ADMIN = ("admin@example.com", "Admin")


def demo_user_ensure(*, email: str, display_name: str, staff: bool = False) -> User:
    """Create the demo user if missing; leave an existing one as its owner changed it, except the password."""
    user, _ = User.objects.get_or_create(
        email=email, defaults={"display_name": display_name, "is_staff": staff, "is_superuser": staff}
    )
    # Reset the password every time so the printed logins always work.
    user.set_password(DEMO_PASSWORD)
    user.save(update_fields=["password"])
    EmailAddress.objects.update_or_create(user=user, email=email, defaults={"verified": True, "primary": True})
    return user


class Command(BaseCommand):
    help = "Create the demo players, a staff admin and demo matches (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--allow-production",
            action="store_true",
            help="Load the demo players even with DJANGO_ENV=production (they have a published password).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        from games.demo import create_demo_matches
        from leagues.demo import demo_league

        if getattr(settings, "DJANGO_ENV", "") == "production" and not options["allow_production"]:
            # The demo admin is a superuser whose password is in the README: never by accident on a real site.
            raise CommandError(
                "This is a production site (DJANGO_ENV=production): the demo accounts, a staff one among them, "
                "have a published password. Run with --allow-production only on a throwaway stack."
            )

        with transaction.atomic():
            players = [demo_user_ensure(email=e, display_name=n) for e, n in DEMO_PLAYERS]
            demo_user_ensure(email=DEMO_ADMIN[0], display_name=DEMO_ADMIN[1], staff=True)
            create_demo_matches(users=players)
            demo_league(users=players)  # a club with a season in progress: a filled standings page at once
        self.stdout.write(f"Demo logins (password for all: {DEMO_PASSWORD}):")
        for email, _name in [*DEMO_PLAYERS, DEMO_ADMIN]:
            suffix = "  (staff: /admin/)" if email == DEMO_ADMIN[0] else ""
            self.stdout.write(f"  {email}{suffix}")
