"""Leagues come in a later issue; until then the app is installed without models and owns an empty /leagues/.

That it migrates cleanly is checked for every app by ``tests/test_project.py`` (``makemigrations --check``).
"""

from __future__ import annotations

import pytest
from django.apps import apps
from django.urls import URLResolver, get_resolver, resolve
from django.urls.exceptions import Resolver404

import leagues.urls


def test_it_is_installed_without_models_yet() -> None:
    assert apps.is_installed("leagues")
    assert list(apps.get_app_config("leagues").get_models()) == []


def test_it_owns_the_leagues_prefix_but_serves_nothing_yet() -> None:
    # A 404 alone would pass with the prefix unmounted: check that /leagues/ leads to the app's own URLs.
    mounted = [
        p.urlconf_module
        for p in get_resolver().url_patterns
        if isinstance(p, URLResolver) and str(p.pattern) == "leagues/"
    ]
    assert mounted == [leagues.urls]
    assert leagues.urls.urlpatterns == []
    with pytest.raises(Resolver404):
        resolve("/leagues/")
