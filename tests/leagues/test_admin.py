"""The staff's list of audit entries names each entry's club: a club's own entry its club, a season's entry the
club of its league, read in the list's one query however many entries and clubs there are."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from leagues.clubs import club_invite
from leagues.models import AuditEntry, Club
from tests.leagues.factories import make_club, make_league, make_season, organizer_of

pytestmark = pytest.mark.django_db

LIST = "/admin/leagues/auditentry/"


def club_with_records(name: str) -> Club:
    """A club with an entry of its own (an invitation sent) and its season's entries (drawn, started, opened)."""
    club = make_club(name=name)
    make_season(league=make_league(club=club), players=4, rounds=1)
    club_invite(club=club, actor=organizer_of(club), email=f"guest@{club.slug}.example.com")
    return club


def clubs_column(html: str) -> list[str]:
    return re.findall(r'<td class="field-entry_club[^"]*">([^<]*)</td>', html)


def list_page(client: Client) -> tuple[str, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(LIST)
    assert response.status_code == 200
    return response.content.decode(), [q["sql"] for q in queries.captured_queries]


def test_it_shows_each_entrys_club_whether_the_clubs_own_or_its_seasons(admin_client: Client) -> None:
    tuesday, friday = club_with_records("Tuesday Club"), club_with_records("Friday Club")
    html, _ = list_page(admin_client)
    shown = clubs_column(html)
    expected = {
        e.pk: (e.club or e.season.league.club).name  # type: ignore[union-attr]
        for e in AuditEntry.objects.select_related("club", "season__league__club")
    }
    assert len(shown) == len(expected) == AuditEntry.objects.count()
    assert sorted(shown) == sorted(expected.values())
    for club in (tuesday, friday):  # both kinds of entry, for both clubs
        assert AuditEntry.objects.filter(club=club, season=None).exists()
        assert AuditEntry.objects.filter(season__league__club=club).exists()
        assert (
            shown.count(club.name)
            == AuditEntry.objects.filter(club=club).count()
            + AuditEntry.objects.filter(season__league__club=club).count()
        )


def test_the_list_reads_its_entries_in_one_query_however_many_clubs(admin_client: Client) -> None:
    club_with_records("Club 1")
    _, few = list_page(admin_client)
    for n in range(2, 6):
        club_with_records(f"Club {n}")
    html, many = list_page(admin_client)
    assert len(clubs_column(html)) == AuditEntry.objects.count() > 20
    assert len(many) == len(few)
    rows = [q for q in many if 'FROM "leagues_auditentry"' in q and "COUNT(" not in q.upper()]
    assert len(rows) == 1, rows
    assert not [q for q in many if q.lstrip().startswith('SELECT "leagues_club"')]
