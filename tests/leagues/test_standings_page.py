"""The standings page: its table and columns, sorting, the points chart, the exports, and its query count."""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from leagues.models import Season
from leagues.presenters import CHART_PAD, CHART_PLAYERS, COLUMN_LABELS
from leagues.results import fixture_count
from leagues.selectors import standings_for
from tests.leagues.factories import finish, fixtures_of, make_league, make_season

pytestmark = pytest.mark.django_db

TIEBREAKS = ["points", "wins", "game_score", "fewest_bot_moves"]


def url(season: Season, name: str = "leagues-standings") -> str:
    return reverse(name, args=[season.league.club.slug, season.league.slug, season.number])


def played(season: Season, *, rounds: int) -> Season:
    """Finish and count every table of the first ``rounds`` rounds; seat order is the finishing order."""
    for number in range(1, rounds + 1):
        for fixture in fixtures_of(season, round_number=number):
            match = finish(fixture, list(range(1, len(fixture.seats) + 1)))
            fixture_count(match_id=match.pk)
    return season


def a_season(players: int = 8, *, rounds: int = 3, played_rounds: int = 2) -> Season:
    league = make_league(tiebreaks=TIEBREAKS)
    return played(make_season(league=league, players=players, rounds=rounds), rounds=played_rounds)


def body_rows(html: str) -> list[str]:
    tbody = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r"<tr[^>]*>(.*?)</tr>", tbody, flags=re.S)


def names_in_order(html: str) -> list[str]:
    return [re.search(r'<th scope="row"><a [^>]*>([^<]+)</a>', row).group(1) for row in body_rows(html)]  # type: ignore[union-attr]


def test_it_shows_every_player_with_the_leagues_tiebreak_columns_rating_and_form() -> None:
    season = a_season()
    html = Client().get(url(season)).content.decode()
    headings = re.findall(r"<th scope=\"col\"[^>]*>(?:<a [^>]*>)?([^<]+)", html)
    labels = [COLUMN_LABELS[key] for key in TIEBREAKS[1:]]
    assert headings == ["#", "Player", "Played", "Points", *labels, "Rating", "Form"]
    rows = standings_for(season=season)
    assert names_in_order(html) == [row.name for row in rows]
    first = body_rows(html)[0]
    assert f">{rows[0].played}<" in first and rows[0].played == 2
    assert first.count('class="place') == 2  # two results in the form column
    assert "Rating" in html


def test_it_sorts_by_a_column_on_the_server_and_keeps_the_official_order_by_default() -> None:
    season = a_season()
    client = Client()
    official = [row.name for row in standings_for(season=season)]
    assert names_in_order(client.get(url(season)).content.decode()) == official
    assert names_in_order(client.get(url(season) + "?sort=rank").content.decode()) == official
    assert names_in_order(client.get(url(season) + "?sort=nonsense").content.decode()) == official
    assert names_in_order(client.get(url(season) + "?sort=name").content.decode()) == sorted(official, key=str.casefold)
    by_score = sorted(standings_for(season=season), key=lambda r: -r.game_score)
    assert names_in_order(client.get(url(season) + "?sort=game_score").content.decode()) == [r.name for r in by_score]


def test_fewest_bot_moves_sorts_lowest_first() -> None:
    season = a_season()
    rows = standings_for(season=season)
    # Give the official leader the most bot moves: sorted by fewest bot moves, they come last.
    from leagues.models import Standing

    Standing.objects.filter(entrant_id=rows[0].entrant_id).update(bot_moves=9)
    html = Client().get(url(season) + "?sort=fewest_bot_moves").content.decode()
    assert names_in_order(html)[-1] == rows[0].name
    assert 'aria-sort="ascending"' in html


def test_the_sort_links_work_without_javascript_and_htmx_gets_only_the_table() -> None:
    season = a_season()
    html = Client().get(url(season)).content.decode()
    assert 'href="?sort=points"' in html and 'hx-get="?sort=points"' in html
    partial = Client().get(url(season) + "?sort=points", headers={"HX-Request": "true"}).content.decode()
    assert partial.lstrip().startswith('<div id="standings-tables">')
    assert "<html" not in partial


def test_the_sorted_column_alone_is_marked_for_screen_readers() -> None:
    season = a_season()

    def marked(query: str) -> list[tuple[str, str]]:
        html = Client().get(url(season) + query).content.decode()
        return re.findall(r'<th scope="col" aria-sort="(\w+)"><a href="([^"]+)"', html)

    assert marked("") == [("ascending", "?sort=rank")]
    assert marked("?sort=points") == [("descending", "?sort=points")]
    assert marked("?sort=name&all=1") == [("ascending", "?sort=name&amp;all=1")]
    assert marked("?sort=nonsense") == []


def test_a_sorted_fragment_asks_for_no_void_tables_nor_the_headers_count(django_assert_num_queries: Any) -> None:
    season = a_season()
    client, address = Client(), url(season) + "?sort=points"
    client.force_login(season.entrants.first().user)  # type: ignore[union-attr]
    with django_assert_num_queries(4):  # the session, the user, the season with the reader's role, the lines
        assert client.get(address, headers={"HX-Request": "true"}).status_code == 200


def test_the_chart_has_a_point_per_leader_and_round_played() -> None:
    season = a_season(players=8, rounds=3, played_rounds=2)
    html = Client().get(url(season)).content.decode()
    svg = html.split("<svg", 1)[1].split("</svg>", 1)[0]
    # Leaders level in every round share one line (and one legend entry): a line per distinct run of totals.
    leaders = standings_for(season=season)[:CHART_PLAYERS]
    lines = len({tuple(row.cumulative[:2]) for row in leaders})
    assert svg.count("<circle") == lines * 2
    assert svg.count("<polyline") == lines
    polyline = re.search(r'<polyline points="([^"]+)"', svg).group(1)  # type: ignore[union-attr]
    assert len(polyline.split()) == 1 + 2  # from the origin through each round played
    # The leader's total after the last round played is the top of the chart.
    leader = svg.split('<g class="series series-1">', 1)[1].split("</g>", 1)[0]
    last_y = re.findall(r'<circle cx="[^"]+" cy="([^"]+)"', leader)[-1]
    assert float(last_y) == CHART_PAD
    assert "style=" not in html


def test_there_is_no_chart_before_the_first_result() -> None:
    season = a_season(played_rounds=0)
    html = Client().get(url(season)).content.decode()
    assert "<svg" not in html
    assert len(body_rows(html)) == 8


def test_the_csv_export_has_a_line_per_player_in_the_official_order() -> None:
    season = a_season()
    response = Client().get(url(season, "leagues-standings-csv"))
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    lines = list(csv.DictReader(io.StringIO(response.content.decode())))
    rows = standings_for(season=season)
    assert [line["player"] for line in lines] == [row.name for row in rows]
    assert list(lines[0]) == [
        *("rank", "player", "division", "played", "points"),
        *("wins", "game_score", "fewest_bot_moves", "rating", "form"),
        *("timeouts", "moves", "bot_moves", "bot_share"),  # tests/leagues/test_exports_reliability.py
    ]
    assert float(lines[0]["points"]) == rows[0].points
    assert int(lines[0]["rank"]) == rows[0].rank


def test_the_json_export_matches_the_table() -> None:
    season = a_season()
    data: dict[str, Any] = json.loads(Client().get(url(season, "leagues-standings-json")).content)
    rows = standings_for(season=season)
    assert data["season"] == season.name
    assert [(s["rank"], s["player"], s["points"], s["wins"]) for s in data["standings"]] == [
        (r.rank, r.name, r.points, r.wins) for r in rows
    ]
    assert data["standings"][0]["form"] == " ".join(str(f["place"]) for f in rows[0].form)


def test_the_query_count_does_not_grow_with_the_season(django_assert_num_queries: Any) -> None:
    """Anonymous: the season with its league and club, the standings lines with the ratings; as many for 24 players."""
    small = a_season(players=4, rounds=2, played_rounds=1)
    large = a_season(players=24, rounds=5, played_rounds=3)
    for season in (small, large):
        address = url(season)
        with django_assert_num_queries(2):
            assert Client().get(address).status_code == 200
        with django_assert_num_queries(1):  # the tables from the page cache: the season alone
            assert Client().get(address).status_code == 200


def test_the_query_count_for_a_logged_in_member_does_not_grow_either(django_assert_num_queries: Any) -> None:
    small = a_season(players=4, rounds=2, played_rounds=1)
    large = a_season(players=24, rounds=5, played_rounds=3)
    counts = []
    for season in (small, large):
        client, address = Client(), url(season)
        client.force_login(season.entrants.first().user)  # type: ignore[union-attr]
        with CaptureQueriesContext(connection) as counted:
            assert client.get(address).status_code == 200
        counts.append(len(counted))
    assert counts[0] == counts[1]
    # The session, the user, the season with the reader's role, the lines with the ratings, the header's count.
    assert counts[0] == 5
    # Asked again, the tables come from the page cache (leagues/standings_page.py): no lines read.
    with django_assert_num_queries(counts[0] - 1):
        client.get(address)


def test_a_player_is_linked_to_their_season_page() -> None:
    season = a_season()
    row = standings_for(season=season)[0]
    player_url = reverse(
        "leagues-player", args=[season.league.club.slug, season.league.slug, season.number, row.user_id]
    )
    assert f'href="{player_url}"' in Client().get(url(season)).content.decode()
    page = Client().get(player_url).content.decode()
    assert row.name in page
    assert page.count("<tr>") == 1 + 3  # the heading and one line per round


def test_a_big_table_shows_its_first_rows_with_a_link_to_all_and_the_exports_have_everyone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("leagues.views.PAGE_ROWS", 5)
    season = a_season(players=8)
    official = [row.name for row in standings_for(season=season)]
    html = Client().get(url(season)).content.decode()
    assert names_in_order(html) == official[:5]
    assert "The first 5 of 8 players." in html and 'href="?all=1"' in html
    everyone = Client().get(url(season) + "?all=1").content.decode()
    assert names_in_order(everyone) == official
    assert 'href="?sort=points&amp;all=1"' in everyone  # sorting keeps every row shown
    by_name = Client().get(url(season) + "?sort=name").content.decode()
    assert names_in_order(by_name) == sorted(official, key=str.casefold)[:5]
    assert 'href="?sort=name&amp;all=1"' in by_name
    lines = list(csv.DictReader(io.StringIO(Client().get(url(season, "leagues-standings-csv")).content.decode())))
    assert len(lines) == 8


def test_a_table_of_fewer_rows_than_a_page_has_no_show_all_link() -> None:
    html = Client().get(url(a_season(players=8))).content.decode()
    assert len(body_rows(html)) == 8 and "all=1" not in html


@pytest.mark.parametrize(
    ("value", "shown"),
    [(None, "–"), (3.0, "3"), (0.0, "0"), (12.5, "12.50"), (2.999, "3.00"), (1 / 3, "0.33"), (-1.25, "-1.25")],
)
def test_numbers_are_shown_as_floatformat_minus_two_shows_them(value: float | None, shown: str) -> None:
    from django.template.defaultfilters import floatformat

    from leagues.presenters import number

    assert number(value) == shown
    if value is not None:
        assert floatformat(value, "-2") == shown


def test_the_readers_own_line_is_marked_and_shared_ranks_say_so() -> None:
    season = a_season(players=8, played_rounds=0)  # nobody has points: everyone shares the first place
    me = season.entrants.order_by("pk").first().user  # type: ignore[union-attr]
    client = Client()
    client.force_login(me)
    html = client.get(url(season)).content.decode()
    marked = re.findall(r'<tr class="me">(.*?)</tr>', html, flags=re.S)
    assert len(marked) == 1 and f">{me.name}<" in marked[0]
    assert all('<td class="num">1=</td>' in row for row in body_rows(html))


def test_a_long_seasons_chart_draws_the_lines_with_a_dot_for_the_last_round_only() -> None:
    from leagues.presenters import CHART_DOTS

    season = a_season(players=4, rounds=CHART_DOTS + 1, played_rounds=CHART_DOTS + 1)
    svg = Client().get(url(season)).content.decode().split("<svg", 1)[1].split("</svg>", 1)[0]
    assert svg.count("<circle") == 4  # one per player (the top five of four)
    polyline = re.search(r'<polyline points="([^"]+)"', svg).group(1)  # type: ignore[union-attr]
    assert len(polyline.split()) == 1 + CHART_DOTS + 1
    assert f"round {CHART_DOTS + 1}:" in svg


def test_a_player_below_the_first_rows_finds_their_own_line_under_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("leagues.views.PAGE_ROWS", 3)
    season = a_season(players=8)
    rows = standings_for(season=season)
    last = season.entrants.get(pk=rows[-1].entrant_id).user
    client = Client()
    client.force_login(last)
    html = client.get(url(season)).content.decode()
    names = re.findall(r'<th scope="row"><a [^>]*>([^<]+)</a>', html)
    assert names == [row.name for row in rows[:3]] + [last.name]
    assert '<tr class="gap">' in html
    assert re.findall(r'<tr class="me">.*?</tr>', html, flags=re.S)[0].count(f">{last.name}<") == 1
    assert names_in_order(Client().get(url(season)).content.decode()) == [row.name for row in rows[:3]]
