"""Demo players, their matches and a league for `make run`. Safe to run again.

Here, in the top app, because it loads every app's demo data: accounts' players, games' matches, leagues' club.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from accounts.demo import DEMO_ADMIN, DEMO_PASSWORD, DEMO_PLAYERS, demo_players_ensure
from games import demo as games_demo
from leagues import demo as leagues_demo


class Command(BaseCommand):
    help = "Create the demo players, a staff admin and demo matches (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--allow-production",
            action="store_true",
            help="Load the demo players even with DJANGO_ENV=production (they have a published password).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if getattr(settings, "DJANGO_ENV", "") == "production" and not options["allow_production"]:
            # The demo admin is a superuser whose password is in the README: never by accident on a real site.
            raise CommandError(
                "This is a production site (DJANGO_ENV=production): the demo accounts, a staff one among them, "
                "have a published password. Run with --allow-production only on a throwaway stack."
            )

        with transaction.atomic():
            players = demo_players_ensure()
            games_demo.create_demo_matches(users=players)
            leagues_demo.demo_league(users=players)  # a club with a season in progress: a filled standings page at once
        self.stdout.write(f"Demo logins (password for all: {DEMO_PASSWORD}):")
        for email, _name in [*DEMO_PLAYERS, DEMO_ADMIN]:
            suffix = "  (staff: /admin/)" if email == DEMO_ADMIN[0] else ""
            self.stdout.write(f"  {email}{suffix}")
