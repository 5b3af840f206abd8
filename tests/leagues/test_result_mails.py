"""Mails to players when an organizer changes their result (issue 23): adjust, forfeit, void; one mail per player
at the table, through the outbox, saying what changed and the organizer's reason."""

from __future__ import annotations

import pytest

from games.models import Mail, Match
from leagues.models import Entrant
from leagues.results import fixture_count, result_adjust, result_forfeit
from leagues.rollover import season_finish
from tests.leagues.factories import finish, fixtures_of, make_season, organizer_of

pytestmark = pytest.mark.django_db


def addresses(entrants: list[int | None]) -> dict[int, str]:
    return dict(Entrant.objects.filter(pk__in=entrants).values_list("pk", "user__email"))


def test_an_adjustment_mails_each_player_their_result_before_and_after_with_the_reason() -> None:
    season = make_season(players=4, rounds=1, fill="byes")
    fixture = fixtures_of(season)[0]
    finish(fixture, [1, 2, 3, 4])
    fixture_count(match_id=fixture.match_id)  # type: ignore[arg-type]
    scheme = list(season.league.place_points)
    result_adjust(
        fixture=fixture, actor=organizer_of(season.league.club), places=[4, 3, 2, 1], reason="Scores swapped."
    )
    mails = {m.recipient: m for m in Mail.objects.filter(dedupe_key__startswith="result-change:")}
    emails = addresses(fixture.seats)
    assert sorted(mails) == sorted(emails.values())  # one each, nobody else
    first = mails[emails[fixture.seats[0]]]  # type: ignore[index]
    assert f"Your result before: 1st of 4, {scheme[0]:g} points." in first.body
    assert f"Your result now: 4th of 4, {scheme[3]:g} points." in first.body
    assert '"Scores swapped."' in first.body and "Scores swapped" not in first.subject


def test_a_forfeit_of_a_finished_table_mails_every_player_at_it() -> None:
    season = make_season(players=4, rounds=1, fill="byes")
    fixture = fixtures_of(season)[0]
    finish(fixture, [1, 2, 3, 4])
    fixture_count(match_id=fixture.match_id)  # type: ignore[arg-type]
    result_forfeit(
        fixture=fixture, actor=organizer_of(season.league.club), entrants=[fixture.seats[3]], reason="Cheated."
    )
    mails = list(Mail.objects.filter(dedupe_key__startswith="result-change:"))
    assert sorted(m.recipient for m in mails) == sorted(addresses(fixture.seats).values())
    assert all("Cheated." in m.body and "forfeited" in m.body for m in mails)


def test_a_table_an_organizer_makes_void_mails_its_players() -> None:
    season = make_season(players=4, rounds=1, fill="byes")
    fixture = fixtures_of(season)[0]
    Match.objects.filter(pk=fixture.match_id).delete()  # gone: the organizer's season end makes the table void
    season_finish(season=season, actor=organizer_of(season.league.club))
    mails = list(Mail.objects.filter(dedupe_key__startswith="result-change:"))
    assert sorted(m.recipient for m in mails) == sorted(addresses(fixture.seats).values())
    assert all("void" in m.body and "Your result now: no result." in m.body for m in mails)
