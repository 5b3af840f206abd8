"""Reliability apart from skill (issue 23): per entrant and season, timeouts and the share of the moves at their
seats a bot played, each move counted once, on the standings page and as a tie-break.

The expected counts are read from the match's raw log (``Move`` rows), not from the league's sums.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import tasks as game_tasks
from games.models import Match, Move, Seat
from games.services import match_timeouts
from leagues.models import Season, Standing
from leagues.results import fixture_count, result_forfeit, round_settle
from leagues.tiebreaks import TIEBREAKS, Line, rank
from tests.games.factories import play_engine_moves, play_until_turn
from tests.leagues.factories import fixtures_of, make_league, make_season, organizer_of

pytestmark = pytest.mark.django_db


def time_out(match: Match, seat: int) -> None:
    """The seat's deadline passes while it is awaited: the match's timeout bot plays its move."""
    play_until_turn(match, seat, seed=seat)
    Seat.objects.filter(match=match, number=seat).update(deadline=timezone.now() - timedelta(minutes=1))
    assert match_timeouts(match_id=match.pk) == 1


def bot_plays_for_absent(match: Match, seat: int) -> None:
    """The seat's player is absent: the bot task plays their turn (the seat's own counter counts it)."""
    Seat.objects.filter(match=match, number=seat).update(absent=True)
    play_until_turn(match, seat, seed=seat + 10)
    match.refresh_from_db()
    assert game_tasks.bot_move(match.pk, seat, match.version) is True


def test_a_seat_taken_over_by_a_bot_mid_match_counts_each_bot_move_once() -> None:
    season = make_season(players=4, rounds=1, fill="byes")
    fixture = fixtures_of(season)[0]
    match = fixture.match
    assert match is not None
    time_out(match, 1)
    bot_plays_for_absent(match, 1)
    assert Seat.objects.get(match=match, number=1).bot_moves == 2  # the seat's counter has both
    # Then the league hands the seat to a bot for good, and it plays the match out.
    result_forfeit(fixture=fixture, actor=organizer_of(season.league.club), entrants=[fixture.seats[1]], reason="x")
    play_engine_moves(match, 0, until_over=True, seed=8)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    fixture_count(match_id=match.pk)

    log = Move.objects.filter(match=match, seat=1)
    by_bot = log.filter(kind__in=[Move.Kind.BOT, Move.Kind.TIMEOUT]).count()
    line = Standing.objects.get(entrant_id=fixture.seats[1])
    assert line.bot_moves == by_bot
    assert line.timeouts == log.filter(kind=Move.Kind.TIMEOUT).count() == 1
    assert line.moves == log.count()
    assert line.bot_share == pytest.approx(by_bot / log.count())
    for seat in (0, 2, 3):  # the others: every move at their seats, none by a bot
        other = Standing.objects.get(entrant_id=fixture.seats[seat])
        assert (other.moves, other.bot_moves, other.timeouts) == (
            Move.objects.filter(match=match, seat=seat).count(),
            0,
            0,
        )


def test_a_seat_handed_to_a_bot_at_play_by_counts_the_moves_of_its_absence_once() -> None:
    season = make_season(players=4, rounds=1, fill="byes")
    fixture = fixtures_of(season)[0]
    match = fixture.match
    assert match is not None
    time_out(match, 2)
    bot_plays_for_absent(match, 2)
    round_settle(round=fixture.round)  # the season's bots play the round out: the seat is a bot's now
    play_engine_moves(match, 0, until_over=True, seed=9)
    fixture_count(match_id=match.pk)
    by_bot = Move.objects.filter(match=match, seat=2, kind__in=[Move.Kind.BOT, Move.Kind.TIMEOUT]).count()
    assert Standing.objects.get(entrant_id=fixture.seats[2]).bot_moves == by_bot


def test_the_standings_page_shows_timeouts_and_the_bot_share() -> None:
    season = make_season(players=4, rounds=1, fill="byes")
    line = Standing.objects.filter(season=season).first()
    assert line is not None
    Standing.objects.filter(pk=line.pk).update(timeouts=2, bot_moves=3, moves=12, played=1)
    url = reverse("leagues-standings", args=[season.league.club.slug, season.league.slug, season.number])
    html = Client().get(url).content.decode()
    assert "Timeouts · by bot" in html
    assert re.search(r'<td class="num">2 · 25%</td>', html)


def test_reliability_can_break_a_tie() -> None:
    assert TIEBREAKS["fewest_timeouts"] == "Fewest timeouts"
    assert TIEBREAKS["lowest_bot_share"] == "Smallest share of moves played by a bot"
    base = {"points": 6.0, "wins": 1, "game_score": 0.0, "opponents_rating": 0.0, "played": 3}
    careless = Line(player=1, bot_moves=2, timeouts=2, moves=20, **base)  # type: ignore[arg-type]
    steady = Line(player=2, bot_moves=6, timeouts=0, moves=20, **base)  # type: ignore[arg-type]
    assert [line.player for _, line in rank([careless, steady], ["points", "fewest_timeouts"], {})] == [2, 1]
    # 2 of 20 moves by a bot (10%) beats 6 of 20 (30%).
    assert [line.player for _, line in rank([careless, steady], ["points", "lowest_bot_share"], {})] == [1, 2]


def test_a_league_may_rank_by_reliability(client: Client) -> None:
    league = make_league(tiebreaks=["points", "fewest_timeouts"])
    season: Season = make_season(league=league, players=4, rounds=1, fill="byes")
    lines = list(Standing.objects.filter(season=season).order_by("pk"))
    Standing.objects.filter(pk=lines[0].pk).update(timeouts=3)
    url = reverse("leagues-standings", args=[league.club.slug, league.slug, season.number])
    html = client.get(url).content.decode()
    names = re.findall(r'<th scope="row"><a [^>]*>([^<]+)</a>', html)
    assert names[-1] == lines[0].entrant.user.name
