"""A forfeit leaves the table playing: the forfeiting seat goes to a bot, the others play on, and the forfeiter is
placed last when the match ends, whatever the bot did; everyone at the table is told by mail (issue 23).

Points are checked against the league's points per place and the engine's raw outcome, worked out here.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Mail, Match, Move, Seat
from leagues.models import AuditEntry, Entrant, Fixture, Standing
from leagues.results import fixture_count, result_forfeit
from tests.games.factories import play_engine_moves
from tests.leagues.factories import finish, fixtures_of, make_season, organizer_of

pytestmark = pytest.mark.django_db


def points(entrant: int | None) -> float:
    return Standing.objects.get(entrant_id=entrant).points


def test_it_hands_the_forfeiting_seat_to_a_bot_and_places_the_forfeiter_last_whatever_the_bot_did() -> None:
    season = make_season(players=4, rounds=1, fill="byes")
    league = season.league
    fixture = fixtures_of(season)[0]
    match = fixture.match
    assert match is not None
    play_engine_moves(match, 3, seed=5)
    quitter_seat = 2
    result_forfeit(
        fixture=fixture, actor=organizer_of(league.club), entrants=[fixture.seats[quitter_seat]], reason="Moved away."
    )
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    seat = Seat.objects.get(match=match, number=quitter_seat)
    assert seat.bot_level == league.timeout_bot_level and seat.user_id is not None
    assert Seat.objects.filter(match=match, bot_level="").count() == 3  # the others play on
    fixture.refresh_from_db()
    assert fixture.counted_at is None

    play_engine_moves(match, 0, until_over=True, seed=6)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert Move.objects.filter(match=match, seat=quitter_seat, kind=Move.Kind.BOT).exists()  # the bot played it
    assert fixture_count(match_id=match.pk) is True

    # Recomputed from the raw outcome: the three who played on ranked by the engine among themselves, the
    # forfeiter fourth, with the league's points per place.
    engine_places = match.outcome["places"]  # type: ignore[index]
    scheme = list(league.place_points)
    stayed = [s for s in range(4) if s != quitter_seat]
    expected = {quitter_seat: scheme[3]}
    for s in stayed:
        better = sum(1 for o in stayed if engine_places[o] < engine_places[s])
        level = sum(1 for o in stayed if engine_places[o] == engine_places[s])
        expected[s] = sum(scheme[better : better + level]) / level
    assert [points(fixture.seats[s]) for s in range(4)] == pytest.approx([expected[s] for s in range(4)])
    fixture.refresh_from_db()
    assert fixture.how == Fixture.How.FORFEIT
    assert fixture.result["places"][quitter_seat] == 4  # type: ignore[index]
    assert Standing.objects.get(entrant_id=fixture.seats[quitter_seat]).wins == 0


def test_everyone_at_the_table_is_told_by_mail_with_the_reason() -> None:
    season = make_season(players=4, rounds=1, fill="byes")
    fixture = fixtures_of(season)[0]
    quitter = fixture.seats[0]
    result_forfeit(fixture=fixture, actor=organizer_of(season.league.club), entrants=[quitter], reason="Left town.")
    users = dict(Entrant.objects.filter(pk__in=fixture.seats).values_list("pk", "user__email"))
    mails = list(Mail.objects.filter(dedupe_key__startswith="forfeit:"))
    assert sorted(m.recipient for m in mails) == sorted(users.values())
    for mail in mails:
        assert "Left town." in mail.body
    own = next(m for m in mails if m.recipient == users[quitter])
    assert "A bot plays on in your seat" in own.body
    assert all("your place comes from your play" in m.body for m in mails if m is not own)


def test_the_bot_moves_at_once_when_the_forfeiting_seat_is_awaited(
    eager: Any, django_capture_on_commit_callbacks: Any
) -> None:
    season = make_season(players=4, rounds=1, fill="byes")
    fixture = fixtures_of(season)[0]
    match = fixture.match
    assert match is not None
    awaited = match.engine.to_act(match.state)[0]
    eager.limit = 1
    with django_capture_on_commit_callbacks(execute=True):
        result_forfeit(
            fixture=fixture, actor=organizer_of(season.league.club), entrants=[fixture.seats[awaited]], reason="Gone."
        )
    assert Move.objects.filter(match=match, seat=awaited, kind=Move.Kind.BOT).exists()


def test_a_forfeit_of_a_finished_table_replaces_its_result_as_before() -> None:
    season = make_season(players=4, rounds=1, fill="byes")
    fixture = fixtures_of(season)[0]
    finish(fixture, [1, 2, 3, 4])
    fixture_count(match_id=fixture.match_id)  # type: ignore[arg-type]
    scheme = list(season.league.place_points)
    result_forfeit(
        fixture=fixture, actor=organizer_of(season.league.club), entrants=[fixture.seats[0]], reason="Cheated."
    )
    # The three who stayed share places 1 to 3, the forfeiter is 4th.
    shared = sum(scheme[:3]) / 3
    assert [points(e) for e in fixture.seats] == pytest.approx([scheme[3], shared, shared, shared])
    assert AuditEntry.objects.filter(season=season, kind=AuditEntry.Kind.FORFEIT, text__contains="Cheated.").exists()


def test_when_everyone_forfeits_a_table_still_playing_it_stops_and_nobody_wins() -> None:
    season = make_season(players=4, rounds=1, fill="byes")
    fixture = fixtures_of(season)[0]
    scheme = list(season.league.place_points)
    result_forfeit(
        fixture=fixture, actor=organizer_of(season.league.club), entrants=list(fixture.seats), reason="No-shows."
    )
    fixture.refresh_from_db()
    assert fixture.match.status == Match.Status.ABANDONED  # type: ignore[union-attr]
    assert [points(e) for e in fixture.seats] == [scheme[3]] * 4
    assert sum(Standing.objects.get(entrant_id=e).wins for e in fixture.seats) == 0
