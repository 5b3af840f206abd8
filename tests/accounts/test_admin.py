"""Django admin is for staff, and its user pages work with an email-only user model."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client: Client) -> Client:
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def test_it_keeps_players_out_of_the_admin(client: Client) -> None:
    client.force_login(UserFactory())
    response = client.get("/admin/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


@pytest.mark.parametrize(
    "path", ["/admin/", "/admin/accounts/user/", "/admin/accounts/user/add/", "/admin/accounts/user/?q=example"]
)
def test_it_renders_admin_pages_for_staff(staff_client: Client, path: str) -> None:
    assert staff_client.get(path).status_code == 200


def test_it_edits_and_adds_users_in_the_admin(staff_client: Client) -> None:
    player = UserFactory()
    assert staff_client.get(f"/admin/accounts/user/{player.pk}/change/").status_code == 200
    response = staff_client.post(
        "/admin/accounts/user/add/",
        {
            "email": "new@example.com",
            "usable_password": "true",
            "password1": "Sturdy-pass-42",
            "password2": "Sturdy-pass-42",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert User.objects.get(email="new@example.com").check_password("Sturdy-pass-42")
