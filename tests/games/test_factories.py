"""The match factories play through the services, so test setup cannot drift from the app."""

from __future__ import annotations

import pytest

from engine.replay import state_at
from games.models import Mail, Match, Move
from tests.games.factories import make_match, play_engine_moves, play_random, play_until_turn, quick_options

pytestmark = pytest.mark.django_db


def _consistent(match: Match) -> None:
    """The snapshot is what the recorded moves replay to, and the awaited seats are the engine's."""
    match.refresh_from_db()
    moves = list(match.moves.values("seat", "action"))
    assert match.version == len(moves)
    assert state_at(match.game, match.players, match.options, match.seed, moves) == match.state
    to_act = [] if match.is_over else match.engine.to_act(match.state)
    assert sorted(match.seats.filter(awaiting=True).values_list("number", flat=True)) == sorted(to_act)


def test_it_records_each_seats_moves_as_the_app_does() -> None:
    match = make_match("karnoffel", humans=1, bots=3, options=quick_options("karnoffel"))
    play_engine_moves(match, 0, until_over=True)
    assert match.is_over
    _consistent(match)
    kinds = {(m.seat == 0, m.kind) for m in Move.objects.filter(match=match)}
    assert (False, Move.Kind.BOT) in kinds and (False, Move.Kind.PLAYER) not in kinds
    assert (True, Move.Kind.PLAYER) in kinds and (True, Move.Kind.BOT) not in kinds
    assert Mail.objects.filter(dedupe_key__startswith=f"turn:{match.pk}:0:").count() > 1, "turn mail, as in the app"


def test_it_plays_the_count_asked_for_and_the_service_adds_forced_moves() -> None:
    match = make_match("rentz")
    play_engine_moves(match, 40, seed=1)
    _consistent(match)
    chosen = match.moves.exclude(kind=Move.Kind.FORCED).count()
    assert chosen == 40 and match.version >= chosen


def test_it_plays_until_the_seat_is_to_act_or_says_why_not() -> None:
    match = make_match("karnoffel", humans=1, bots=3)
    play_until_turn(match, 0, seed=2)
    assert 0 in match.engine.to_act(match.state) and match.seats.get(number=0).awaiting
    _consistent(match)
    waiting = next(n for n in range(match.players) if n not in match.engine.to_act(match.state))
    with pytest.raises(AssertionError, match=f"Seat {waiting} did not come to act within 0 moves"):
        play_until_turn(match, waiting, limit=0)


def test_play_random_moves_only_the_human_seats() -> None:
    match = make_match("karnoffel", humans=1, bots=3)
    play_until_turn(match, 0)
    before = match.version
    play_random(match, 10, seed=3)
    chosen = match.moves.filter(ply__gte=before).exclude(kind=Move.Kind.FORCED)  # a bot's forced card is the app's
    assert match.version > before and set(chosen.values_list("seat", flat=True)) == {0}
    assert match.engine.to_act(match.state)[0] != 0, "it stops at a bot's turn"
    _consistent(match)
