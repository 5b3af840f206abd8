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


def test_the_raw_html_in_a_rules_file_is_escaped(tmp_path, settings, monkeypatch) -> None:  # noqa: ANN001
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


def get_game_table() -> dict[str, object]:
    from engine import renfield

    return renfield.default_table()
