"""Every page renders for anonymous and signed-in visitors, inside one page shell."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.test import Client, RequestFactory
from django.urls import URLPattern, URLResolver, get_resolver

from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db


def parameterless_paths(patterns: list | None = None, prefix: str = "") -> list[str]:
    """Every URL in the project that takes no arguments, found by walking the URLconf (so new pages are included)."""
    found: list[str] = []
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        route = str(entry.pattern).lstrip("^").rstrip("$")
        if "<" in route or "(" in route or "\\" in route:
            continue
        if isinstance(entry, URLResolver):
            if prefix + route == "admin/":
                found.append("/admin/")  # the admin's own pages are covered in tests/accounts/test_admin.py
                continue
            found += parameterless_paths(entry.url_patterns, prefix + route)
        elif isinstance(entry, URLPattern):
            found.append("/" + prefix + route)
    return sorted(set(found))


PATHS = parameterless_paths()


def test_it_finds_the_pages_to_check() -> None:
    assert {"/accounts/login/", "/accounts/signup/", "/me/", "/accounts/password/reset/", "/admin/"} <= set(PATHS)


# The paths that answer with something other than a page, and the file type each serves.
NOT_PAGES = {"/healthz": "text/plain", "/sw.js": "text/javascript"}


def is_page(response: HttpResponse) -> bool:
    """An HTML page, told by the response's status and Content-Type rather than by what its body happens to hold."""
    return response.status_code == 200 and response["Content-Type"].startswith("text/html")


def assert_page(path: str, response: HttpResponse) -> str:
    """The page's HTML, checked to be a whole document inside the page shell."""
    body = response.content.decode()
    assert "<html" in body, f"{path} answers with HTML that is not a whole page"
    assert '<header class="site-header">' in body, f"{path} does not use the page shell"
    return body


def assert_not_page(path: str, response: HttpResponse) -> None:
    """What a path that is not a page answers instead: a redirect, POST only, or a known file of its own type."""
    if response.status_code == 302:  # a login, or a page with arguments
        assert response["Location"].startswith("/"), f"{path} redirects away from the site"
    elif response.status_code == 405:  # an endpoint that only takes POST
        assert response["Allow"] == "POST", f"{path} refuses GET but allows {response['Allow']}"
    else:
        assert response.status_code == 200, f"{path} answered {response.status_code}"
        served = response["Content-Type"].split(";")[0]
        assert served == NOT_PAGES.get(path), f"{path} answered {served}, not a page"


def test_the_page_checks_below_reach_full_pages(client: Client) -> None:
    # Each path below is checked as a page or as what it is instead; these two must be pages.
    response = client.get("/accounts/login/")
    assert is_page(response), "the login page is a page for anonymous visitors"
    assert_page("/accounts/login/", response)
    client.force_login(UserFactory())
    response = client.get("/me/")
    assert is_page(response), "the profile page is a page for players"
    assert_page("/me/", response)


@pytest.mark.parametrize("path", PATHS)
def test_it_renders_every_page_for_anonymous_visitors(client: Client, path: str) -> None:
    response = client.get(path)
    if is_page(response):
        body = assert_page(path, response)
        assert 'href="/accounts/login/"' in body and "Log out" not in body
    else:
        assert_not_page(path, response)


@pytest.mark.parametrize("path", PATHS)
def test_it_renders_every_page_for_signed_in_players(client: Client, path: str) -> None:
    client.force_login(UserFactory(display_name="Juno"))
    response = client.get(path)
    if is_page(response):
        body = assert_page(path, response)
        assert "Juno" in body and 'action="/accounts/logout/"' in body
    else:
        assert_not_page(path, response)


def test_it_renders_the_account_pages_in_our_layout(client: Client) -> None:
    for path, heading in [
        ("/accounts/login/", "Log in"),
        ("/accounts/signup/", "Sign up"),
        ("/accounts/password/reset/", "Password Reset"),
    ]:
        body = client.get(path).content.decode()
        assert heading in body and '<header class="site-header">' in body
        assert re.search(r"<title>\s*" + heading.split()[0], body, re.IGNORECASE), path


def shell(**context: object) -> str:
    request = RequestFactory().get("/")
    request.user = context.pop("user")
    return render_to_string("base.html", context, request=request)


def test_it_shows_the_your_turn_badge_only_when_matches_wait() -> None:
    user = UserFactory(display_name="Kit")
    assert 'class="badge"' in shell(user=user, your_turn_count=3)
    assert ">3</span>" in shell(user=user, your_turn_count=3)
    assert 'class="badge"' not in shell(user=user, your_turn_count=0)


def test_it_links_the_admin_for_staff_only() -> None:
    assert 'href="/admin/"' in shell(user=UserFactory(is_staff=True))
    assert 'href="/admin/"' not in shell(user=UserFactory(is_staff=False))


def test_it_logs_out_with_a_post_form() -> None:
    page = shell(user=UserFactory())
    form = re.search(r'<form method="post" action="/accounts/logout/"[^>]*>(.*?)</form>', page, re.DOTALL)
    assert form and "csrfmiddlewaretoken" in form.group(1)


def test_it_serves_htmx_from_our_own_static_files_with_csrf_for_every_request(client: Client) -> None:
    body = client.get("/accounts/login/").content.decode()
    scripts = re.findall(r'<script src="([^"]+)"', body)
    assert any("htmx" in src for src in scripts)
    for src in scripts:
        assert src.startswith("/static/"), f"{src} is not served by us"
        assert finders.find(src.removeprefix("/static/")), f"{src} does not exist"
    token = re.search(r"<body hx-headers='\{\"X-CSRFToken\": \"([^\"]+)\"\}'>", body)
    assert token and len(token.group(1)) >= 32


def test_it_serves_the_stylesheet_with_a_phone_layout() -> None:
    css_path = finders.find("css/parlour.css")
    assert css_path
    with open(css_path) as handle:
        css = handle.read()
    assert "@media (min-width" in css  # phone first: wider screens are the exception
    assert "@import" not in css and "url(http" not in css  # no external fonts or assets


def test_it_answers_the_health_check(client: Client) -> None:
    response = client.get("/healthz")
    assert (response.status_code, response.content) == (200, b"ok")
