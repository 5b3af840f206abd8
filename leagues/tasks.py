"""Celery tasks: they take ids, call one service, and are safe to run twice; the sweeps back lost messages."""

from __future__ import annotations

import logging

from celery import shared_task

from games.errors import Refused
from leagues import results, rollover, rounds, selectors
from leagues.models import Round

log = logging.getLogger(__name__)


@shared_task
def fixture_count(match_id: int) -> bool:
    """Add a finished league match to the standings; a second run finds it counted and does nothing."""
    return results.fixture_count(match_id=match_id)


@shared_task
def results_sweep() -> int:
    """Count the ended matches whose fixture is still uncounted (a lost message, or a match the games app
    abandoned: void), and make void the tables whose match is gone; returns how many it recorded.

    Inline rather than queued: a count takes milliseconds, and one that fails is logged and found again next time.
    """
    counted = 0
    for match_id in selectors.uncounted_matches():
        try:
            counted += results.fixture_count(match_id=match_id)
        except Exception:
            log.exception("Could not count match %s into its league", match_id)
    for fixture_id in selectors.matchless_fixtures():
        try:
            counted += results.fixture_void_matchless(fixture_id=fixture_id)
        except Exception:
            log.exception("Could not make table %s void", fixture_id)
    return counted


@shared_task
def rounds_sweep() -> int:
    """Open sequential rounds whose date has come and settle rounds past their "play by" date (a sequential
    season's next round opens as soon as a settled round is all counted: ``rollover.round_settle_now``)."""
    to_open, to_settle = selectors.rounds_due()
    done = 0
    for pk, service in [
        *((pk, rounds.round_open) for pk in to_open),
        *((pk, rollover.round_settle_now) for pk in to_settle),
    ]:
        try:
            service(round=Round.objects.get(pk=pk))
            done += 1
        except Refused as exc:  # the season changed meanwhile (finished, say): nothing to do
            log.info("Round %s left as it is: %s", pk, exc)
    return done
