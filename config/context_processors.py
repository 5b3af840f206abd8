"""Template context for every page: the site's own links, reversed once per URL configuration.

The header of every page links to the same few pages; reversing each name walks the URL resolver (tens of
microseconds a link, every request). The links depend only on the URL configuration and the script prefix,
so they are reversed once for each pair and kept for the process.
"""

from __future__ import annotations

from functools import cache

from django.http import HttpRequest
from django.urls import NoReverseMatch, get_script_prefix, get_urlconf, reverse

SITE_LINKS = {
    "dashboard": "games-dashboard",
    "clubs": "leagues-clubs",
    "profile": "accounts-profile",
    "admin": "admin:index",
    "logout": "account_logout",
    "login": "account_login",
    "signup": "account_signup",
}


@cache
def _links(urlconf: str | None, prefix: str) -> dict[str, str]:
    links = {}
    for key, name in SITE_LINKS.items():
        try:
            links[key] = reverse(name, urlconf=urlconf)
        except NoReverseMatch:  # a URL configuration without that page (a benchmark's, a test's): no link
            continue
    return links


def site_links(request: HttpRequest) -> dict[str, object]:
    return {"site_links": _links(get_urlconf(), get_script_prefix())}
