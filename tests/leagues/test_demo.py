"""`manage.py demo` gives `make run` its logins, and running it twice changes nothing."""

from __future__ import annotations

from io import StringIO
from unittest import mock

import pytest
from allauth.account.models import EmailAddress
from django.core.management import CommandError, call_command
from django.test import Client

from accounts.demo import DEMO_ADMIN, DEMO_PASSWORD, DEMO_PLAYERS
from accounts.models import User

pytestmark = pytest.mark.django_db


def run_demo() -> str:
    out = StringIO()
    call_command("demo", stdout=out)
    return out.getvalue()


def test_it_creates_verified_players_and_a_staff_admin() -> None:
    with (
        mock.patch("games.demo.create_demo_matches") as create_matches,
        mock.patch("leagues.demo.demo_league") as league,
    ):
        output = run_demo()
    assert league.call_args.kwargs["users"] == create_matches.call_args.kwargs["users"]
    emails = [email for email, _ in [*DEMO_PLAYERS, DEMO_ADMIN]]
    assert sorted(User.objects.values_list("email", flat=True)) == sorted(emails)
    assert EmailAddress.objects.filter(email__in=emails, verified=True, primary=True).count() == len(emails)
    admin = User.objects.get(email=DEMO_ADMIN[0])
    assert admin.is_staff and admin.is_superuser
    assert not User.objects.filter(is_staff=True).exclude(pk=admin.pk).exists()
    players = create_matches.call_args.kwargs["users"]
    assert [p.email for p in players] == [email for email, _ in DEMO_PLAYERS]
    assert DEMO_PASSWORD in output and all(email in output for email in emails)


def test_it_is_idempotent_and_restores_the_demo_password() -> None:
    run_demo()
    alice = User.objects.get(email=DEMO_PLAYERS[0][0])
    alice.set_password("changed-by-someone")
    alice.display_name = "Alice the Bold"
    alice.save()
    run_demo()
    emails = [email for email, _ in [*DEMO_PLAYERS, DEMO_ADMIN]]
    assert User.objects.filter(email__in=emails).count() == len(emails)
    assert EmailAddress.objects.filter(email__in=emails).count() == len(emails)
    alice.refresh_from_db()
    assert alice.check_password(DEMO_PASSWORD)
    assert alice.display_name == "Alice the Bold"


def test_it_gives_logins_that_work(client: Client) -> None:
    run_demo()
    client.post("/accounts/login/", {"login": DEMO_PLAYERS[1][0], "password": DEMO_PASSWORD})
    assert client.session.get("_auth_user_id") == str(User.objects.get(email=DEMO_PLAYERS[1][0]).pk)


def test_it_refuses_to_run_on_a_production_site(settings) -> None:
    settings.DJANGO_ENV = "production"
    with pytest.raises(CommandError, match="--allow-production"):
        run_demo()
    assert not User.objects.exists()


def test_it_runs_on_a_production_site_when_asked_explicitly(settings) -> None:
    settings.DJANGO_ENV = "production"
    with mock.patch("games.demo.create_demo_matches"):
        call_command("demo", "--allow-production", stdout=StringIO())
    assert User.objects.filter(email=DEMO_ADMIN[0], is_superuser=True).exists()
