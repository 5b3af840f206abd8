"""Redis emptied (FLUSHDB) in the middle of play: the queued bot moves and deadlines are gone, and with
them Kombu's queue bindings; the sweeps, run by a real beat, still get every bot turn and timeout played.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
import redis
from django.utils import timezone

from games.models import Match, Move
from tests.faults import faults_redis_url, replay_problems, running, wait_until
from tests.faults.matches import clock_match, kick_bots, make_matches

# `make test` runs these one at a time after the rest: they share a Redis database, and one of them empties it.
pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow, pytest.mark.timeout(120)]


def two_minutes_pass(ids: list[int]) -> None:
    """The bot sweep leaves alone matches that moved in the last two minutes: let that time pass."""
    Match.objects.filter(pk__in=ids, status=Match.Status.ACTIVE).update(
        updated_at=timezone.now() - timedelta(minutes=3)
    )


@pytest.mark.django_db(transaction=True)
def test_it_plays_every_bot_turn_and_timeout_after_redis_is_emptied(tmp_path: Path) -> None:
    ids = make_matches()
    with running(tmp_path, "worker-1", "beat", beat_every=1.0) as stack:
        kick_bots(stack, ids)
        assert wait_until(lambda: Move.objects.filter(match_id__in=ids).count() >= 15, timeout=30), stack.logs()
        redis.Redis.from_url(faults_redis_url()).flushdb()
        flushed_at = timezone.now()
        # A match whose clocks start after the flush: only the sweep, queued by beat, can play its timeouts.
        ids.append(clock_match())
        finished = wait_until(
            lambda: Match.objects.filter(pk__in=ids, status=Match.Status.FINISHED).count() == len(ids),
            timeout=60,
            every=1,
            between=lambda: two_minutes_pass(ids),
        )
        assert finished, f"Play stopped after FLUSHDB.\n{stack.logs()}"
    after = Move.objects.filter(match_id__in=ids, created_at__gt=flushed_at)
    assert after.filter(kind=Move.Kind.BOT).exists()
    assert after.filter(match_id=ids[-1], kind=Move.Kind.TIMEOUT).exists()
    assert replay_problems(ids) == []
