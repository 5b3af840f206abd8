"""Leagues come in a later issue; until then the app is installed, migrates cleanly and owns /leagues/."""

from __future__ import annotations

from django.apps import apps
from django.urls import Resolver404, resolve

import pytest


def test_it_is_installed_without_models_yet() -> None:
    config = apps.get_app_config("leagues")
    assert list(config.get_models()) == []


def test_it_owns_the_leagues_prefix_but_serves_nothing_yet() -> None:
    with pytest.raises(Resolver404):
        resolve("/leagues/")
