"""Template tags other apps' templates load: the dashboard lists league fixtures without games importing leagues."""

from __future__ import annotations

from typing import Any

from django import template

from accounts.models import User
from leagues.models import Fixture
from leagues.selectors import StandingRow, fixtures_for_user

register = template.Library()


@register.simple_tag(takes_context=True)
def my_league_fixtures(context: dict[str, Any]) -> list[Fixture]:
    """The reader's league matches still to play (one query); nothing for a visitor."""
    user = context["request"].user
    return fixtures_for_user(user=user) if isinstance(user, User) else []


@register.filter
def tiebreak(row: StandingRow, key: str) -> float | None:
    """A standings row's value for one tie-break column."""
    return row.value(key)
