"""Bot turns: chosen from the bot's own view, safe to run twice, found again by the sweep."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from engine.bots import choose
from games import tasks
from games.models import Match, Move
from tests.games.factories import game_names, make_match

pytestmark = pytest.mark.django_db


def _bot_to_act(game: str) -> tuple[Match, int]:
    players = Match(game=game).engine.MIN_PLAYERS
    match = make_match(game, humans=0, bots=players, level="random")
    return match, match.engine.to_act(match.state)[0]


@pytest.mark.parametrize("game", game_names())
def test_a_bot_sees_only_its_own_view(game: str) -> None:
    match, seat = _bot_to_act(game)
    expected_view = match.engine.view(match.state, seat)
    with mock.patch("games.services.choose", side_effect=choose) as spy:  # the bots' one way to choose
        assert tasks.bot_move(match.pk, seat, match.version) is True
    (_game, _level, view, legal), _kwargs = spy.call_args
    assert view == expected_view and "hand" in view
    assert legal == match.engine.legal_actions(match.state, seat)


def test_a_bot_task_run_twice_plays_once() -> None:
    match, seat = _bot_to_act(game_names()[0])
    version = match.version
    assert tasks.bot_move(match.pk, seat, version) is True
    before = Move.objects.filter(match=match).count()
    assert tasks.bot_move(match.pk, seat, version) is False
    assert Move.objects.filter(match=match).count() == before


def test_the_sweep_wakes_bots_a_lost_message_left_waiting() -> None:
    match, seat = _bot_to_act(game_names()[0])
    Match.objects.filter(pk=match.pk).update(updated_at=timezone.now() - timedelta(minutes=10))
    with mock.patch("games.tasks.bot_turn") as bot_turn:
        assert tasks.bot_sweep() >= 1
    bot_turn.assert_any_call(match.pk, seat, match.version)
