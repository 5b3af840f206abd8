from __future__ import annotations

import pytest

from engine import GAMES
from games.demo import create_demo_matches
from games.models import Match
from tests.games.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_it_creates_demo_matches_for_every_game_once() -> None:
    users = [UserFactory() for _ in range(3)]
    create_demo_matches(users=users)
    count = Match.objects.count()
    assert set(Match.objects.values_list("game", flat=True)) == set(GAMES)
    assert Match.objects.filter(status=Match.Status.FINISHED).count() == 1
    create_demo_matches(users=users)
    assert Match.objects.count() == count
