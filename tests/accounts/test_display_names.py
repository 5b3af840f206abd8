"""A display name is a person's name: it cannot pass for a bot, a seat or the site, nor hide characters."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from accounts.validators import display_name_problem
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db

PROFILE = {"time_zone": "UTC", "notify": "each_turn", "auto_forced_moves": "on"}
SIGNUP = {
    "email": "newcomer@example.com",
    "password1": "a-fresh-Passw0rd-for-cards",
    "password2": "a-fresh-Passw0rd-for-cards",
}

REFUSED = {
    # Characters that steer or hide text.
    "right-to-left override": ("Ann\u202eecilA", "invisible or control"),
    "left-to-right isolate": ("\u2066Ann", "invisible or control"),
    "zero-width space": ("Al\u200bice", "invisible or control"),
    "zero-width joiner": ("Alice\u200d", "invisible or control"),
    "byte order mark": ("\ufeffAlice", "invisible or control"),
    "soft hyphen": ("Al\u00adice", "invisible or control"),
    "a tab": ("Ann\tLee", "invisible or control"),
    "a line break": ("Ann\nBot 2 (basic)", "invisible or control"),
    "a bell": ("Ann\x07", "invisible or control"),
    "a Hangul filler": ("\u3164", "invisible or control"),
    "a braille blank": ("Ann\u2800", "invisible or control"),
    "a no-break space": ("Ann\u00a0Lee", "ordinary spaces only"),
    "an ideographic space": ("Ann\u3000Lee", "ordinary spaces only"),
    # Names the site gives to seats.
    "a bot seat": ("Bot 2 (basic)", "bot or a seat"),
    "a bot in capitals": ("BOT 7", "bot or a seat"),
    "a bot with punctuation": ("bot#3", "bot or a seat"),
    "a bot without a space": ("Bot4", "bot or a seat"),
    "a bot in fullwidth letters": ("Ｂｏｔ ２", "bot or a seat"),
    "a bot with a zero for the o": ("B0t 2", "bot or a seat"),
    "a bot in Cyrillic letters": ("Воt 2", "bot or a seat"),
    "a seat": ("Seat 3", "bot or a seat"),
    "a seat in lower case": ("seat 5", "bot or a seat"),
    "an invitation": ("Ann (invited)", "bot or a seat"),
    "an invitation in capitals": ("Ann (INVITED)", "bot or a seat"),
    "an invited address": ("Invited: ann@example.org", "bot or a seat"),
    "a bot level": ("Ann (strong)", "bot or a seat"),
    # Words the site uses itself.
    "the bare word bot": ("Bot", "the site uses itself"),
    "the site's name": ("Parlour", "the site uses itself"),
    "the site's name spaced out": ("P a r l o u r", "the site uses itself"),
    "staff": ("Admin", "the site uses itself"),
    "staff with lookalikes": ("Adm1n", "the site uses itself"),
    "the system": ("SYSTEM", "the site uses itself"),
    "you": ("You", "the site uses itself"),
}
ACCEPTED = [
    "Alice",
    "Zoë",
    "Zoe\u0308",
    "Ann Lee",
    "Robotnik",
    "Seattle",
    "Bo 2",
    "李小龙",
    "Ali (Ally)",
    "Abbot",
    "O'Brien",
]


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_the_profile_refuses_a_name_that_impersonates_or_hides(client: Client, case: str) -> None:
    name, message = REFUSED[case]
    user = UserFactory(display_name="Ivo")
    client.force_login(user)
    response = client.post("/me/", {**PROFILE, "display_name": name})
    assert response.status_code == 200 and message in response.content.decode()
    user.refresh_from_db()
    assert user.display_name == "Ivo"


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_sign_up_refuses_a_name_that_impersonates_or_hides(client: Client, case: str) -> None:
    name, message = REFUSED[case]
    response = client.post("/accounts/signup/", {**SIGNUP, "display_name": name})
    assert response.status_code == 200 and message in response.content.decode()
    assert not User.objects.filter(email=SIGNUP["email"]).exists()


@pytest.mark.parametrize("name", ACCEPTED)
def test_ordinary_names_are_accepted(client: Client, name: str) -> None:
    assert display_name_problem(name) is None
    user = UserFactory(display_name="Ivo")
    client.force_login(user)
    assert client.post("/me/", {**PROFILE, "display_name": name}).status_code == 302
    user.refresh_from_db()
    assert user.display_name == name


def test_sign_up_keeps_an_ordinary_name(client: Client) -> None:
    assert client.post("/accounts/signup/", {**SIGNUP, "display_name": "Dora  Lee"}).status_code == 302
    assert User.objects.get(email=SIGNUP["email"]).display_name == "Dora Lee"


def test_runs_of_spaces_become_one(client: Client) -> None:
    user = UserFactory(display_name="Ivo")
    client.force_login(user)
    client.post("/me/", {**PROFILE, "display_name": "Ann    Lee"})
    user.refresh_from_db()
    assert user.display_name == "Ann Lee"


def test_the_admin_form_refuses_them_too() -> None:
    from accounts.admin import UserEditForm

    user = UserFactory()
    data = {"email": user.email, "display_name": "Bot 3 (strong)", "time_zone": "UTC", "notify": "never",
            "date_joined": "2026-01-01 00:00:00"}  # fmt: skip
    form = UserEditForm(data, instance=user)
    assert not form.is_valid() and "display_name" in form.errors


def test_an_address_that_looks_like_a_bot_does_not_name_the_player() -> None:
    user = UserFactory(email="bot2@example.com", display_name="")
    assert user.name == f"Player {user.pk}"
    assert UserFactory(email="dora@example.com", display_name="").name == "dora"
