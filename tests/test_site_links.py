"""The header's links (config/context_processors.py): the right pages, reversed once, not on every request."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from config import context_processors
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db


def _hrefs(page: str, *names: str) -> list[bool]:
    return [f'"{reverse(name)}"' in page for name in names]


def test_a_signed_in_header_links_its_pages_and_reverses_them_once() -> None:
    context_processors._links.cache_clear()
    client = Client()
    client.force_login(UserFactory())
    for _ in range(3):
        page = client.get(reverse("leagues-clubs")).content.decode()
        assert _hrefs(page, "games-dashboard", "leagues-clubs", "accounts-profile", "account_logout") == [True] * 4
        assert f'"{reverse("admin:index")}"' not in page  # not staff
    info = context_processors._links.cache_info()
    assert (info.misses, info.hits) == (1, 2)


def test_staff_get_the_admin_and_visitors_the_log_in_and_sign_up() -> None:
    staff = Client()
    staff.force_login(UserFactory(is_staff=True))
    assert _hrefs(staff.get(reverse("leagues-clubs")).content.decode(), "admin:index") == [True]
    page = Client().get(reverse("leagues-clubs")).content.decode()
    assert _hrefs(page, "leagues-clubs", "account_login", "account_signup") == [True] * 3
    assert f'"{reverse("account_logout")}"' not in page


def test_a_url_configuration_without_a_page_leaves_its_link_out(settings) -> None:
    settings.ROOT_URLCONF = "tests.site_links_urls"
    context_processors._links.cache_clear()
    links = context_processors._links("tests.site_links_urls", "/")
    assert links == {"dashboard": "/"}
