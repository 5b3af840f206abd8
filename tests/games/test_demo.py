from __future__ import annotations

import pytest

from engine import GAMES
from engine.replay import state_at
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


def test_it_plays_the_finished_match_through_the_services_by_each_seats_own_kind() -> None:
    create_demo_matches(users=[UserFactory() for _ in range(3)])
    match = Match.objects.get(status=Match.Status.FINISHED)
    moves = list(match.moves.values("seat", "action", "kind"))
    assert state_at(match.game, match.players, match.options, match.seed, moves) == match.state
    bots = set(match.seats.exclude(bot_level="").values_list("number", flat=True))
    assert bots and {m["kind"] for m in moves if m["seat"] in bots} <= {"bot", "forced"}
    assert {m["kind"] for m in moves if m["seat"] not in bots} <= {"player", "forced"}
    assert match.version == len(moves) and not match.seats.filter(awaiting=True).exists()
