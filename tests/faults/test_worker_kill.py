"""The Celery worker killed with SIGKILL in the middle of a burst of bot moves and timeouts, then restarted.

Nothing is lost (every match ends: the sweeps find what the dead worker held) and nothing is done
twice (one move per ply, and the moves replay to the stored state).
"""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from accounts.models import User
from games.clocks import TimeControl
from games.models import Match, Move, Seat
from games.services import SeatSpec, match_create
from tests.accounts.factories import UserFactory
from tests.faults import Stack, replay_problems, running, wait_until

# `make test` runs these one at a time after the rest: they share a Redis database, and one of them empties it.
pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow, pytest.mark.timeout(120)]


def a_player() -> User:
    user: User = UserFactory.create()
    return user


ONE_SECOND = TimeControl(initial=timedelta(seconds=1), increment=timedelta(seconds=1), cap=timedelta(seconds=1))


def make_matches() -> list[int]:
    """Two all-bot matches and one where two players' one-second clocks run out until the bot takes over."""
    ids = []
    for _ in range(2):
        seats = [SeatSpec(bot="random") for _ in range(3)]
        ids.append(match_create(game="renfield", players=3, options={}, created_by=None, seats=seats).pk)
    return [*ids, clock_match()]


def clock_match() -> int:
    """Two players on one-second clocks and a bot: the players time out until the bot plays for them."""
    seats = [SeatSpec(user=a_player()), SeatSpec(user=a_player()), SeatSpec(bot="random")]
    return match_create(
        game="renfield", players=3, options={}, created_by=None, seats=seats, time_control=ONE_SECOND
    ).pk


def kick_bots(stack: Stack, ids: list[int]) -> None:
    """Queue each awaited bot's move, as the commit that created the match would have on a real broker."""
    for seat in Seat.objects.filter(match_id__in=ids, awaiting=True).exclude(bot_level="").select_related("match"):
        stack.send("bot_move", seat.match_id, seat.number, seat.match.version)


def age_and_sweep(stack: Stack, ids: list[int]) -> None:
    """Two minutes pass for the bot sweep (it leaves alone matches that moved lately), and the sweeps run."""
    Match.objects.filter(pk__in=ids, status=Match.Status.ACTIVE).update(
        updated_at=timezone.now() - timedelta(minutes=3)
    )
    stack.send("bot_sweep")
    stack.send("deadline_sweep")


@pytest.mark.django_db(transaction=True)
def test_it_loses_nothing_and_does_nothing_twice_when_the_worker_is_killed(tmp_path: Path) -> None:
    ids = make_matches()
    with running(tmp_path, "worker-1") as stack:
        kick_bots(stack, ids)
        stack.send("deadline_sweep")
        moved = wait_until(lambda: Move.objects.filter(match_id__in=ids).count() >= 20, timeout=30)
        assert moved, f"The burst did not start.\n{stack.logs()}"
        stack.kill("worker-1")  # SIGKILL to the whole group: the parent and its pool processes at once
        at_kill = Move.objects.filter(match_id__in=ids).count()
        time.sleep(1)
        stack.start("worker-2")
        finished = wait_until(
            lambda: Match.objects.filter(pk__in=ids, status=Match.Status.FINISHED).count() == len(ids),
            timeout=60,
            every=1,
            between=lambda: age_and_sweep(stack, ids),
        )
        assert finished, f"Not every match ended after the restart.\n{stack.logs()}"
    assert Move.objects.filter(match_id__in=ids).count() > at_kill
    assert Move.objects.filter(match_id__in=ids, kind=Move.Kind.TIMEOUT).exists()
    assert replay_problems(ids) == []
