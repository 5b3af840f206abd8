"""The drawn tags (games_tags): ``{% card face %}``, ``{% cards faces %}`` and ``{% logline line %}``, the markup
of ``templates/games/_card.html``, ``_cards.html`` and ``_log_line.html``, drawn once per value and process.

A tag must give exactly what its template gives for every value (every face of every game, every log line of
played matches as every reader reads them), escaped or not, and a value's markup must be kept only under
that value: a table never shows another card's markup or another line's words.
"""

from __future__ import annotations

import re

import pytest
from django.core.cache import caches
from django.template import Context, engines
from django.test import Client
from django.utils.safestring import mark_safe

from games.models import Move
from games.presenters import presenter_for
from games.presenters.base import BACK
from games.templatetags import games_tags
from tests.accounts.factories import UserFactory
from tests.games.conftest import login
from tests.games.factories import game_names, make_match, play_engine_moves
from tests.games.leaks import card_codes
from tests.games.table_pages import table_page

pytestmark = pytest.mark.django_db

ENGINE = engines["django"].engine
BY_TAG = ENGINE.from_string("{% load games_tags %}{% for face in faces %}{% card face %}|{% endfor %}")
BY_TEMPLATE = ENGINE.from_string('{% for card in faces %}{% include "games/_card.html" %}|{% endfor %}')


def _faces(game: str) -> list[dict]:
    match = make_match(game)
    return [presenter_for(game).card(code) for code in sorted(card_codes(game, match.state))] + [BACK]


@pytest.mark.parametrize("game", game_names())
@pytest.mark.parametrize("autoescape", [True, False])
def test_the_tag_draws_every_face_as_the_card_template_does(game: str, autoescape: bool) -> None:
    faces = _faces(game)
    assert len(faces) > 20
    games_tags._drawn.clear()
    expected = BY_TEMPLATE.render(Context({"faces": faces}, autoescape=autoescape))
    assert BY_TAG.render(Context({"faces": faces}, autoescape=autoescape)) == expected  # drawn
    assert BY_TAG.render(Context({"faces": faces}, autoescape=autoescape)) == expected  # kept
    (kept,) = games_tags._drawn.values()
    assert len(kept) == len({tuple(f.values()) for f in faces})


def test_a_face_is_kept_under_its_own_values_only() -> None:
    game = game_names()[0]
    one, other = _faces(game)[:2]
    games_tags._drawn.clear()
    first = BY_TAG.render(Context({"faces": [one]}))
    second = BY_TAG.render(Context({"faces": [other]}))
    assert first != second and one["code"] in first and other["code"] in second


def test_a_card_template_loaded_anew_is_drawn_anew() -> None:
    """``runserver`` resets the cached loader when a template changes: the old markup must go with it."""
    faces = _faces(game_names()[0])[:3]
    games_tags._drawn.clear()
    BY_TAG.render(Context({"faces": faces}))
    before = ENGINE.get_template(games_tags.CARD_TEMPLATE)
    for loader in ENGINE.template_loaders:
        loader.reset()
    after = ENGINE.get_template(games_tags.CARD_TEMPLATE)
    assert after is not before and after not in games_tags._drawn
    BY_TAG.render(Context({"faces": faces}))
    assert len(games_tags._drawn[after]) == 3


LINES_BY_TAG = ENGINE.from_string("{% load games_tags %}{% for line in lines %}{% logline line %}|{% endfor %}")
LINES_BY_TEMPLATE = ENGINE.from_string('{% for line in lines %}{% include "games/_log_line.html" %}|{% endfor %}')
ROWS_BY_TAG = ENGINE.from_string("{% load games_tags %}{% for row in rows %}{% cards row %}|{% endfor %}")
ROWS_BY_TEMPLATE = ENGINE.from_string('{% for cards in rows %}{% include "games/_cards.html" %}|{% endfor %}')


def _lines(game: str) -> list[dict]:
    """Every line of a played match's log as each seat and a spectator read it, during the match and after."""
    match = play_engine_moves(make_match(game), 0, seed=3, until_over=True)
    presenter, names = presenter_for(game), [s.name for s in match.seats.order_by("number")]
    moves = [_logged(m) for m in match.moves.order_by("ply")]
    readers = [None, *range(match.players)]
    return [
        presenter.log_entry(m, names, reader=r, over=over) for m in moves for r in readers for over in (False, True)
    ]


def _logged(move: Move) -> dict:
    """A move as the log reads it (what the snapshot's log lines hold)."""
    return {"ply": move.ply, "seat": move.seat, "kind": move.kind, "text": move.text, "reasons": move.reasons}


@pytest.mark.parametrize("game", game_names())
@pytest.mark.parametrize("autoescape", [True, False])
def test_the_log_line_tag_draws_every_line_as_its_template_does(game: str, autoescape: bool) -> None:
    lines = _lines(game)
    assert any(line["why"] for line in lines) and any(not line["why"] for line in lines), "the set-up: both kinds"
    assert any(line["summaries"] for line in lines), "the set-up: a hand's summary"
    games_tags._drawn.clear()
    expected = LINES_BY_TEMPLATE.render(Context({"lines": lines}, autoescape=autoescape))
    assert LINES_BY_TAG.render(Context({"lines": lines}, autoescape=autoescape)) == expected  # drawn
    assert LINES_BY_TAG.render(Context({"lines": lines}, autoescape=autoescape)) == expected  # kept
    (kept,) = games_tags._drawn.values()
    assert len(kept) == len({games_tags.drawing_key(line) for line in lines})


def test_a_line_is_kept_under_its_own_values_only() -> None:
    line = {"number": 3, "key": 3, "name": "Ann", "text": "played <b>", "kind": "player", "mine": False, "aside": ""}
    line |= {"why": None, "summaries": None}
    others = [
        line | {"mine": True},
        line | {"text": "played <i>"},
        line | {"why": [{"text": "Ann took the trick.", "summary": ""}]},
        line
        | {"why": [{"text": "Ann took the trick.", "summary": "Hand 1 is over."}], "summaries": ["Hand 1 is over."]},
    ]
    games_tags._drawn.clear()
    drawn = [LINES_BY_TAG.render(Context({"lines": [one]})) for one in [line, *others]]
    assert drawn == [LINES_BY_TEMPLATE.render(Context({"lines": [one]})) for one in [line, *others]]
    assert len(set(drawn)) == len(drawn)
    assert "played &lt;b&gt;" in drawn[0] and "data-mine" in drawn[1] and "Why: Ann took the trick." in drawn[3]
    assert "Hand 1 is over." in drawn[4]


@pytest.mark.parametrize("game", game_names())
def test_the_cards_tag_draws_a_row_of_faces_or_none_as_its_template_does(game: str) -> None:
    faces = _faces(game)
    rows = [faces[:3], faces[3:9], [], faces[:3], [faces[-1]], faces[1:4]]
    games_tags._drawn.clear()
    expected = ROWS_BY_TEMPLATE.render(Context({"rows": rows}))
    assert 'class="empty">none<' in expected
    assert ROWS_BY_TAG.render(Context({"rows": rows})) == expected
    assert ROWS_BY_TAG.render(Context({"rows": rows})) == expected
    kept = games_tags._drawn[ENGINE.get_template(games_tags.CARDS_TEMPLATE)]
    assert len(kept) == 5  # the first row twice, kept once


def test_values_a_template_prints_apart_are_kept_apart() -> None:
    values = (
        1,
        True,
        1.0,
        "1",
        [1],
        [True],
        [1.0],
        {"a": 1},
        {"a": "1"},
        {"a": [1]},
        {"a": [True]},
        [[1]],
        None,
        False,
        0,
    )
    keys = [games_tags.drawing_key(v) for v in values]
    assert len(set(keys)) == len(keys)
    with pytest.raises(TypeError):
        games_tags.drawing_key({"text": mark_safe("<b>")})
    with pytest.raises(TypeError):
        games_tags.drawing_key([object()])


def test_a_string_marked_safe_is_drawn_each_time_and_never_kept() -> None:
    plain = {"number": 1, "key": 1, "name": "Ann", "text": "<b>", "kind": "player", "mine": False, "aside": ""}
    plain |= {"why": None, "summaries": None}
    safe = plain | {"text": mark_safe("<b>")}
    games_tags._drawn.clear()
    assert "<b>" in LINES_BY_TAG.render(Context({"lines": [safe]}))
    assert "&lt;b&gt;" in LINES_BY_TAG.render(Context({"lines": [plain]}))  # not the safe line's markup
    assert "<b>" in LINES_BY_TAG.render(Context({"lines": [safe]}))
    (kept,) = games_tags._drawn.values()
    assert len(kept) == 1


# --- the drawn blocks on the table's pages ---------------------------------------------------------------

TOKENS = re.compile(r"[A-Za-z0-9]{64}")  # the CSRF tokens, masked anew for every request (and the deal's hash)


def _page(client: Client, match) -> str:
    caches["template_fragments"].clear()  # every page rendered, none taken from the page cache
    return TOKENS.sub("-", table_page(client, match))


@pytest.mark.parametrize("game", game_names())
def test_every_drawn_block_shows_what_the_whole_page_would_show(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each ``{% drawn %}`` block is drawn from the values it names alone, and kept: on every table page of a
    match played through, read by every seat and a spectator, it must show exactly what it shows when drawn
    each time in the page's whole context (``DRAW_ONCE`` off), kept drawings of earlier pages included."""
    match = make_match(game)
    readers = [login(s.user) for s in match.seats.select_related("user").order_by("number")]
    readers.append(login(UserFactory()))
    games_tags._drawn.clear()
    pages = 0
    while True:
        for client in readers:
            monkeypatch.setattr(games_tags, "DRAW_ONCE", True)
            once = _page(client, match)
            monkeypatch.setattr(games_tags, "DRAW_ONCE", False)
            assert once == _page(client, match)
            pages += 1
        if match.is_over:
            break
        play_engine_moves(match, 7, seed=pages)
    assert pages > 20, "the set-up: a match played through, page after page"
