"""Demo players for `make run`: three verified players and a staff admin, all with one published password.

``manage.py demo`` (in the top app, which may use every other) creates them, then their matches and club.
"""

from __future__ import annotations

from allauth.account.models import EmailAddress

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


def demo_players_ensure() -> list[User]:
    """The demo players, in ``DEMO_PLAYERS`` order, and the staff admin beside them (idempotent)."""
    players = [demo_user_ensure(email=e, display_name=n) for e, n in DEMO_PLAYERS]
    demo_user_ensure(email=DEMO_ADMIN[0], display_name=DEMO_ADMIN[1], staff=True)
    return players
