"""A sequential season never stalls: every way a round's last table is accounted for opens the next round.

Each path is taken as it happens in the app: a match counted, a forfeit, an adjustment, a void table,
the rounds sweep settling a round as it stands at its play-by date, bots finishing a settled round.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Match
from leagues.models import AuditEntry, Fixture, Round, Season
from leagues.results import fixture_count, result_adjust, result_forfeit
from leagues.tasks import results_sweep, rounds_sweep
from tests.leagues.factories import finish, fixtures_of, organizer_of
from tests.leagues.flow_world import is_open, round_of, sequential

pytestmark = pytest.mark.django_db


def _due(season: Season, number: int) -> None:
    """The round's play-by date has passed."""
    Round.objects.filter(pk=round_of(season, number).pk).update(play_by=timezone.now() - timedelta(hours=1))


def test_it_opens_the_next_round_when_the_last_table_is_counted() -> None:
    season = sequential()
    assert is_open(season, 1) and not is_open(season, 2)
    fixture_count(match_id=finish(fixtures_of(season)[0], [1, 2, 3, 4]).pk)
    assert is_open(season, 2) and not is_open(season, 3)
    assert fixtures_of(season, round_number=2)[0].match_id is not None


def test_it_opens_the_next_round_when_everyone_at_the_last_table_forfeits() -> None:
    season = sequential()
    fixture = fixtures_of(season)[0]
    everyone = [e for e in fixture.seats if e is not None]
    result_forfeit(fixture=fixture, actor=organizer_of(season.league.club), entrants=everyone, reason="No show.")
    assert is_open(season, 2)


def test_it_opens_the_next_round_when_a_table_played_on_after_a_forfeit_ends() -> None:
    season = sequential()
    fixture = fixtures_of(season)[0]
    result_forfeit(
        fixture=fixture, actor=organizer_of(season.league.club), entrants=[fixture.seats[0]], reason="No show."
    )
    assert not is_open(season, 2)  # a bot plays on for the forfeiter: the table is not over yet
    fixture_count(match_id=finish(fixture, [1, 2, 3, 4]).pk)
    assert is_open(season, 2)


def test_it_opens_the_next_round_after_an_adjustment_of_an_unfinished_table() -> None:
    season = sequential()
    fixture = fixtures_of(season)[0]
    result_adjust(fixture=fixture, actor=organizer_of(season.league.club), places=[1, 2, 3, 4], reason="By hand.")
    assert is_open(season, 2)


def test_it_opens_the_next_round_when_the_last_table_is_void() -> None:
    season = sequential()
    fixture = fixtures_of(season)[0]
    Match.objects.filter(pk=fixture.match_id).update(status=Match.Status.ABANDONED, finished_at=timezone.now())
    results_sweep()
    fixture.refresh_from_db()
    assert fixture.how == Fixture.How.VOID
    assert is_open(season, 2)


def test_it_opens_the_next_round_when_a_deleted_match_leaves_the_table_void() -> None:
    season = sequential()
    Match.objects.filter(pk=fixtures_of(season)[0].match_id).delete()
    results_sweep()
    assert is_open(season, 2)


def test_it_opens_the_next_round_when_the_sweep_settles_a_round_as_it_stands() -> None:
    season = sequential(settle="as_stands")
    _due(season, 1)

    rounds_sweep()

    fixture = fixtures_of(season)[0]
    assert fixture.how == Fixture.How.AS_STANDS and fixture.counted_at is not None
    assert round_of(season, 1).settled_at is not None
    assert is_open(season, 2), "the season waited for nothing: every table of round 1 is counted"
    assert fixtures_of(season, round_number=2)[0].match_id is not None
    assert not is_open(season, 3)


def test_it_opens_the_next_round_once_bots_finish_a_settled_round(
    eager: Any, django_capture_on_commit_callbacks: Any
) -> None:
    season = sequential(game="karnoffel", options={"target": 1}, timeout_bot_level="random", settle="bots")
    _due(season, 1)
    with django_capture_on_commit_callbacks(execute=True):
        rounds_sweep()
    fixture = fixtures_of(season)[0]
    assert fixture.match is not None and fixture.match.status == Match.Status.FINISHED
    assert fixture.counted_at is not None
    assert is_open(season, 2)


def test_a_round_settled_with_every_table_counted_leads_on_and_says_so_once() -> None:
    season = sequential(rounds=2)
    _due(season, 1)
    rounds_sweep()
    rounds_sweep()  # a second run finds the round settled and the next open: nothing more
    assert is_open(season, 2)
    opened = AuditEntry.objects.filter(season=season, kind=AuditEntry.Kind.ROUND, text__startswith="Round 2 opened")
    assert opened.count() == 1


def test_a_round_with_no_table_to_play_leads_straight_on_to_the_next() -> None:
    season = sequential()
    Fixture.objects.filter(round=round_of(season, 2)).delete()  # everyone sits round 2 out
    fixture_count(match_id=finish(fixtures_of(season)[0], [1, 2, 3, 4]).pk)
    assert is_open(season, 2) and is_open(season, 3)
