"""Sign up, verify, log in, log out, reset the password and log in by emailed code, end to end through allauth."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import Client

from accounts.models import User
from tests.accounts.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-fresh-Passw0rd-for-cards"


def link_in_last_mail() -> str:
    urls = re.findall(r"https?://testserver(/\S+)", mail.outbox[-1].body)
    assert urls, mail.outbox[-1].body
    return urls[0]


def logged_in_user_id(client: Client) -> str | None:
    return client.session.get("_auth_user_id")


def sign_up(client: Client, email: str = "dora@example.com", **extra: str) -> object:
    data = {"email": email, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD, **extra}
    return client.post("/accounts/signup/", data)


def test_it_signs_up_verifies_and_logs_in(client: Client) -> None:
    response = sign_up(client, display_name="Dora")
    assert response.status_code == 302 and response["Location"] == "/accounts/confirm-email/"
    user = User.objects.get(email="dora@example.com")
    assert user.display_name == "Dora"
    assert not EmailAddress.objects.get(user=user).verified
    assert logged_in_user_id(client) is None
    assert len(mail.outbox) == 1 and mail.outbox[0].subject.startswith("[Parlour]")
    assert "Hello from Parlour!" in mail.outbox[0].body

    client.get(link_in_last_mail())
    assert EmailAddress.objects.get(user=user).verified

    client.post("/accounts/login/", {"login": "dora@example.com", "password": NEW_PASSWORD})
    assert logged_in_user_id(client) == str(user.pk)


def test_it_keeps_unverified_players_out(client: Client) -> None:
    sign_up(client)
    mail.outbox.clear()
    response = client.post("/accounts/login/", {"login": "dora@example.com", "password": NEW_PASSWORD})
    assert logged_in_user_id(client) is None
    assert response.status_code == 302 and response["Location"] == "/accounts/confirm-email/"
    # allauth sends the verification mail again, so a lost first mail is no dead end.
    assert len(mail.outbox) == 1


def test_it_refuses_a_second_account_for_the_same_email(client: Client) -> None:
    owner = UserFactory(email="dora@example.com")
    response = sign_up(client)
    # The page looks like any sign-up (no telling strangers who plays here); the owner gets a note instead.
    assert response.status_code == 302
    assert list(User.objects.filter(email="dora@example.com")) == [owner]
    owner.refresh_from_db()
    assert owner.check_password(PASSWORD)
    assert logged_in_user_id(client) is None
    assert mail.outbox[-1].to == ["dora@example.com"]
    assert "already" in mail.outbox[-1].body


def test_it_refuses_mismatched_passwords_and_creates_nothing(client: Client) -> None:
    response = client.post(
        "/accounts/signup/", {"email": "dora@example.com", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD + "x"}
    )
    assert response.status_code == 200
    assert "same password" in response.content.decode()
    assert not User.objects.filter(email="dora@example.com").exists()
    assert mail.outbox == []


def test_it_refuses_a_wrong_password(client: Client) -> None:
    UserFactory(email="erin@example.com")
    response = client.post("/accounts/login/", {"login": "erin@example.com", "password": "not-it"})
    assert response.status_code == 200
    assert "not correct" in response.content.decode()
    assert logged_in_user_id(client) is None


def test_it_logs_in_a_factory_player_with_the_shared_password(client: Client) -> None:
    user = UserFactory()
    client.post("/accounts/login/", {"login": user.email, "password": PASSWORD})
    assert logged_in_user_id(client) == str(user.pk)


def test_it_logs_out_only_by_post(client: Client) -> None:
    user = UserFactory()
    client.force_login(user)
    client.get("/accounts/logout/")
    assert logged_in_user_id(client) == str(user.pk)
    response = client.post("/accounts/logout/")
    assert response.status_code == 302 and response["Location"] == "/"
    assert logged_in_user_id(client) is None


def test_it_resets_a_forgotten_password(client: Client) -> None:
    user = UserFactory(email="finn@example.com")
    response = client.post("/accounts/password/reset/", {"email": "finn@example.com"})
    assert response.status_code == 302
    key_url = link_in_last_mail()
    set_password_url = client.get(key_url)["Location"]
    response = client.post(set_password_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD) and not user.check_password(PASSWORD)
    client.post("/accounts/login/", {"login": "finn@example.com", "password": NEW_PASSWORD})
    assert logged_in_user_id(client) == str(user.pk)


def test_it_logs_in_by_an_emailed_code(client: Client) -> None:
    user = UserFactory(email="gwen@example.com")
    response = client.post("/accounts/login/code/", {"email": "gwen@example.com"})
    assert response.status_code == 302
    code = re.search(r"^\s*([A-Z0-9]{4}-[A-Z0-9]{4})\s*$", mail.outbox[-1].body, re.MULTILINE)
    assert code, mail.outbox[-1].body
    client.post(response["Location"], {"code": "WRON-GXXX"})
    assert logged_in_user_id(client) is None
    client.post(response["Location"], {"code": code.group(1)})
    assert logged_in_user_id(client) == str(user.pk)
