"""The leagues app owns /leagues/: the club list answers there, and every league page lives under it.

That it migrates cleanly is checked for every app by ``tests/test_project.py`` (``makemigrations --check``).
"""

from __future__ import annotations

import pytest
from django.apps import apps
from django.urls import URLResolver, get_resolver, resolve, reverse

import leagues.urls
from leagues import views


def test_it_is_installed() -> None:
    assert apps.is_installed("leagues")


def test_it_owns_the_leagues_prefix() -> None:
    # Check that /leagues/ leads to the app's own URLs, not merely that some view answers there.
    mounted = [
        p.urlconf_module
        for p in get_resolver().url_patterns
        if isinstance(p, URLResolver) and str(p.pattern) == "leagues/"
    ]
    assert mounted == [leagues.urls]
    assert resolve("/leagues/").func is views.clubs
    assert reverse("leagues-clubs") == "/leagues/"


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("leagues-club", ["tuesday"]),
        ("leagues-league", ["tuesday", "members"]),
        ("leagues-standings", ["invite", "members", 3]),
        ("leagues-invite", ["tok3n"]),
    ],
)
def test_every_page_lives_under_the_prefix_and_no_slug_shadows_another_page(name: str, args: list[object]) -> None:
    # A club called "Invite" or a league called "Members" must still reach its own page.
    path = reverse(name, args=args)
    assert path.startswith("/leagues/")
    assert resolve(path).url_name == name


def test_the_invitation_link_has_the_name_the_services_mail() -> None:
    # leagues.clubs.invitation_url reverses "leagues-invite" with the token.
    assert resolve(reverse("leagues-invite", args=["abc"])).func is views.invite
