"""Receivers: how leagues hear from games. They only queue tasks; ``leagues.tasks.results_sweep`` backs them.

A rename's receivers (the standings lines' revision) are in ``leagues.revisions``, connected with these.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction
from django.dispatch import receiver

from games.followups import enqueue
from games.signals import match_finished
from leagues import revisions  # noqa: F401 - connects its receivers
from leagues.models import Fixture


@receiver(match_finished, dispatch_uid="leagues.fixture_count")
def match_finished_count(sender: Any, match_id: int, **kwargs: Any) -> None:
    """A league match ended: count it into the standings after commit. Casual matches cost one indexed lookup.

    A broker outage loses nothing: the sweep counts the match a little later.
    """
    if Fixture.objects.filter(match_id=match_id, counted_at=None).exists():
        transaction.on_commit(partial(enqueue, "leagues.tasks.fixture_count", match_id))
