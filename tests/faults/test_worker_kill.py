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

from games.models import Match, Move
from tests.faults import Stack, replay_problems, running, wait_until
from tests.faults.matches import kick_bots, make_matches

# `make test` runs these one at a time after the rest: they share a Redis database, and one of them empties it.
pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow, pytest.mark.timeout(120)]


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
