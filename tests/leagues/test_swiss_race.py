"""Two settles of the same Swiss round at once (PostgreSQL row locks): the next round is drawn exactly once.

Each settle runs in a thread with a database connection of its own. Two kinds of race:
- two "settle this round now" at once (an organizer's button and the rounds sweep, or two sweeps);
- the round's last two tables counted at once, or one counted while the round is settled: neither sees
  the other's uncommitted claim, so without a lock both would find a table of the round still uncounted
  and nobody would open the next round. The threads meet at a barrier after their claims, before the
  check, so that interleaving happens on every run, not by luck.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from leagues import results, rounds
from leagues.errors import LeagueRefused
from leagues.models import Entrant, Fixture, Round, Season
from leagues.results import fixture_count
from leagues.rollover import round_settle_now
from tests import threads
from tests.leagues.factories import finish, fixtures_of, make_league, make_season, organizer_of

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREAD_TIMEOUT = threads.THREAD_TIMEOUT


@pytest.fixture
def connections_closed() -> Iterator[None]:
    """The threads' pooled connections would keep the test database in use at teardown."""
    yield
    connection.close_pool()


def together(calls: list[Callable[[], object]]) -> list[str]:
    """The calls at the same moment (``tests.threads.together``): "ok" for a call that went through, a refusal's
    sentence, or "error: ..." for anything else (every thread answers)."""
    answers = threads.together([lambda c=c: (c(), "ok")[1] for c in calls], refusals=(LeagueRefused,))
    return [a if isinstance(a, str) else f"error: {a!r}" for a in answers]


def swiss(**kwargs: Any) -> Season:
    league = make_league(format="swiss", tiebreaks=["points"])
    return make_season(league=league, players=8, rounds=3, round_mode="sequential", **kwargs)


def round_of(season: Season, number: int) -> Round:
    return Round.objects.get(season=season, number=number, division=1)


def assert_drawn_once(season: Season, number: int) -> None:
    """One set of tables for the round, each with its match, every entrant seated exactly once."""
    drawn = Fixture.objects.filter(round__season=season, round__number=number)
    assert drawn.count() == 2, [list(f.seats) for f in drawn]
    assert sorted(f.table_number for f in drawn) == [1, 2]
    assert all(f.match_id is not None for f in drawn)
    seated = sorted(e for f in drawn for e in f.seats)
    assert seated == sorted(Entrant.objects.filter(season=season).values_list("pk", flat=True))
    assert round_of(season, number).opened_at is not None


def meet_before_the_next_round(monkeypatch: pytest.MonkeyPatch, parties: int) -> None:
    """Hold each caller of ``round_next`` (after its claim, in its open transaction) until all have claimed."""
    met = threading.Barrier(parties, timeout=THREAD_TIMEOUT)
    real = rounds.round_next

    def held(round_: Round, season: Season) -> None:
        met.wait()
        real(round_, season)

    monkeypatch.setattr(results, "round_next", held)
    monkeypatch.setattr("leagues.rollover.round_next", held)


def past_play_by(season: Season, number: int) -> None:
    Round.objects.filter(pk=round_of(season, number).pk).update(play_by=timezone.now() - timedelta(hours=1))


@pytest.mark.parametrize("by", ["organizer and sweep", "two sweeps"])
def test_two_settles_of_a_swiss_round_draw_the_next_round_once(by: str, connections_closed: None) -> None:
    season = swiss(settle="as_stands")
    past_play_by(season, 1)
    boss = organizer_of(season.league.club)
    actors = [boss, None] if by == "organizer and sweep" else [None, None]

    def settle(actor: Any) -> Callable[[], object]:
        return lambda: round_settle_now(round=round_of(season, 1), actor=actor)

    outcomes = together([settle(a) for a in actors])
    # Both answer: the second finds the round settled (the organizer may be told so) and draws nothing.
    assert all(o == "ok" or "already settled" in o for o in outcomes), outcomes
    assert_drawn_once(season, 2)
    assert not Fixture.objects.filter(round__season=season, round__number=3).exists()


def test_the_last_two_tables_counted_at_once_open_the_next_round_once(
    monkeypatch: pytest.MonkeyPatch, connections_closed: None
) -> None:
    season = swiss(fill="bots")
    one, two = fixtures_of(season)
    finish(one, [1, 2, 3, 4])
    finish(two, [4, 3, 2, 1])
    meet_before_the_next_round(monkeypatch, 2)
    outcomes = together([lambda: fixture_count(match_id=one.match_id), lambda: fixture_count(match_id=two.match_id)])
    assert outcomes == ["ok", "ok"], outcomes
    assert Fixture.objects.filter(round__season=season, round__number=1, counted_at=None).count() == 0
    assert_drawn_once(season, 2)


def test_a_table_counted_while_the_round_is_settled_opens_the_next_round_once(
    monkeypatch: pytest.MonkeyPatch, connections_closed: None
) -> None:
    season = swiss(settle="as_stands")
    past_play_by(season, 1)
    one, two = fixtures_of(season)
    finish(two, [4, 3, 2, 1])  # table 1 still playing: the settle scores it as it stands
    meet_before_the_next_round(monkeypatch, 2)
    boss = organizer_of(season.league.club)
    outcomes = together(
        [lambda: round_settle_now(round=round_of(season, 1), actor=boss), lambda: fixture_count(match_id=two.match_id)]
    )
    assert outcomes == ["ok", "ok"], outcomes
    one.refresh_from_db()
    assert one.how == Fixture.How.AS_STANDS and one.counted_at is not None
    assert_drawn_once(season, 2)
