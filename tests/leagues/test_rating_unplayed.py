"""No rating for a table a player never played (issue 23): an entrant whose every move at the seat was a bot's or a
substitute's (they marked the round unavailable, or timed out from the start) keeps their rating; one who made a
single move of their own played part of it and is rated; a forfeiter is rated last even without a move.

Matches are played to the end through the services (the people's moves as theirs, the bots' as bots'), and the
ratings are checked against the model run here on the raw outcome's places of the people whose own moves the
Move log shows, from the ratings as they were before.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games.models import Mail, Match, Move, Seat
from games.services import bot_action, match_timeouts, move_submit
from games.tasks import bot_move
from leagues import ratings
from leagues.models import Entrant, Fixture, Rating, RatingChange, Season, SeatOffer, Standing
from leagues.results import fixture_count, result_forfeit
from leagues.rounds import round_open
from leagues.substitutes import availability_set, seat_offer_accept, substitute_add
from tests.accounts.factories import UserFactory
from tests.leagues.factories import fixtures_of, make_league, make_season, member, organizer_of
from tests.leagues.flow_world import FUTURE, login, page, round_of, season_url
from tests.leagues.format_play import turns

pytestmark = pytest.mark.django_db


def season_of_four() -> Season:
    """Four players of Renfield (short options) at one table a round, one round after another."""
    league = make_league()
    return make_season(league=league, players=4, rounds=2, round_mode="sequential", fill="byes", starts_on=FUTURE)


def play_out(fixture: Fixture, *, own_moves: dict[int, int] | None = None) -> Match:
    """Play the match to its end: a bot's seat by bot moves, a person's by their own (a basic bot's choice).
    ``own_moves``: seat -> how many moves its person makes before the seat goes to a bot for good."""
    own_moves = dict(own_moves or {})
    fixture.refresh_from_db()
    match = Match.objects.get(pk=fixture.match_id)
    for seat in turns(match):
        if seat.number in own_moves and own_moves[seat.number] == 0:
            Seat.objects.filter(pk=seat.pk).update(bot_level=Seat.BotLevel.BASIC)  # gone: a bot plays on
            seat.refresh_from_db()
        action = bot_action(match=match, seat=seat.number, level=Seat.BotLevel.BASIC)
        if seat.user is None or seat.bot_level:
            move_submit(match=match, user=None, seat=seat.number, action=action, version=match.version, kind="bot")
        else:
            move_submit(match=match, user=seat.user, seat=None, action=action, version=match.version)
            if seat.number in own_moves:
                own_moves[seat.number] -= 1
    return match


def held_by_user(users: list[int]) -> dict[int, tuple[float, float]]:
    rows = {r.user_id: (r.mu, r.sigma) for r in Rating.objects.filter(game="renfield", user_id__in=users)}
    return {u: rows.get(u, ratings.DEFAULT) for u in users}


def users_at(fixture: Fixture) -> list[int]:
    by_entrant = dict(Entrant.objects.filter(pk__in=fixture.seats).values_list("pk", "user_id"))
    return [by_entrant[e] for e in fixture.seats]


def first_table() -> tuple[Season, Fixture, list[int], dict[int, tuple[float, float]]]:
    """A season of four's first fixture, its players (by seat) and their ratings before it is played."""
    season = season_of_four()
    fixture = fixtures_of(season)[0]
    users = users_at(fixture)
    return season, fixture, users, held_by_user(users)


def own_moves_in_log(match: Match, user_ids: list[int]) -> list[int]:
    """Per seat, the moves its entrant made themselves, read from the log: player moves before a substitute's."""
    stints = dict(
        SeatOffer.objects.filter(fixture__match=match, taken_at__isnull=False).values_list("seat", "from_move")
    )
    counts = []
    for seat in range(len(user_ids)):
        mine = Move.objects.filter(match=match, seat=seat, kind=Move.Kind.PLAYER)
        if seat in stints:
            mine = mine.filter(ply__lt=stints[seat] - 1)
        counts.append(mine.count())
    return counts


def expected_ratings(match: Match, before: dict[int, tuple[float, float]], rated: list[int]) -> dict[int, tuple]:
    """The model run on the raw outcome's places of the rated seats only."""
    users = list(before)
    places = match.outcome["places"]
    after = ratings.rate([[before[users[s]]] for s in rated], [places[s] for s in rated])
    return {users[s]: after[n][0] for n, s in enumerate(rated)}


def assert_rated_only(match: Match, fixture: Fixture, before: dict[int, tuple[float, float]], rated: list[int]) -> None:
    users = list(before)
    changed = set(RatingChange.objects.filter(fixture=fixture).values_list("rating__user_id", flat=True))
    assert changed == {users[s] for s in rated}
    now = held_by_user(users)
    for user, (mu, sigma) in expected_ratings(match, before, rated).items():
        assert now[user] == pytest.approx((mu, sigma))
    for seat in set(range(len(users))) - set(rated):
        assert now[users[seat]] == before[users[seat]], "not rated: the rating is as it was"


def ann_away_in_round_two(season: Season) -> tuple[Fixture, User]:
    fixture = fixtures_of(season, round_number=2)[0]
    ann = Entrant.objects.select_related("user").get(pk=fixture.seats[0]).user
    availability_set(season=season, user=ann, unavailable=[2])
    return fixture, ann


def test_it_does_not_rate_an_entrant_away_whose_seat_a_substitute_played_from_the_start() -> None:
    season = season_of_four()
    fixture, ann = ann_away_in_round_two(season)
    bob = member(season.league.club, UserFactory(display_name="Bob"))
    substitute_add(season=season, actor=bob, user=bob)
    round_open(round=round_of(season, 2), actor=organizer_of(season.league.club))
    body = Mail.objects.filter(user=bob, body__contains="Take the seat:").get().body
    token = re.search(r"Take the seat: (\S+)", body).group(1).rstrip("/").split("/")[-1]  # type: ignore[union-attr]
    seat_offer_accept(token=token, user=bob)
    fixture.refresh_from_db()
    users = users_at(fixture)
    before = held_by_user(users)
    match = play_out(fixture)
    assert fixture_count(match_id=match.pk)
    assert own_moves_in_log(match, users)[0] == 0, "Ann made no move of her own"
    assert Move.objects.filter(match=match, seat=0, kind=Move.Kind.PLAYER).exists(), "Bob played the seat"
    assert_rated_only(match, fixture, before, rated=[1, 2, 3])
    assert not Rating.objects.filter(user=bob).exists()
    # The result still counts for Ann in the standings, from the raw outcome's place.
    line = Standing.objects.get(season=season, entrant__user=ann)
    assert line.played == 1
    place, level = match.outcome["places"][0], match.outcome["places"].count(match.outcome["places"][0])
    assert line.points == pytest.approx(sum(season.league.place_points[place - 1 : place - 1 + level]) / level)


def test_it_does_not_rate_an_entrant_away_whose_seat_the_bot_played() -> None:
    season = season_of_four()
    fixture, _ = ann_away_in_round_two(season)
    round_open(round=round_of(season, 2), actor=organizer_of(season.league.club))  # an empty pool: the bot plays
    fixture.refresh_from_db()
    users = users_at(fixture)
    before = held_by_user(users)
    match = play_out(fixture)
    fixture_count(match_id=match.pk)
    assert own_moves_in_log(match, users)[0] == 0 and Move.objects.filter(match=match, seat=0).exists()
    assert_rated_only(match, fixture, before, rated=[1, 2, 3])


def test_it_does_not_rate_a_player_who_never_moved_but_rates_one_who_played_part() -> None:
    season, fixture, users, before = first_table()
    # Seat 0 never moves (its bot plays from the first turn); seat 1 plays three moves, then its bot plays on.
    match = play_out(fixture, own_moves={0: 0, 1: 3})
    fixture_count(match_id=match.pk)
    own = own_moves_in_log(match, users)
    assert own[0] == 0 and own[1] == 3 and own[2] > 0 and own[3] > 0
    assert_rated_only(match, fixture, before, rated=[1, 2, 3])


def test_it_rates_a_forfeiter_last_even_without_a_move_of_their_own() -> None:
    season, fixture, users, before = first_table()
    assert fixture.seats[0] is not None
    result_forfeit(fixture=fixture, actor=organizer_of(season.league.club), entrants=[fixture.seats[0]], reason="Away.")
    match = play_out(fixture)
    fixture_count(match_id=match.pk)
    assert own_moves_in_log(match, users)[0] == 0
    changed = set(RatingChange.objects.filter(fixture=fixture).values_list("rating__user_id", flat=True))
    assert changed == set(users)
    # Recomputed: the forfeiter last, the others by their places among themselves.
    places = match.outcome["places"]
    order = sorted(range(1, 4), key=lambda s: places[s])
    ranks = {s: 1 + sum(places[o] < places[s] for o in range(1, 4)) for s in order} | {0: 4}
    after = ratings.rate([[before[u]] for u in users], [ranks[s] for s in range(4)])
    now = held_by_user(users)
    for seat, user in enumerate(users):
        assert now[user] == pytest.approx(after[seat][0])


def test_the_rating_note_says_a_table_never_played_moves_no_rating() -> None:
    season = season_of_four()
    html = page(login(organizer_of(season.league.club)).get(season_url(season, "leagues-standings")))
    note = html.split('class="rating-note"')[1].split("</aside>")[0]
    assert "never made a move of their own" in note and "played part of it" in note


def play_out_timing_out(fixture: Fixture, *, seat: int, own: int, then: Callable[[], object] | None = None) -> Match:
    """Play the match to its end, ``seat`` making ``own`` moves of its own and then letting every turn time out:
    its deadline passes and the games' timeout service plays the timeout bot's move, until the seat is absent and
    the games' bot task plays it (as the task queued on commit would). The other seats play their own moves.
    ``then`` runs once, when the seat's own moves are made and its turn first comes again."""
    fixture.refresh_from_db()
    match = Match.objects.get(pk=fixture.match_id)
    for awaited in turns(match):
        if awaited.number == seat and own <= 0:
            if then is not None:
                then()
                then = None
            if awaited.absent:
                assert bot_move(match.pk, seat, match.version)
            else:
                Seat.objects.filter(pk=awaited.pk).update(deadline=timezone.now() - timedelta(seconds=1))
                assert match_timeouts(match_id=match.pk) >= 1
        else:
            action = bot_action(match=match, seat=awaited.number, level=Seat.BotLevel.BASIC)
            move_submit(match=match, user=awaited.user, seat=None, action=action, version=match.version)
            own -= awaited.number == seat
    return match


def test_it_does_not_rate_a_no_show_whose_every_turn_timed_out_from_the_first() -> None:
    season, fixture, users, before = first_table()
    match = play_out_timing_out(fixture, seat=2, own=0)
    assert Move.objects.filter(match=match, seat=2, kind=Move.Kind.TIMEOUT).exists()
    # After three timeouts in a row the seat is absent and the bot plays on (when the match lasts that long).
    assert Move.Kind.PLAYER not in set(Move.objects.filter(match=match, seat=2).values_list("kind", flat=True))
    assert own_moves_in_log(match, users)[2] == 0
    fixture_count(match_id=match.pk)
    assert_rated_only(match, fixture, before, rated=[0, 1, 3])
    line = Standing.objects.get(season=season, entrant_id=fixture.seats[2])
    assert line.played == 1, "the result still counts for them in the standings"


def test_it_rates_a_player_who_made_one_move_and_then_timed_out() -> None:
    season, fixture, users, before = first_table()
    match = play_out_timing_out(fixture, seat=2, own=1)
    assert own_moves_in_log(match, users)[2] == 1
    assert Move.objects.filter(match=match, seat=2, kind=Move.Kind.TIMEOUT).exists()
    fixture_count(match_id=match.pk)
    assert_rated_only(match, fixture, before, rated=[0, 1, 2, 3])


def test_it_rates_last_a_player_who_made_one_move_timed_out_and_was_forfeited() -> None:
    # The matches' seeds are random: a table where the forfeiter was last by play anyway tells nothing, so the
    # first of a few where they were not is the one checked (each is last alone about one time in four).
    for _ in range(8):
        season, fixture, users, before = first_table()
        gone = fixture.seats[2]
        boss = organizer_of(season.league.club)
        match = play_out_timing_out(
            fixture,
            seat=2,
            own=1,
            then=lambda f=fixture, e=gone, b=boss: result_forfeit(fixture=f, actor=b, entrants=[e], reason="Gone."),
        )
        places = match.outcome["places"]
        if sorted(places).count(places[2]) > 1 or places[2] < max(places):
            break
    assert sorted(places).count(places[2]) > 1 or places[2] < max(places), "by play they were not last alone"
    assert own_moves_in_log(match, users)[2] == 1
    fixture_count(match_id=match.pk)
    others = [0, 1, 3]
    ranks = {s: 1 + sum(places[o] < places[s] for o in others) for s in others} | {2: 4}
    after = ratings.rate([[before[u]] for u in users], [ranks[s] for s in range(4)])
    now = held_by_user(users)
    assert set(RatingChange.objects.filter(fixture=fixture).values_list("rating__user_id", flat=True)) == set(users)
    for n, user in enumerate(users):
        assert now[user] == pytest.approx(after[n][0])
