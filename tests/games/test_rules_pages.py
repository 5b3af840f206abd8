"""The rules at hand: a page per game from the project's own rules, linked from the form and the table."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

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


def test_the_raw_html_in_a_rules_file_is_escaped(tmp_path, settings, monkeypatch) -> None:
    from games import rules

    (tmp_path / "karnoffel.md").write_text("# K\n\nA <script>alert(1)</script> here.\n", encoding="utf-8")
    monkeypatch.setattr(rules, "RULES_DIR", tmp_path)
    rules.rules_page.cache_clear()
    try:
        text = Client().get(reverse("games-rules", args=["karnoffel"])).content.decode()
    finally:
        rules.rules_page.cache_clear()
    assert "<script>alert" not in text and "&lt;script&gt;" in text


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
