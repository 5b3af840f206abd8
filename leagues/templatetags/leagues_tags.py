"""Template tags other apps' templates load: the dashboard lists league fixtures without games importing leagues."""

from __future__ import annotations

from typing import Any

from django import template

from accounts.models import User
from engine import GAMES, get_game
from leagues import ratings as rating_scale
from leagues.models import Fixture, Rating, RatingChange
from leagues.selectors import fixtures_for_user

register = template.Library()
RATING_HISTORY = 10


@register.simple_tag(takes_context=True)
def my_league_fixtures(context: dict[str, Any]) -> list[Fixture]:
    """The reader's league matches still to play (one query); nothing for a visitor."""
    user = context["request"].user
    return fixtures_for_user(user=user) if isinstance(user, User) else []


@register.simple_tag
def ratings_of(user: User) -> list[dict[str, Any]]:
    """A player's rating in each game with its latest changes, oldest first: two queries, for the profile page."""
    ratings = [r for r in Rating.objects.filter(user=user).order_by("game") if r.game in GAMES]
    # The latest changes over all games together: a game played rarely may show fewer than RATING_HISTORY.
    recent = RatingChange.objects.filter(rating__user=user).order_by("-at", "-pk")[: RATING_HISTORY * len(GAMES)]
    history: dict[int, list[RatingChange]] = {}
    for change in recent:
        history.setdefault(change.rating_id, []).append(change)
    return [
        {"game": get_game(r.game).TITLE, "rating": r, "history": history.get(r.pk, [])[:RATING_HISTORY][::-1]}
        for r in ratings
    ]


@register.filter
def rating(ordinal: float | None) -> str:
    """A stored rating as pages show it (``leagues.ratings.shown``): "1,120"; a dash for none."""
    return "–" if ordinal is None else rating_scale.shown_text(ordinal)


@register.filter
def rating_change(change: RatingChange) -> str:
    """A rating change as pages show it, in whole points of the shown rating: "+12", "-5"."""
    return rating_scale.change_text(change.ordinal, change.delta)
