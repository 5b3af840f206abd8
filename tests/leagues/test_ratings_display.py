"""Ratings as people read them: a newcomer's 1,000 and a cautious estimate, on the standings, the player page
and the profile, with a note that says what the number is and what moves it.

The expected numbers are worked out here from the stored mu and sigma (1,000 + 40 x (mu - 3 sigma), rounded),
not by the display code.
"""

from __future__ import annotations

import csv
import io
import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from leagues import ratings
from leagues.models import Entrant, Rating, RatingChange, Season
from leagues.results import fixture_count
from tests.leagues.factories import finish, fixtures_of, make_league, make_season

pytestmark = pytest.mark.django_db

NOTE = "Everyone starts at 1,000"
POLICY = ("A forfeit counts as a last place", "change points and places, not ratings")


def expected(mu: float, sigma: float) -> str:
    """The shown rating, recomputed: the newcomer's 1,000 plus the conservative estimate at 40 points a unit."""
    return f"{round(1000 + round(40 * (mu - 3 * sigma), 1)):,}"


def one_round() -> Season:
    league = make_league(tiebreaks=["points", "opponents_rating"])
    season = make_season(league=league, players=8, rounds=2)
    for fixture in fixtures_of(season):
        fixture_count(match_id=finish(fixture, [1, 2, 3, 4]).pk)
    return season


def page(season: Season, name: str, *extra: object) -> str:
    args = [season.league.club.slug, season.league.slug, season.number, *extra]
    return Client().get(reverse(name, args=args)).content.decode()


def standings_cells(html: str) -> dict[str, dict[str, str]]:
    """Each player's cells by column heading, by name."""
    headings = re.findall(r'<th scope="col"[^>]*>(?:<a [^>]*>|<abbr [^>]*>)?([^<]+)', html)
    tbody = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    found = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", tbody, flags=re.S):
        cells = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, flags=re.S)
        name = re.search(r'<th scope="row"><a [^>]*>([^<]+)</a>', row)
        if name:
            found[name.group(1)] = dict(zip(map(unescape, headings), cells, strict=True))
    return found


def test_it_starts_a_newcomer_at_1000_and_keeps_the_estimate_cautious() -> None:
    assert ratings.shown(ratings.ordinal(*ratings.DEFAULT)) == 1000
    assert ratings.shown_text(ratings.ordinal(30.0, 2.0)) == "1,960"
    # One lucky win over three newcomers leaves a newcomer well below what a middling regular shows.
    after = ratings.rate([[ratings.DEFAULT]] * 4, [1, 2, 3, 4])[0][0]
    assert ratings.shown(ratings.ordinal(*after)) < ratings.shown(ratings.ordinal(30.0, 2.0))
    # A change is counted between the two shown numbers: from a newcomer's 1,000 to the rating after.
    gained = round(1000 + round(40 * (after[0] - 3 * after[1]), 1)) - 1000
    assert gained > 0 and ratings.change_text(ratings.ordinal(*after), ratings.ordinal(*after)) == f"+{gained:,}"
    assert ratings.change_text(120.4, 0.3) == "±0"


def test_it_shows_each_players_rating_on_the_standings_as_the_stored_rating_recomputed() -> None:
    season = one_round()
    cells = standings_cells(page(season, "leagues-standings"))
    for entrant in Entrant.objects.filter(season=season).select_related("user"):
        stored = Rating.objects.get(user=entrant.user, game=season.league.game)
        assert cells[entrant.user.name]["Rating"] == expected(stored.mu, stored.sigma), entrant.user.name


def test_it_shows_the_opponents_rating_on_the_same_scale() -> None:
    season = one_round()  # everyone met three newcomers in the first round: their average is 1,000
    cells = standings_cells(page(season, "leagues-standings"))
    assert {row["Opponents' rating"] for row in cells.values()} == {"1,000"}


def test_it_says_beside_the_standings_what_a_rating_is_and_what_moves_it() -> None:
    html = page(one_round(), "leagues-standings")
    note = html.split('class="rating-note"', 1)[1].split("</aside>", 1)[0]
    assert NOTE in note and "cautious estimate" in note
    assert all(sentence in note for sentence in POLICY)
    assert "void table" in note and "scored as it stood" in note


def test_it_shows_the_players_rating_and_each_change_on_their_season_page() -> None:
    season = one_round()
    winner = Entrant.objects.get(pk=fixtures_of(season)[0].seats[0]).user
    html = page(season, "leagues-player", winner.pk)
    stored = Rating.objects.get(user=winner, game=season.league.game)
    change = RatingChange.objects.get(rating=stored)
    gained = round(1000 + change.ordinal) - 1000  # from a newcomer's 1,000
    assert f'rating <span class="rating">{expected(stored.mu, stored.sigma)}</span>' in html
    assert f'Round 1: <span class="rating">{expected(change.mu, change.sigma)}</span> (+{gained:,})' in html
    assert NOTE in html and POLICY[0] in html


def test_it_shows_the_ratings_on_the_profile_on_the_same_scale_with_the_note() -> None:
    season = one_round()
    last = Entrant.objects.get(pk=fixtures_of(season)[0].seats[3]).user
    stored = Rating.objects.get(user=last, game=season.league.game)
    client = Client()
    client.force_login(last)
    html = client.get(reverse("accounts-profile")).content.decode()
    section = html.split('class="league-ratings"', 1)[1].split("</section>", 1)[0]
    assert f'<span class="rating">{expected(stored.mu, stored.sigma)}</span> after 1 rated match' in section
    lost = round(1000 + stored.ordinal) - 1000
    assert f"(recent: {lost:+,})" in section
    assert NOTE in section


def test_it_exports_the_ratings_on_the_shown_scale() -> None:
    season = one_round()
    text = (
        Client()
        .get(reverse("leagues-standings-csv", args=[season.league.club.slug, season.league.slug, season.number]))
        .content.decode()
    )
    for line in csv.DictReader(io.StringIO(text)):
        user = next(e.user for e in Entrant.objects.filter(season=season) if e.user.name == line["player"])
        stored = Rating.objects.get(user=user, game=season.league.game)
        assert line["rating"] == expected(stored.mu, stored.sigma).replace(",", "")
        assert line["opponents_rating"] == "1000"
