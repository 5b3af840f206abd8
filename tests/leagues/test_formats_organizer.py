"""Knockout and ladder seasons as the organizer runs them (issue 23): "open the next round now" and "settle this
round now", confirmed on their own pages, and a knockout that ends before its last round.

The rounds are driven through the organizer's pages (and the services where nothing is clicked); each next
round's tables, the season's places and the points are recomputed here from the raw outcomes (the places given
to ``finish``, the running scores of a table settled as it stood), never read from the code under test.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Match, Seat
from games.services import bot_action, move_submit
from leagues.formats import format_standings, heats_of, rank_of
from leagues.knockout import going_through
from leagues.models import AuditEntry, Entrant, Fixture, Round, Season
from leagues.results import fixture_count
from leagues.rollover import round_settle_now, season_finish
from tests.leagues.factories import finish, fixtures_of, make_league, make_season, organizer_of
from tests.leagues.flow_world import login, page, round_of, season_url
from tests.leagues.format_play import ranking, shared

pytestmark = pytest.mark.django_db


def season_of(fmt: str, *, players: int = 8, rounds: int = 2, **league: Any) -> Season:
    """Eight players at two tables of four, one round after another; a table settled now is scored as it stands."""
    return make_season(
        league=make_league(format=fmt, tiebreaks=["points"], **league),
        players=players,
        rounds=rounds,
        round_mode="sequential",
        fill="bots",
        settle="as_stands",
    )


def act(client: Client, season: Season, round_: Round, action: str, *, asks: str = "") -> str:
    """The organizer's button: the confirmation page first (saying ``asks``), then the form it posts; the page
    landed on."""
    url = season_url(season, f"leagues-round-{action}", round_.pk)
    confirm = client.get(url)
    assert confirm.status_code == 200 and asks in page(confirm)
    return page(client.post(url, follow=True))


def seeds_of(season: Season) -> list[int]:
    """The entrants in seed order (all rated alike: registration order)."""
    return list(Entrant.objects.filter(season=season).order_by("seed_rank").values_list("pk", flat=True))


def names_of(season: Season) -> dict[int, str]:
    return {e.pk: e.user.name for e in Entrant.objects.filter(season=season).select_related("user")}


def play_first_two(fixture: Fixture, moves: int = 12) -> list[float]:
    """``moves`` moves of the table: seats 0 and 1 play their own, seats 2 and 3 are gone (a bot plays for them
    from the first turn). The running scores then: the raw outcome a table settled as it stands is placed by."""
    fixture.refresh_from_db()
    match = Match.objects.get(pk=fixture.match_id)
    Seat.objects.filter(match=match, number__in=[2, 3]).update(bot_level=Seat.BotLevel.BASIC)
    moved = set()
    for _ in range(moves):
        seat = Seat.objects.filter(match=match, awaiting=True).select_related("user").order_by("number").first()
        assert seat is not None and match.status == Match.Status.ACTIVE
        action = bot_action(match=match, seat=seat.number, level=Seat.BotLevel.BASIC)
        if seat.number < 2:
            move_submit(match=match, user=seat.user, seat=None, action=action, version=match.version)
            moved.add(seat.number)
        else:
            move_submit(match=match, user=None, seat=seat.number, action=action, version=match.version, kind="bot")
        match.refresh_from_db()
    assert moved == {0, 1}, "both made moves of their own, the others none"
    return [float(s) for s in match.engine.running_scores(match.engine.view(match.state, None))]


def as_it_stood(scores: list[float]) -> list[int]:
    """The places of a table settled as it stood: those who moved (seats 0, 1) by their scores, then the rest."""
    keys = [(0 if s < 2 else 1, -scores[s]) for s in range(4)]
    return [1 + sum(k < keys[s] for k in keys) for s in range(4)]


def test_it_draws_the_knockout_final_from_a_table_finished_and_one_settled_now() -> None:
    season = season_of("knockout", advance=2)
    boss = login(organizer_of(season.league.club))
    seeds = seeds_of(season)
    one, two = fixtures_of(season)
    # Round 2 is drawn from round 1's results: opening it now is refused, and nothing is drawn.
    html = act(boss, season, round_of(season, 2), "open", asks="Its tables are drawn now from the results of")
    assert "it opens once every table of that round is settled" in html
    assert not Fixture.objects.filter(round=round_of(season, 2)).exists()
    fixture_count(match_id=finish(one, [2, 1, 4, 3]).pk)
    scores = play_first_two(two)
    Round.objects.filter(pk=round_of(season, 1).pk).update(play_by=timezone.now() + timedelta(days=1))  # early
    assert "Round 1 is settled." in act(boss, season, round_of(season, 1), "settle")
    places = {1: ranking([2, 1, 4, 3]), 2: as_it_stood(scores)}
    points = {e: shared(places[f.table_number])[i] for f in (one, two) for i, e in enumerate(f.seats)}
    # The top two of each table go through (a tie at the cut by the season's points, then the seeds), seated in
    # the final by their place at their table: the winners first.
    through = []
    for fixture in (one, two):
        at = places[fixture.table_number]
        order = sorted(fixture.seats, key=lambda e: (at[fixture.seats.index(e)], -points[e], seeds.index(e)))
        through += [(position, -points[e], seeds.index(e), e) for position, e in enumerate(order[:2])]
    final = fixtures_of(season, round_number=2)
    assert [f.seats for f in final] == [[e for *_key, e in sorted(through)]]
    assert final[0].match_id is not None and round_of(season, 2).opened_at is not None
    # Nothing is settled or drawn twice: both buttons now refuse, with a sentence.
    assert "Round 1 is already settled." in act(boss, season, round_of(season, 1), "settle")
    assert "Round 2 is already open." in act(boss, season, round_of(season, 2), "open")
    assert Fixture.objects.filter(round__season=season, round__number=2).count() == 1
    settled = AuditEntry.objects.get(season=season, kind=AuditEntry.Kind.SETTLE, fixture=None)
    assert settled.actor == organizer_of(season.league.club)
    assert settled.text == "Round 1 was settled early by an organizer: the unfinished table 2 was scored as it stood."
    assert AuditEntry.objects.filter(season=season, text="Round 2 opened: 1 table.").count() == 1
    standings = page(boss.get(season_url(season, "leagues-standings")))
    assert standings.count("Still in: playing round 2") == 4 and standings.count("Out in round 1") == 4


def test_it_reorders_the_ladder_from_a_table_finished_and_one_settled_now() -> None:
    season = season_of("ladder")
    boss = login(organizer_of(season.league.club))
    rungs = seeds_of(season)
    one, two = fixtures_of(season)
    assert [one.seats, two.seats] == [rungs[:4], rungs[4:]]
    assert "it opens once every table of that round is settled" in act(boss, season, round_of(season, 2), "open")
    fixture_count(match_id=finish(one, [2, 1, 4, 3]).pk)
    scores = play_first_two(two)
    act(boss, season, round_of(season, 1), "settle")
    # Each table's players take its rungs by their places there (level players keep their order); then the
    # winner of table 2 swaps with the last of table 1.
    new = []
    for fixture, at in ((one, ranking([2, 1, 4, 3])), (two, as_it_stood(scores))):
        new += sorted(fixture.seats, key=lambda e: (at[fixture.seats.index(e)], rungs.index(e)))
    new[3], new[4] = new[4], new[3]
    drawn = fixtures_of(season, round_number=2)
    assert [f.seats for f in drawn] == [new[1:4] + new[:1], new[5:8] + new[4:5]]  # the first seat turned by one
    assert all(f.match_id for f in drawn)
    assert "Round 2 is already open." in act(boss, season, round_of(season, 2), "open")
    assert Fixture.objects.filter(round__season=season, round__number=2).count() == 2
    names = names_of(season)
    tables = format_standings(season=season)
    assert tables is not None and [line.name for line in tables[0].lines] == [names[e] for e in new]


def test_it_ends_a_knockout_when_one_player_is_left_and_says_who_won() -> None:
    # One of each table goes through: 8 players need a final of two. Table 2 is settled with nobody having moved,
    # so nobody goes through from it: the winner of table 1 is the only one left, and the knockout is decided.
    season = season_of("knockout", advance=1)
    assert season.rounds == 2
    boss = login(organizer_of(season.league.club))
    seeds = seeds_of(season)
    one, two = fixtures_of(season)
    fixture_count(match_id=finish(one, [3, 1, 2, 4]).pk)
    act(boss, season, round_of(season, 1), "settle")
    assert not Round.objects.filter(season=season, number=2).exists(), "no empty round is opened"
    season.refresh_from_db()
    assert season.rounds == 1 and "1 round." in page(boss.get(season_url(season)))
    assert AuditEntry.objects.filter(season=season, text="The knockout is decided: round 2 will not be played.")
    names = names_of(season)
    winner = one.seats[1]
    standings = page(boss.get(season_url(season, "leagues-standings")))
    assert f"The knockout is decided: {names[winner]} won." in standings
    tables = format_standings(season=season)
    assert tables is not None and tables[0].decided
    assert tables[0].lines[0].name == names[winner] and tables[0].lines[0].where == "Won the knockout"
    # The season's places: the winner, then table 1 by its places, then table 2 (nobody's result: all level,
    # by the standings, then the seeds).
    rest = sorted(two.seats, key=lambda e: seeds.index(e))
    places = [winner, one.seats[2], one.seats[0], one.seats[3], *rest]
    following = season_finish(season=season, actor=organizer_of(season.league.club))
    season.refresh_from_db()
    assert season.status == Season.Status.FINISHED
    carried = Entrant.objects.filter(season=following).order_by("seed_rank")
    assert [e.user.name for e in carried] == [names[e] for e in places]


def test_it_ends_a_knockout_when_everyone_is_out() -> None:
    season = season_of("knockout", advance=2)
    boss = login(organizer_of(season.league.club))
    round_settle_now(round=round_of(season, 1), actor=organizer_of(season.league.club))  # nobody moved anywhere
    assert list(Round.objects.filter(season=season).values_list("number", flat=True)) == [1]
    assert not Fixture.objects.filter(round__season=season, counted_at=None).exists()
    standings = page(boss.get(season_url(season, "leagues-standings")))
    assert "The knockout is decided: nobody won (no table of its last round had a result)." in standings
    assert standings.count("Out in round 1") == 8
    following = season_finish(season=season, actor=organizer_of(season.league.club))
    assert following.entrants.count() == 8


def test_a_no_show_whose_every_move_was_a_bots_does_not_go_through() -> None:
    # Round 1's first table counted with its tallies as the count stores them: its top place's every move was a
    # bot's (a no-show timed out from the first turn). No result pays absence: the next two go through instead.
    season = season_of("knockout", advance=2)
    first, second = fixtures_of(season)
    fixture_count(match_id=finish(first, [1, 2, 3, 4]).pk)
    fixture_count(match_id=finish(second, [1, 2, 3, 4]).pk)
    first.refresh_from_db()
    tallies = {"moves": [12, 12, 12, 12], "bot_moves": [12, 0, 3, 0]}
    Fixture.objects.filter(pk=first.pk).update(result={**first.result, **tallies})
    heat = heats_of(season, 1)[0][0]
    assert heat.absent == frozenset({first.seats[0]})
    places = dict(zip(first.seats, [1, 2, 3, 4], strict=True))
    expected = sorted((e for e in first.seats if e != first.seats[0]), key=places.__getitem__)[:2]
    assert going_through(heat, advance=2, rank=rank_of(season, 1)) == expected
