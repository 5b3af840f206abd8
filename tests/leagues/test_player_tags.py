"""The player page tags each table that did not simply count as played: forfeit, adjusted, as it stood, void.

Each table of a one-table-a-round season is decided a different way through the services an organizer and
the sweeps use; the page's line for that round carries the tag (and a table played out carries none).
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Match
from leagues.models import Fixture, Season
from leagues.results import fixture_count, result_adjust, result_forfeit, round_settle
from tests.leagues.factories import finish, fixtures_of, make_season, organizer_of

pytestmark = pytest.mark.django_db

ROW = re.compile(r"<tr>\s*<td class=\"num\">(\d+)</td>(.*?)</tr>", re.S)
TAG = re.compile(r'<span class="tag">([^<]+)</span>')


def _counted(fixture: Fixture) -> None:
    match = finish(fixture, [1, 2, 3, 4])
    assert fixture_count(match_id=match.pk)


def _tags_by_round(season: Season, user_id: int) -> dict[int, list[str]]:
    club, league = season.league.club, season.league
    address = reverse("leagues-player", args=[club.slug, league.slug, season.number, user_id])
    html = Client().get(address).content.decode()
    tbody = html.split('<table class="player-fixtures">', 1)[1].split("</table>", 1)[0]
    return {int(number): TAG.findall(cells) for number, cells in ROW.findall(tbody)}


def test_it_tags_each_table_by_how_it_was_decided() -> None:
    season = make_season(players=4, rounds=6, fill="byes", settle=Season.Settle.AS_STANDS)
    boss = organizer_of(season.league.club)
    tables = {n: fixtures_of(season, round_number=n)[0] for n in range(1, 7)}
    assert all(f.match_id is not None for f in tables.values()), "every round opens at once"
    _counted(tables[1])  # played out: no tag
    _counted(tables[2])
    result_forfeit(fixture=tables[2], actor=boss, entrants=[tables[2].seats[0]], reason="did not turn up")
    _counted(tables[3])
    result_adjust(fixture=tables[3], actor=boss, places=[2, 1, 3, 4], reason="a misdeal")
    Match.objects.filter(pk=tables[4].match_id).update(status=Match.Status.ABANDONED, finished_at=timezone.now())
    assert fixture_count(match_id=tables[4].match_id)
    # Round 6: a forfeit recorded while the match is still played; a bot plays on, the table is not over.
    result_forfeit(fixture=tables[6], actor=boss, entrants=[tables[6].seats[1]], reason="left for a week")
    tables[6].refresh_from_db()
    assert tables[6].counted_at is None and tables[6].forfeited
    round_settle(round=tables[5].round)

    decided = dict(Fixture.objects.filter(round__season=season).values_list("round__number", "how"))
    assert decided[5] == Fixture.How.AS_STANDS and decided[4] == Fixture.How.VOID
    player = season.entrants.get(pk=tables[1].seats[2]).user_id
    assert _tags_by_round(season, player) == {
        1: [],
        2: ["forfeit"],
        3: ["adjusted"],
        4: ["void"],
        5: ["as it stood"],
        6: ["forfeit"],
    }
