"""Receivers: how leagues hear from games. They only queue tasks; ``leagues.tasks.results_sweep`` backs them."""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from celery import current_app
from django.db import transaction
from django.dispatch import receiver

from games.signals import match_finished
from leagues.models import Fixture

log = logging.getLogger(__name__)


@receiver(match_finished, dispatch_uid="leagues.fixture_count")
def match_finished_count(sender: Any, match_id: int, **kwargs: Any) -> None:
    """A league match ended: count it into the standings after commit. Casual matches cost one indexed lookup."""
    if Fixture.objects.filter(match_id=match_id, counted_at=None).exists():
        transaction.on_commit(partial(_queue_count, match_id))


def _queue_count(match_id: int) -> None:
    try:
        current_app.tasks["leagues.tasks.fixture_count"].apply_async((match_id,), retry=False)
    except Exception:  # the sweep counts it a little later
        log.exception("Could not queue the count of match %s", match_id)
