"""The rules at hand: a page per game from the project's own rules, linked from the form and the table."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from games import rules
from games.rules import parse, rules_page
from tests.games.conftest import login
from tests.games.factories import UserFactory, game_names, make_match

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game", game_names())
def test_each_game_has_a_rules_page_from_its_markdown(game: str) -> None:
    page = Client().get(reverse("games-rules", args=[game]))  # visitors may read the rules too
    text = page.content.decode()
    assert page.status_code == 200
    title = page.context["game_title"]
    assert f"<h1>{title}</h1>" in text
    assert text.count("<h2 ") >= 3 and "<li>" in text
    # Developer notes (where the engine lives) stay out of the players' page.
    assert "engine/" not in text and "shared/spec" not in text


def test_an_unknown_game_has_no_rules_page() -> None:
    assert Client().get("/rules/chess/").status_code == 404
    assert Client().get("/rules/base/").status_code == 404


def test_karnoffel_rules_show_the_trump_order_as_written() -> None:
    text = Client().get(reverse("games-rules", args=["karnoffel"])).content.decode()
    assert "J  6  2  K  3  Q  4  5  10  9  8" in text and "<pre>" in text


def test_the_markdown_reader_keeps_markup_out_of_python_and_escapes_text() -> None:
    blocks = parse(
        "# T\n\nSome **bold** and `code` <b>raw</b>.\n\n- one\n  more\n   - sub\n- two\n\n| a | b |\n| - | - |\n| 1 | 2 |\n"
    )
    kinds = [b["kind"] for b in blocks]
    assert kinds == ["heading", "paragraph", "list", "table"]
    assert [s["kind"] for s in blocks[1]["spans"]] == ["text", "strong", "text", "code", "text"]
    items = blocks[2]["items"]
    assert items[0]["spans"][0]["text"] == "one more" and items[0]["children"][0][0]["text"] == "sub"
    assert blocks[3]["head"][0][0]["text"] == "a" and blocks[3]["rows"][0][1][0]["text"] == "2"
    rules_page.cache_clear()


def _page_from(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, markdown: str) -> str:
    """Karnoffel's rules page as served from ``markdown`` instead of the project's file."""
    (tmp_path / "karnoffel.md").write_text(markdown, encoding="utf-8")
    monkeypatch.setattr(rules, "RULES_DIR", tmp_path)
    rules.rules_page.cache_clear()
    try:
        return Client().get(reverse("games-rules", args=["karnoffel"])).content.decode()
    finally:
        rules.rules_page.cache_clear()


def test_the_raw_html_in_a_rules_file_is_escaped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = _page_from(
        tmp_path,
        monkeypatch,
        '# K\n\nA <script>alert(1)</script> here.\n\n<div onclick="x()">a block</div>\n\n'
        "| a | b |\n| - | - |\n| <img src=x onerror=y()> | [me](javascript:alert(1)) |\n",
    )
    assert "<script>alert" not in text and "&lt;script&gt;" in text
    assert "<div onclick" not in text and "&lt;div onclick=&quot;x()&quot;&gt;" in text
    assert "<img src=x" not in text and "&lt;img src=x onerror=y()&gt;" in text
    assert 'href="javascript' not in text  # a link a reader cannot follow from the site is plain text


def test_it_renders_tables_and_lists_with_a_markdown_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = _page_from(
        tmp_path,
        monkeypatch,
        "# K\n\n## One\n\n3. third\n4. fourth\n   - inner\n\n* a *b* **c** `d` [site](https://example.com/)\n\n"
        "| rank | bugs |\n|---:|:---|\n| 1 | **2** |\n\n```\nJ  6  2\n```\n",
    )
    assert '<ol start="3">' in text and "<li>third</li>" in text and "<li>fourth<ul><li>inner</li></ul></li>" in text
    assert (
        '<li>a <em>b</em> <strong>c</strong> <code>d</code> <a href="https://example.com/" rel="noopener">site' in text
    )
    assert '<div class="rules-table" role="region" aria-label="Table (rank, bugs)" tabindex="0">' in text
    assert '<th scope="col">rank</th><th scope="col">bugs</th>' in text and "<td><strong>2</strong></td>" in text
    assert "<pre><code>J  6  2</code></pre>" in text and 'href="#one"' in text


PLAYER_SECTIONS = ["how-to-play", "how-to-score", "decisions-we-made-where-the-original-rules-are-silent"]
DEVELOPER_WORDS = ("PUBLIC_FIELDS", "state_from_view", '{"type"', "options[", "IllegalAction", "determinize", "seat 0")


@pytest.mark.parametrize("game", game_names())
def test_each_rules_page_speaks_to_players_first_and_ends_with_our_decisions(game: str) -> None:
    page = rules_page(game)
    assert page is not None
    sections = [h["id"] for h in page["contents"]]
    assert [s for s in sections if s in PLAYER_SECTIONS] == PLAYER_SECTIONS and sections[-1] == PLAYER_SECTIONS[-1]
    assert sections[0] == "how-to-play"
    decisions = page["blocks"][[b.get("id") for b in page["blocks"]].index(PLAYER_SECTIONS[-1]) + 1]
    assert decisions["kind"] == "list" and len(decisions["items"]) >= 5
    text = Client().get(reverse("games-rules", args=[game])).content.decode()
    assert not [word for word in DEVELOPER_WORDS if escape(word) in text]


@pytest.mark.parametrize("game", game_names())
def test_the_developer_notes_moved_beside_the_rules_where_a_developer_finds_them(game: str) -> None:
    notes = (Path(settings.BASE_DIR) / "docs" / "rules-notes" / f"{game}.md").read_text(encoding="utf-8")
    assert f"engine/{game}.py" in notes and "state_from_view" in notes and f"../rules/{game}.md" in notes


def test_the_new_match_form_and_the_table_link_the_rules() -> None:
    user = UserFactory()
    form = login(user).get(reverse("games-create"), {"game": "rentz"}).content.decode()
    assert reverse("games-rules", args=["rentz"]) in form
    match = make_match("rentz", users=[user], bots=3)
    table = login(user).get(match.get_absolute_url()).content.decode()
    assert reverse("games-rules", args=["rentz"]) in table


def test_the_karnoffel_table_shows_the_trump_order_of_this_hand() -> None:
    user = UserFactory()
    match = make_match("karnoffel", users=[user], bots=3)
    match.refresh_from_db()
    page = login(user).get(match.get_absolute_url())
    trump = match.engine.view(match.state, 0)["trump"]
    order = page.context["board"]["trump_order"]
    symbol = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[trump]
    assert order[:4] == [f"J{symbol}", f"6{symbol}", f"2{symbol}", f"K{symbol}"] and f"7{symbol}" not in order
    assert "Trumps, highest first: " + " ".join(order) in page.content.decode()


def test_renfield_cards_say_what_they_are_worth() -> None:
    from games.presenters import presenter_for

    presenter = presenter_for("renfield")
    table = get_game_table()
    assert presenter.card_worth("T9", table) == "4 bugs, $2"  # rank 9 of the default deck
    assert presenter.card_worth("S2", table) == "0 bugs, $0"
    assert presenter.card_worth("P0", table) == ""  # a key card is worth nothing
    values = presenter.value_rows(table)
    assert values["suits"] == [] and values["rows"][0] == {"rank": 1, "cells": [(1, 1)]}
    user = UserFactory()
    match = make_match("renfield", users=[user], bots=2)
    text = login(user).get(match.get_absolute_url()).content.decode()
    assert "What each card is worth (bugs and dollars)" in text


def test_renfield_card_values_are_loaded_when_asked_for_and_kept_across_refreshes() -> None:
    """The values never change during a match: not rendered with every refresh, loaded on demand."""
    user = UserFactory()
    match = make_match("renfield", users=[user], bots=2)
    client = login(user)
    url = match.get_absolute_url()
    page = client.get(url).content.decode()
    details = page.split('id="card-values"', 1)[1].split("</details>", 1)[0]
    assert 'hx-preserve="true"' in details and 'hx-trigger="toggle once"' in details
    assert f'hx-get="{url}?values=1"' in details and "<table" not in details  # not rendered until opened
    assert f'href="{url}?values=1#card-values"' in details  # without JavaScript, a page that shows them
    # Opened with htmx: the table alone, the default deck's 1 bug and $1 at rank 1.
    fragment = client.get(url, {"values": "1"}, HTTP_HX_REQUEST="true").content.decode()
    assert fragment.startswith("<table") and '<th scope="row">1</th><td>1</td><td>$1</td>' in fragment
    assert 'id="live"' not in fragment
    # Without JavaScript: the whole page, the details open with the table in them.
    full = client.get(url, {"values": "1"}).content.decode()
    opened = full.split('id="card-values"', 1)[1].split("</details>", 1)[0]
    assert " open>" in opened.split("\n", 1)[0] and "<table" in opened
    # A refresh of the live part carries the empty, preserved shell only.
    live = client.get(reverse("games-poll", args=[match.pk]), {"v": "-1"}, HTTP_HX_REQUEST="true").content.decode()
    assert 'id="card-values"' in live and "<table" not in live.split('id="card-values"', 1)[1].split("</details>")[0]


def test_a_game_without_reference_values_ignores_the_parameter() -> None:
    user = UserFactory()
    match = make_match("karnoffel", users=[user], bots=3)
    response = login(user).get(match.get_absolute_url(), {"values": "1"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and 'id="live"' in response.content.decode()


def get_game_table() -> dict[str, object]:
    from engine import renfield

    return renfield.default_table()
