"""Each game's table reads like a table: names, scores, the trick, and moves that say what they do; the page
shell around it, and a shared layer that names no game (so that a fifth game needs only its presenter).

The pages are rendered through the real views at several points of a match
(the start, a hand under way, just after a hand, the end), for the seat to act
and for a spectator, and checked for the information a player needs and for
the raw dumps the old generic table showed ("Dealer 0", "king_of_hearts"). What only one game's table
shows is in test_table_games.py.
"""

from __future__ import annotations

import ast
import html as html_lib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.urls import reverse

from games.models import Match
from games.presenters import money_text, ordinal, presenter_for
from tests.games.conftest import login
from tests.games.factories import UserFactory, game_names, make_match, play_engine_moves, quick_options
from tests.games.table_pages import advance_until, page_text, reader_of, seat_names, table_page

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
# What the old generic table printed and a player should never read.
RAW = re.compile(
    r"Dealer \d|Leader \d|Hand no|\bLacks\b|king_of_hearts|\bacool\b|leader: \d|winner: \d|"
    r"\bside_bet\b|\bround_kind\b|bidding_values|Everything else on the table"
)


# --- what every table shows ---------------------------------------------------


def _check_common(match: Match, page: str, seat: int | None) -> None:
    """Names, scores, no raw dumps; for a seat, its hand and every legal move, labelled."""
    text = page_text(page)
    view = match.engine.view(match.state, seat)
    for name in seat_names(match):
        assert name in text
    for number, score in enumerate(view["scores"]):
        shown = money_text(score) if match.game == "renfield" else str(score)
        assert re.search(rf'class="score"[^>]*>\s*(<span[^>]*>)?{re.escape(shown)}<', page), (
            f"seat {number}'s score {shown}"
        )
    assert not RAW.search(text), f"{match.game}: raw view data on the page: {RAW.search(text).group(0)!r}"
    if seat is None:
        assert 'name="action"' not in page and "you are watching" in text
        return
    for code in view["hand"]:
        assert f'data-card="{code}"' in page
    _check_moves(match, page, seat, view)


def _check_moves(match: Match, page: str, seat: int, view: dict[str, Any]) -> None:
    legal = match.engine.legal_actions(match.state, seat) if not match.is_over else []
    labels = {presenter_for(match.game).action_label(a, view) for a in legal}
    for action in legal:
        value = html_lib.escape(json.dumps(action, sort_keys=True, separators=(",", ":")))
        label = presenter_for(match.game).action_label(action, view)
        assert value in page or label in labels, f"{match.game}: the move {action} is not offered"
        assert "{" not in label and "_" not in label, f"{match.game}: the move {action} reads {label!r}"
    assert ("<h2>Your move</h2>" in page) == bool(legal)


# --- every game, at several points, for a seat and a spectator -----------------

POINTS = {
    "start": lambda m: True,
    "mid-hand": lambda m: m.version >= 3,
    "next hand": lambda m: m.engine.hand_index(m.state) >= 1,
}


@pytest.mark.parametrize("game", game_names())
@pytest.mark.parametrize("point", sorted(POINTS))
def test_it_shows_the_table_to_the_seat_to_act_and_to_a_spectator(game: str, point: str) -> None:
    match = advance_until(make_match(game), POINTS[point])
    seat, client = reader_of(match)
    _check_common(match, table_page(client, match), seat)
    _check_common(match, table_page(login(UserFactory()), match), None)


@pytest.mark.parametrize("game", [g for g in game_names() if g != "rapscallion"])  # no tricks: see its centre row
def test_it_shows_the_trick_with_who_played_what(game: str) -> None:
    match = advance_until(make_match(game), lambda m: len(m.engine.view(m.state, None).get("trick") or []) >= 2)
    text = page_text(table_page(login(UserFactory()), match))
    names = seat_names(match)
    for play in match.engine.view(match.state, None)["trick"]:
        label = presenter_for(game).short_text(play["card"])
        assert f"{names[play['seat']]} {label}" in text, f"{game}: the trick should show {names[play['seat']]} {label}"


@pytest.mark.parametrize("game", game_names())
def test_a_finished_table_says_who_won_and_shows_the_seed_in_the_live_part(game: str) -> None:
    match = make_match(game, options=quick_options(game))
    play_engine_moves(match, 0, until_over=True)
    match.refresh_from_db()
    places = match.outcome["places"]
    for number, client in ((0, login(match.seats.get(number=0).user)), (None, login(UserFactory()))):
        live = client.get(reverse("games-poll", args=[match.pk]), {"v": -1}, **HTMX).content.decode()
        text = page_text("<article>" + live + "</article>")
        assert "The match is over." in text and "Finished" in text and str(match.seed) in text
        assert "The seed is shown when the match ends" not in text
        assert (
            presenter_for(game).result_line(match.engine.view(match.state, number), number, seat_names(match)) in text
        )
        _check_common(match, table_page(client, match), number)
    expected = "Your team" if game == "karnoffel" else ("You won" if places[0] == 1 else "You came")
    assert expected in page_text(table_page(login(match.seats.get(number=0).user), match))


# --- the result line ------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "places", "seat", "line"),
    [
        ("rentz", [1, 2, 3, 4], 0, "You won (1st of 4)."),
        ("rentz", [2, 1, 3, 4], 0, "You came 2nd of 4."),
        ("rentz", [3, 1, 4, 2], 0, "You came 3rd of 4."),
        ("rentz", [1, 1, 3], 1, "You won (shared) (1st of 3)."),
        ("rentz", [2, 1, 3], None, "Won by B."),
        # Karnoffel is won and lost by teams: the reader's team, not a shared place.
        ("karnoffel", [1, 2, 1, 2], 2, "Your team won."),
        ("karnoffel", [1, 2, 1, 2], 3, "Your team lost."),
        ("karnoffel", [2, 1, 2, 1], None, "Shared win: B & D."),
    ],
)
def test_the_result_line_speaks_to_the_reader(game: str, places: list[int], seat: int | None, line: str) -> None:
    view = {"outcome": {"places": places, "scores": [0] * len(places)}}
    assert presenter_for(game).result_line(view, seat, ["A", "B", "C", "D"][: len(places)]) == line


def test_ordinals_read_as_spoken() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23)] == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
        "23rd",
    ]


# --- the page shell -----------------------------------------------------------------


def test_the_live_part_holds_the_header_and_the_footer() -> None:
    match = make_match(game_names()[0])
    seat, client = reader_of(match)
    live = client.get(reverse("games-poll", args=[match.pk]), {"v": -1}, **HTMX).content.decode()
    assert 'class="match-head"' in live and "In play" in live and 'class="fair-deal"' in live
    assert 'class="main-col"' in live and 'class="side-col"' in live


def test_every_page_links_a_favicon_that_exists() -> None:
    page = login(UserFactory()).get(reverse("games-dashboard")).content.decode()
    assert re.search(r'<link rel="icon" href="[^"]*favicon\.svg"', page)
    assert (Path(settings.BASE_DIR) / "static" / "favicon.svg").read_text().startswith("<svg")


def test_the_footer_breaks_only_the_hash_not_the_words() -> None:
    css = (Path(settings.BASE_DIR) / "static" / "css" / "games.css").read_text()
    rules = dict(re.findall(r"([^{}]+)\{([^}]*)\}", css))
    breaking = [sel.strip() for sel, body in rules.items() if "break-all" in body]
    assert breaking == [".fair-deal code"]


def test_the_raw_dump_check_catches_the_old_generic_table() -> None:
    """A control for RAW: the old generic table's output is caught."""
    assert RAW.search(page_text("<article><dt>Dealer</dt> Dealer 0 Lacks king_of_hearts</article>"))


def test_the_move_sits_right_under_the_board_and_above_the_log() -> None:
    match = advance_until(make_match("karnoffel"), lambda m: bool(m.engine.view(m.state, None)["trick"]))
    seat, client = reader_of(match)
    page = table_page(client, match)
    assert page.index('class="seats"') < page.index('class="trick"') < page.index('id="turn-panel"')
    assert page.index('id="turn-panel"') < page.index('class="table-area details-area"') < page.index('class="log"')


@pytest.mark.parametrize("game", game_names())
def test_log_lines_start_with_the_player_and_read_as_words(game: str) -> None:
    match = make_match(game)
    play_engine_moves(match, 60, seed=4)
    page = table_page(login(UserFactory()), match)
    names = seat_names(match)
    lines = re.findall(r'<li value="\d+" data-key="\d+" class="kind-\w+"[^>]*><b>([^<]*)</b> ([^<]*)', page)
    assert len(lines) == len(match.recent_moves)
    # Newest first: the latest moves are in sight without scrolling.
    for (name, text), move in zip(lines, reversed(match.recent_moves), strict=True):
        assert html_lib.unescape(name) == names[move["seat"]] and html_lib.unescape(text).strip() == move["text"]
        words = re.findall(r"[\w-]+", move["text"])
        codes = [
            w for w in words if len(w) >= 2 and (w[0].isupper() or w[0].isdigit()) and presenter_for(game).card_text(w)
        ]
        assert move["text"][:1].islower() and not codes and "_" not in move["text"], move["text"]


def test_the_replay_shows_the_table_as_the_game_lays_it_out() -> None:
    match = make_match("rentz")
    play_engine_moves(match, 0, until_over=True)
    client = login(match.seats.get(number=0).user)
    page = client.get(reverse("games-replay", args=[match.pk]), {"ply": 3}).content.decode()
    assert "Hand 1 of 20" in page_text("<article>" + page + "</article>") and "view-keys" not in page


def test_a_game_without_a_presenter_of_its_own_gets_the_generic_table(monkeypatch) -> None:
    """A fifth game needs only its own presenter and templates: until then the generic ones show it."""
    import engine
    from games.presenters import Presenter

    monkeypatch.setitem(engine.GAMES, "fifth", engine.GAMES["karnoffel"])
    presenter_for.cache_clear()
    try:
        assert type(presenter_for("fifth")) is Presenter and type(presenter_for("karnoffel")) is not Presenter
        match = make_match("fifth")
        page = table_page(login(UserFactory()), match)
        assert 'class="table generic"' in page and 'class="view-keys"' in page
        for code in match.engine.view(match.state, None)["face_up"]:
            assert f'data-card="{code}"' in page
        seat, client = reader_of(match)
        mine = table_page(client, match)
        assert 'name="action"' in mine and "<h2>Your move</h2>" in mine
        for code in match.engine.view(match.state, seat)["hand"]:
            assert f'data-card="{code}"' in mine
    finally:
        presenter_for.cache_clear()


def test_no_markup_is_built_in_python() -> None:
    """Markup lives in templates: the games app never marks a string safe or formats HTML."""
    root = Path(settings.BASE_DIR) / "games"
    for path in root.rglob("*.py"):
        source = path.read_text()
        for name in ("mark_safe", "format_html", "SafeString", "SafeText"):
            assert name not in source, f"{path.relative_to(root)} uses {name}"


# Words and view keys that belong to one game: the shared layer (the base presenter, the shared templates,
# the turn mail's short view) names none of them, so that a fifth game needs only its presenter and templates.
GAME_NAMES = ("renfield", "rentz", "karnoffel", "rapscallion")
GAME_KEYS = ("bidding_cards", "teams", "mini_title", "showdown")  # a view key, hook or part of one game
SHARED_TEMPLATE_COMMENT = re.compile(r"\{#.*?#\}|\{% comment %\}.*?\{% endcomment %\}", re.S)


def _code_words(path: Path) -> tuple[set[str], set[str]]:
    """The string constants and the names of a Python module, lowercased, without its comments and docstrings."""
    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    strings: set[str] = set()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            strings.add(node.value.lower())
        elif isinstance(node, ast.Name):
            names.add(node.id.lower())
        elif isinstance(node, ast.Attribute):
            names.add(node.attr.lower())
    return strings, names


def test_the_shared_layer_names_no_game() -> None:
    root = Path(settings.BASE_DIR)
    for module in ("games/presenters/base.py", "games/maillinks.py", "games/selectors.py", "games/views.py"):
        strings, names = _code_words(root / module)
        found = [w for w in GAME_NAMES if any(w in word for word in strings | names)]
        found += [k for k in GAME_KEYS if k in strings or k in names - {"teams"}]  # a local "teams" is the team column
        assert not found, f"{module} names {found}"
    # What draws any game's table, log, replay and turn mail (the landing and rules pages describe the games).
    pages = ("match.html", "replay.html", "log.html", "confirm_move.html")
    shared = [
        *(root / "templates/games" / page for page in pages),
        *(root / "templates/games").glob("_*.html"),
        *(root / "templates/games/mail").glob("*"),
    ]
    assert len(shared) > 10 and all(path.exists() for path in shared)
    for path in shared:
        text = SHARED_TEMPLATE_COMMENT.sub("", path.read_text()).lower()
        found = [w for w in (*GAME_NAMES, *GAME_KEYS) if re.search(rf"\b{w}\b", text)]
        assert not found, f"{path.relative_to(root)} names {found}"


def test_the_shared_layer_check_catches_a_game_name(tmp_path: Path) -> None:
    """A control for the check above: a game's key in code is caught, the same word in a comment is not."""
    module = tmp_path / "m.py"
    module.write_text('"""About rapscallion."""\n# rentz\nx = view.get("bidding_cards") or presenter.mini_title\n')
    strings, names = _code_words(module)
    assert "bidding_cards" in strings and "mini_title" in names
    assert not any("rentz" in w or "rapscallion" in w for w in strings | names)
