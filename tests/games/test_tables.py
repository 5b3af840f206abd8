"""Each game's table reads like a table: names, scores, the trick, and moves that say what they do.

The pages are rendered through the real views at several points of a match
(the start, a hand under way, just after a hand, the end), for the seat to act
and for a spectator, and checked for the information a player needs and for
the raw dumps the old generic table showed ("Dealer 0", "king_of_hearts").
"""

from __future__ import annotations

import ast
import html as html_lib
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.urls import reverse

from games.models import Match
from games.presenters import money_text, ordinal, presenter_for
from tests.games.conftest import login
from tests.games.factories import UserFactory, game_names, make_match, play_engine_moves, quick_options

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
# What the old generic table printed and a player should never read.
RAW = re.compile(
    r"Dealer \d|Leader \d|Hand no|\bLacks\b|king_of_hearts|\bacool\b|leader: \d|winner: \d|"
    r"\bside_bet\b|\bround_kind\b|bidding_values|Everything else on the table"
)


# --- helpers ---------------------------------------------------------------


def _text(page: str) -> str:
    """The page as a reader sees it: tags stripped, entities decoded, spaces collapsed."""
    body = page[page.find("<article") : page.find("</article>")]
    return re.sub(r"\s+", " ", html_lib.unescape(re.sub(r"<[^>]+>", " ", body)))


def _advance(match: Match, until: Callable[[Match], bool], *, limit: int = 400, seed: int = 0) -> Match:
    """Random legal moves, one at a time, until ``until(match)`` holds."""
    for step in range(limit):
        if until(match) or match.is_over:
            break
        play_engine_moves(match, 1, seed=seed * 1000 + step)
    assert until(match), "the match never reached the state this test needs"
    return match


def _reader(match: Match) -> tuple[int, Any]:
    """The seat to act (the first if several) and a client logged in as its player."""
    number = match.engine.to_act(match.state)[0]
    seat = match.seats.select_related("user").get(number=number)
    return number, login(seat.user)


def _names(match: Match) -> list[str]:
    return [s.name for s in match.seats.order_by("number")]


def _page(client: Any, match: Match) -> str:
    response = client.get(match.get_absolute_url())
    assert response.status_code == 200
    return response.content.decode()


def _check_common(match: Match, page: str, seat: int | None) -> None:
    """Names, scores, no raw dumps; for a seat, its hand and every legal move, labelled."""
    text = _text(page)
    view = match.engine.view(match.state, seat)
    for name in _names(match):
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
    match = _advance(make_match(game), POINTS[point])
    seat, client = _reader(match)
    _check_common(match, _page(client, match), seat)
    _check_common(match, _page(login(UserFactory()), match), None)


@pytest.mark.parametrize("game", [g for g in game_names() if g != "rapscallion"])  # no tricks: see its centre row
def test_it_shows_the_trick_with_who_played_what(game: str) -> None:
    match = _advance(make_match(game), lambda m: len(m.engine.view(m.state, None).get("trick") or []) >= 2)
    text = _text(_page(login(UserFactory()), match))
    names = _names(match)
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
        text = _text("<article>" + live + "</article>")
        assert "The match is over." in text and "Finished" in text and str(match.seed) in text
        assert "The seed is shown when the match ends" not in text
        assert presenter_for(game).result_line(match.engine.view(match.state, number), number, _names(match)) in text
        _check_common(match, _page(client, match), number)
    expected = "Your team" if game == "karnoffel" else ("You won" if places[0] == 1 else "You came")
    assert expected in _text(_page(login(match.seats.get(number=0).user), match))


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


# --- Rentz -------------------------------------------------------------------------


def test_rentz_names_the_games_and_counts_hands_from_one() -> None:
    match = make_match("rentz")
    seat, client = _reader(match)
    page = _page(client, match)
    text = _text(page)
    assert "Hand 1 of 20" in text and "is choosing the game" in text
    for title in ("Acool", "Diamonds", "King of Hearts", "Queens", "Rentz"):
        assert re.search(rf'<button[^>]*name="action"[^>]*>{title}</button>', page), f"a button to choose {title}"


def test_rentz_layout_rows_show_every_card_laid() -> None:
    match = make_match("rentz")
    dealer, client = _reader(match)
    from games.services import move_submit

    move_submit(
        match=match,
        user=match.seats.get(number=dealer).user,
        seat=dealer,
        action={"type": "choose", "game": "rentz"},
        version=match.version,
    )
    match.refresh_from_db()
    _advance(
        match,
        lambda m: (
            sum(len(presenter_for("rentz").layout_row(r)) for r in m.engine.view(m.state, None)["layout"].values()) >= 4
        ),
    )
    page = _page(login(UserFactory()), match)
    layout = page[page.find('class="layout"') : page.find("</table>", page.find('class="layout"'))]
    for row in match.engine.view(match.state, None)["layout"].values():
        for code in presenter_for("rentz").layout_row(row):
            assert f'data-card="{code}"' in layout
    assert "layout_row" not in page and "Hand 1 of 20" in _text(page) and "playing Rentz" in _text(page)


def test_unplayable_cards_are_greyed_in_the_hand_and_playable_ones_are_buttons() -> None:
    def must_follow(m: Match) -> bool:
        if m.is_over or not m.engine.view(m.state, None).get("trick"):
            return False
        seat = m.engine.to_act(m.state)[0]
        legal = m.engine.legal_actions(m.state, seat)
        return all(a["type"] == "play" for a in legal) and len(legal) < len(m.engine.view(m.state, seat)["hand"])

    match = make_match("rentz")
    from games.services import move_submit

    move_submit(
        match=match,
        user=match.seats.get(number=0).user,
        seat=0,
        action={"type": "choose", "game": "queens"},
        version=match.version,
    )
    match.refresh_from_db()
    _advance(match, must_follow)
    seat, client = _reader(match)
    page = _page(client, match)
    legal = {a["card"] for a in match.engine.legal_actions(match.state, seat)}
    hand = match.engine.view(match.state, seat)["hand"]
    buttons = re.findall(
        r'<button[^>]*class="action card-button"[^>]*>\s*<span class="card[^"]*" data-card="(\w+)"', page
    )
    greyed = re.findall(r'<span class="unplayable"[^>]*>\s*<span class="card[^"]*" data-card="(\w+)"', page)
    assert buttons == [c for c in hand if c in legal], "the playable cards are buttons, in hand order"
    assert greyed == [c for c in hand if c not in legal], "the others are shown greyed"


# --- Renfield --------------------------------------------------------------------


def test_renfield_bids_from_a_select_and_orders_suits_in_words() -> None:
    match = make_match("renfield")
    seat, client = _reader(match)
    page = _page(client, match)
    assert re.search(r"<option value=[^>]*>\$1</option>", page) and re.search(
        r"<option value=[^>]*>\$100</option>", page
    )
    assert re.search(r'<button[^>]*name="action"[^>]*>Pass</button>', page)
    _advance(match, lambda m: m.state["phase"] == "order", seed=3)
    seat, client = _reader(match)
    page = _page(client, match)
    for order in ("Tools &gt; Stones &gt; Parts", "Stones &gt; Parts &gt; Tools"):
        assert re.search(rf"<option value=[^>]*>{order}</option>", page)
    assert "Suit order, highest first" in page


def test_renfield_shows_a_debt_in_red_with_a_minus() -> None:
    """With a $1 stake and every seat passing, the dealer takes the lead for $5 and owes $4."""
    match = make_match("renfield", options={"stake": 1})
    from games.services import move_submit

    while match.state["phase"] == "bidding":
        number = match.engine.to_act(match.state)[0]
        move_submit(
            match=match,
            user=match.seats.get(number=number).user,
            seat=number,
            action={"type": "pass"},
            version=match.version,
        )
        match.refresh_from_db()
    assert match.state["money"][0] == -4
    page = _page(login(UserFactory()), match)
    assert page.count('<span class="money debt">-$4</span>') == 2, "in the seat list and in the money table"


def test_renfield_names_the_variant_state_and_only_the_options_that_matter() -> None:
    match = make_match("renfield", options={"auction": True, "wild_cards": True})
    page = _text(_page(login(UserFactory()), match))
    offer = match.engine.view(match.state, None)["auction"]["offer"]
    assert f"on offer {presenter_for('renfield').short_text(offer)}" in page
    assert "Rules: stake $100 · Auction · Wild Cards (Tools 1, Parts 1, Stones 1)" in page
    assert "deck_values" not in page and "breathing" not in page.lower()


def test_renfield_draw_betting_moves_say_what_they_cost() -> None:
    match = make_match("renfield", options={"draw": True, "draw_bet": 7})
    _advance(
        match, lambda m: any(a["type"] == "call" for a in m.engine.legal_actions(m.state, m.engine.to_act(m.state)[0]))
    )
    seat, client = _reader(match)
    page = _page(client, match)
    assert re.search(r">Call \$\d+</button>", page) and re.search(r">Fold</button>", page)
    assert "Draw betting: current bet" in _text(page)


# --- Rapscallion -----------------------------------------------------------------------


def test_rapscallion_side_bets_are_labelled_and_twin_rapscallions_show_once() -> None:
    match = make_match("rapscallion")
    seat, client = _reader(match)
    page = _page(client, match)
    legal = match.engine.legal_actions(match.state, seat)
    numbers = [a["card"][1:] for a in legal if a["card"].startswith("B")]
    for number in numbers:
        assert re.search(
            rf">Side bet: <span class=\"card[^\"]*\" data-card=\"B{number}\">{number}</span></button>", page
        )
    assert page.count(">Side bet: <span") == len(numbers) + 1, "two Rapscallions of one colour make one button"


def test_rapscallion_centre_shows_the_face_down_card_as_a_back() -> None:
    match = _advance(make_match("rapscallion"), lambda m: "hidden" in m.engine.view(m.state, None)["centre"])
    page = _page(login(UserFactory()), match)
    centre = page[page.find('class="centre"') : page.find("</section>", page.find('class="centre"'))]
    assert '<span class="card back"' in centre and 'data-card="hidden"' not in page
    face_up = [code for code in match.engine.view(match.state, None)["centre"] if code != "hidden"]
    assert face_up, "the test needs face-up cards beside the face-down one"
    for code in face_up:
        assert f'data-card="{code}"' in centre


def test_rapscallion_bids_after_the_reveal_are_shown() -> None:
    match = _advance(make_match("rapscallion"), lambda m: bool(m.engine.view(m.state, None)["reveals"]))
    text = _text(_page(login(UserFactory()), match))
    names = _names(match)
    revealed = [
        (number, code) for number, code in enumerate(match.engine.view(match.state, None)["reveals"][0]) if code
    ]
    assert revealed, "the test needs a reveal with a bid shown"
    for number, code in revealed:
        assert f"{names[number]} {presenter_for('rapscallion').short_text(code)}" in text


# --- the page shell -----------------------------------------------------------------


def test_the_live_part_holds_the_header_and_the_footer() -> None:
    match = make_match(game_names()[0])
    seat, client = _reader(match)
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
    assert RAW.search(_text("<article><dt>Dealer</dt> Dealer 0 Lacks king_of_hearts</article>"))


def test_renfield_wild_cards_are_played_through_a_select_of_what_they_count_as() -> None:
    def holds_a_wild_to_play(m: Match) -> bool:
        seats = m.engine.to_act(m.state)
        return bool(seats) and any("suit" in a for a in m.engine.legal_actions(m.state, seats[0]))

    match = _advance(make_match("renfield", options={"wild_cards": True}), holds_a_wild_to_play, seed=5)
    seat, client = _reader(match)
    page = _page(client, match)
    declared = next(a for a in match.engine.legal_actions(match.state, seat) if "suit" in a)
    wild = declared["card"]
    label = presenter_for("renfield").card_text(wild)
    # What the wild may count as depends on the deal (it must follow a led suit it can follow),
    # so check the declaration the engine actually offers.
    counts_as = match.engine.card_label(f"{declared['suit']}{declared['rank']}")
    assert re.search(rf'<span class="wild"[^>]*><span class="card[^"]*" data-card="{wild}">', page), (
        "marked wild in the hand"
    )
    assert f"Play {label} (wild)" in page
    assert re.search(rf"<option value=[^>]*>as {counts_as}</option>", page), counts_as


def test_the_move_sits_right_under_the_board_and_above_the_log() -> None:
    match = _advance(make_match("karnoffel"), lambda m: bool(m.engine.view(m.state, None)["trick"]))
    seat, client = _reader(match)
    page = _page(client, match)
    assert page.index('class="seats"') < page.index('class="trick"') < page.index('id="turn-panel"')
    assert page.index('id="turn-panel"') < page.index('class="table-area details-area"') < page.index('class="log"')


@pytest.mark.parametrize("game", game_names())
def test_log_lines_start_with_the_player_and_read_as_words(game: str) -> None:
    match = make_match(game)
    play_engine_moves(match, 60, seed=4)
    page = _page(login(UserFactory()), match)
    names = _names(match)
    lines = re.findall(r'<li value="\d+" data-key="\d+" class="kind-\w+"[^>]*><b>([^<]*)</b> ([^<]*)', page)
    assert len(lines) == len(match.recent_moves)
    # Newest first (issue 13): the latest moves are in sight without scrolling.
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
    assert "Hand 1 of 20" in _text("<article>" + page + "</article>") and "view-keys" not in page


def test_a_game_without_a_presenter_of_its_own_gets_the_generic_table(monkeypatch) -> None:  # noqa: ANN001
    """A fifth game needs only its own presenter and templates: until then the generic ones show it."""
    import engine
    from games.presenters import Presenter

    monkeypatch.setitem(engine.GAMES, "fifth", engine.GAMES["karnoffel"])
    presenter_for.cache_clear()
    try:
        assert type(presenter_for("fifth")) is Presenter and type(presenter_for("karnoffel")) is not Presenter
        match = make_match("fifth")
        page = _page(login(UserFactory()), match)
        assert 'class="table generic"' in page and 'class="view-keys"' in page
        for code in match.engine.view(match.state, None)["face_up"]:
            assert f'data-card="{code}"' in page
        seat, client = _reader(match)
        mine = _page(client, match)
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


def test_a_players_other_cards_show_under_their_games_heading_to_them_only() -> None:
    """Rapscallion's bidding cards (``own_card_sets``): in the reader's own section, never on a watcher's page."""
    match = make_match("rapscallion")
    number, client = _reader(match)
    mine = match.engine.view(match.state, number)["bidding_cards"]
    assert mine, "a Rapscallion player starts with bidding cards"
    page = _page(client, match)
    section = page[page.index('<section class="card-set" aria-label="Your bidding cards">') :]
    section = section[: section.index("</section>")]
    assert "<h3>Your bidding cards</h3>" in section
    assert re.findall(r'data-card="([^"]+)"', section) == [
        c for c in mine if not presenter_for("rapscallion").is_back(c)
    ]
    watcher = _page(login(UserFactory()), match)
    assert 'class="card-set"' not in watcher and "Your bidding cards" not in watcher
    karnoffel = make_match("karnoffel")
    assert 'class="card-set"' not in _page(_reader(karnoffel)[1], karnoffel)
