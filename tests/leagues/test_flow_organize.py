"""The organizer's "open the next round now" and "settle this round now": asked on a page first, done on its
post, written in the season's record; refused with a sentence when there is nothing to do."""

from __future__ import annotations

from typing import Any

import pytest

from leagues.models import AuditEntry, Fixture
from tests.leagues.factories import fixtures_of, member, organizer_of
from tests.leagues.flow_world import is_open, login, page, round_of, season_url, sequential

pytestmark = pytest.mark.django_db


def test_the_organize_page_offers_to_settle_the_open_round_and_open_the_next() -> None:
    season = sequential()
    html = page(login(organizer_of(season.league.club)).get(season_url(season, "leagues-season-organize")))
    assert season_url(season, "leagues-round-settle", round_of(season, 1).pk) in html
    assert season_url(season, "leagues-round-open", round_of(season, 2).pk) in html
    assert season_url(season, "leagues-round-open", round_of(season, 1).pk) not in html  # open already


def test_it_asks_before_settling_and_the_question_changes_nothing() -> None:
    season = sequential()
    before = AuditEntry.objects.count()
    response = login(organizer_of(season.league.club)).get(
        season_url(season, "leagues-round-settle", round_of(season, 1).pk)
    )
    html = page(response)
    assert response.status_code == 200 and "Settle Round 1 now?" in html
    assert "scored as it stands" in html and "the next round opens" in html
    assert AuditEntry.objects.count() == before and round_of(season, 1).settled_at is None


def test_settling_now_scores_the_round_opens_the_next_and_records_who() -> None:
    season = sequential(settle="as_stands")
    organizer = organizer_of(season.league.club)
    response = login(organizer).post(season_url(season, "leagues-round-settle", round_of(season, 1).pk))
    assert response.status_code == 302 and response["Location"] == season_url(season, "leagues-season-organize")
    assert round_of(season, 1).settled_at is not None
    assert fixtures_of(season)[0].how == Fixture.How.AS_STANDS
    assert is_open(season, 2)
    settled = AuditEntry.objects.get(season=season, kind=AuditEntry.Kind.SETTLE, fixture=None)
    assert settled.actor == organizer and settled.text.startswith("Round 1 was settled early by an organizer")


def test_opening_now_makes_the_matches_and_records_who() -> None:
    season = sequential()
    organizer = organizer_of(season.league.club)
    client = login(organizer)
    asked = page(client.get(season_url(season, "leagues-round-open", round_of(season, 2).pk)))
    assert "Open Round 2 now?" in asked and not is_open(season, 2)
    client.post(season_url(season, "leagues-round-open", round_of(season, 2).pk))
    assert is_open(season, 2) and fixtures_of(season, round_number=2)[0].match_id is not None
    entry = AuditEntry.objects.get(season=season, text__startswith="Round 2 opened")
    assert entry.actor == organizer


def test_it_refuses_to_open_an_open_round_or_settle_a_settled_one_with_a_sentence() -> None:
    season = sequential()
    client = login(organizer_of(season.league.club))
    html = page(client.post(season_url(season, "leagues-round-open", round_of(season, 1).pk), follow=True))
    assert "Round 1 is already open." in html
    client.post(season_url(season, "leagues-round-settle", round_of(season, 1).pk))
    before = AuditEntry.objects.count()
    html = page(client.post(season_url(season, "leagues-round-settle", round_of(season, 1).pk), follow=True))
    assert "Round 1 is already settled." in html and AuditEntry.objects.count() == before


def test_a_player_can_neither_open_nor_settle_a_round() -> None:
    season = sequential()
    player = login(member(season.league.club))
    for name, number in (("leagues-round-open", 2), ("leagues-round-settle", 1)):
        url = season_url(season, name, round_of(season, number).pk)
        assert player.get(url).status_code == 403 and player.post(url).status_code == 403
    assert not is_open(season, 2) and round_of(season, 1).settled_at is None


def test_the_confirmation_pages_and_the_organize_page_keep_their_query_count(
    django_assert_max_num_queries: Any,
) -> None:
    season = sequential(rounds=6)
    client = login(organizer_of(season.league.club))
    urls = [
        season_url(season, "leagues-season-organize"),
        season_url(season, "leagues-round-settle", round_of(season, 1).pk),
        season_url(season, "leagues-round-open", round_of(season, 2).pk),
    ]
    for url in urls:
        # The session, the user, the season with the role, then the page's own few reads: none per round.
        with django_assert_max_num_queries(9):
            assert client.get(url).status_code == 200
