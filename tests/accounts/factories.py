"""Test factories for players. Other apps import ``UserFactory`` from here; keep its interface stable."""

from __future__ import annotations

from typing import Any

import factory
from allauth.account.models import EmailAddress

from accounts.models import User

PASSWORD = "pw-parlour-123"


class UserFactory(factory.django.DjangoModelFactory):
    """A player who has signed up and verified their email, with the password ``PASSWORD``."""

    class Meta:
        model = User
        django_get_or_create = ("email",)
        skip_postgeneration_save = True

    email = factory.Sequence(lambda n: f"player{n}@example.com")
    display_name = factory.Sequence(lambda n: f"Player {n}")
    password = factory.django.Password(PASSWORD)

    @factory.post_generation
    def verified(self: User, create: bool, extracted: Any, **kwargs: Any) -> None:
        # Pass verified=False to get a player who has not confirmed their address yet.
        if not create:
            return
        EmailAddress.objects.update_or_create(
            user=self,
            email=self.email,
            defaults={"verified": extracted is not False, "primary": True},
        )
