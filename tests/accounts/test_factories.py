"""UserFactory is shared with the other apps' tests; its promises are checked here."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress

from tests.accounts.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def test_it_builds_distinct_verified_players_with_the_shared_password() -> None:
    first, second = UserFactory(), UserFactory()
    assert first.email != second.email
    for user in (first, second):
        assert user.check_password(PASSWORD)
        address = EmailAddress.objects.get(user=user)
        assert (address.email, address.verified, address.primary) == (user.email, True, True)


def test_it_can_build_an_unverified_player() -> None:
    user = UserFactory(verified=False)
    assert not EmailAddress.objects.get(user=user).verified


def test_it_returns_the_existing_player_for_a_known_email() -> None:
    assert UserFactory(email="same@example.com") == UserFactory(email="same@example.com")
    assert EmailAddress.objects.filter(email="same@example.com").count() == 1
