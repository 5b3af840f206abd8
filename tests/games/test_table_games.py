"""What only one game's table shows: Rentz's games and layout rows, Renfield's bids, debts, variants and
wild cards, Rapscallion's side bets, face-down centre card, revealed bids and bidding cards; a hand's
unplayable cards greyed. The page is rendered through the real views, for a player and a watcher."""

from __future__ import annotations

import re

import pytest

from games.models import Match
from games.presenters import presenter_for
from tests.games.conftest import login
from tests.games.factories import UserFactory, make_match
from tests.games.table_pages import advance_until, page_text, reader_of, seat_names, table_page

pytestmark = pytest.mark.django_db


# --- Rentz -------------------------------------------------------------------------


def test_rentz_names_the_games_and_counts_hands_from_one() -> None:
    match = make_match("rentz")
    seat, client = reader_of(match)
    page = table_page(client, match)
    text = page_text(page)
    assert "Hand 1 of 20" in text and "is choosing the game" in text
    for title in ("Acool", "Diamonds", "King of Hearts", "Queens", "Rentz"):
        assert re.search(rf'<button[^>]*name="action"[^>]*>{title}</button>', page), f"a button to choose {title}"


def test_rentz_layout_rows_show_every_card_laid() -> None:
    match = make_match("rentz")
    dealer, client = reader_of(match)
    from games.services import move_submit

    move_submit(
        match=match,
        user=match.seats.get(number=dealer).user,
        seat=dealer,
        action={"type": "choose", "game": "rentz"},
        version=match.version,
    )
    match.refresh_from_db()
    advance_until(
        match,
        lambda m: (
            sum(len(presenter_for("rentz").layout_row(r)) for r in m.engine.view(m.state, None)["layout"].values()) >= 4
        ),
    )
    page = table_page(login(UserFactory()), match)
    layout = page[page.find('class="layout"') : page.find("</table>", page.find('class="layout"'))]
    for row in match.engine.view(match.state, None)["layout"].values():
        for code in presenter_for("rentz").layout_row(row):
            assert f'data-card="{code}"' in layout
    assert "layout_row" not in page and "Hand 1 of 20" in page_text(page) and "playing Rentz" in page_text(page)


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
    advance_until(match, must_follow)
    seat, client = reader_of(match)
    page = table_page(client, match)
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
    seat, client = reader_of(match)
    page = table_page(client, match)
    assert re.search(r"<option value=[^>]*>\$1</option>", page) and re.search(
        r"<option value=[^>]*>\$100</option>", page
    )
    assert re.search(r'<button[^>]*name="action"[^>]*>Pass</button>', page)
    advance_until(match, lambda m: m.state["phase"] == "order", seed=3)
    seat, client = reader_of(match)
    page = table_page(client, match)
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
    page = table_page(login(UserFactory()), match)
    assert page.count('<span class="money debt">-$4</span>') == 2, "in the seat list and in the money table"


def test_renfield_names_the_variant_state_and_only_the_options_that_matter() -> None:
    match = make_match("renfield", options={"auction": True, "wild_cards": True})
    page = page_text(table_page(login(UserFactory()), match))
    offer = match.engine.view(match.state, None)["auction"]["offer"]
    assert f"on offer {presenter_for('renfield').short_text(offer)}" in page
    assert "Rules: stake $100 · Auction · Wild Cards (Tools 1, Parts 1, Stones 1)" in page
    assert "deck_values" not in page and "breathing" not in page.lower()


def test_renfield_draw_betting_moves_say_what_they_cost() -> None:
    match = make_match("renfield", options={"draw": True, "draw_bet": 7})
    advance_until(
        match, lambda m: any(a["type"] == "call" for a in m.engine.legal_actions(m.state, m.engine.to_act(m.state)[0]))
    )
    seat, client = reader_of(match)
    page = table_page(client, match)
    assert re.search(r">Call \$\d+</button>", page) and re.search(r">Fold</button>", page)
    assert "Draw betting: current bet" in page_text(page)


def test_renfield_wild_cards_are_played_through_a_select_of_what_they_count_as() -> None:
    def holds_a_wild_to_play(m: Match) -> bool:
        seats = m.engine.to_act(m.state)
        return bool(seats) and any("suit" in a for a in m.engine.legal_actions(m.state, seats[0]))

    match = advance_until(make_match("renfield", options={"wild_cards": True}), holds_a_wild_to_play, seed=5)
    seat, client = reader_of(match)
    page = table_page(client, match)
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


# --- Rapscallion -----------------------------------------------------------------------


def test_rapscallion_side_bets_are_labelled_and_twin_rapscallions_show_once() -> None:
    match = make_match("rapscallion")
    seat, client = reader_of(match)
    page = table_page(client, match)
    legal = match.engine.legal_actions(match.state, seat)
    numbers = [a["card"][1:] for a in legal if a["card"].startswith("B")]
    for number in numbers:
        assert re.search(
            rf">Side bet: <span class=\"card[^\"]*\" data-card=\"B{number}\">{number}</span></button>", page
        )
    assert page.count(">Side bet: <span") == len(numbers) + 1, "two Rapscallions of one colour make one button"


def test_rapscallion_centre_shows_the_face_down_card_as_a_back() -> None:
    match = advance_until(make_match("rapscallion"), lambda m: "hidden" in m.engine.view(m.state, None)["centre"])
    page = table_page(login(UserFactory()), match)
    centre = page[page.find('class="centre"') : page.find("</section>", page.find('class="centre"'))]
    assert '<span class="card back"' in centre and 'data-card="hidden"' not in page
    face_up = [code for code in match.engine.view(match.state, None)["centre"] if code != "hidden"]
    assert face_up, "the test needs face-up cards beside the face-down one"
    for code in face_up:
        assert f'data-card="{code}"' in centre


def test_rapscallion_bids_after_the_reveal_are_shown() -> None:
    match = advance_until(make_match("rapscallion"), lambda m: bool(m.engine.view(m.state, None)["reveals"]))
    text = page_text(table_page(login(UserFactory()), match))
    names = seat_names(match)
    revealed = [
        (number, code) for number, code in enumerate(match.engine.view(match.state, None)["reveals"][0]) if code
    ]
    assert revealed, "the test needs a reveal with a bid shown"
    for number, code in revealed:
        assert f"{names[number]} {presenter_for('rapscallion').short_text(code)}" in text


def test_a_players_other_cards_show_under_their_games_heading_to_them_only() -> None:
    """Rapscallion's bidding cards (``own_card_sets``): in the reader's own section, never on a watcher's page."""
    match = make_match("rapscallion")
    number, client = reader_of(match)
    mine = match.engine.view(match.state, number)["bidding_cards"]
    assert mine, "a Rapscallion player starts with bidding cards"
    page = table_page(client, match)
    section = page[page.index('<section class="card-set" aria-label="Your bidding cards">') :]
    section = section[: section.index("</section>")]
    assert "<h3>Your bidding cards</h3>" in section
    assert re.findall(r'data-card="([^"]+)"', section) == [
        c for c in mine if not presenter_for("rapscallion").is_back(c)
    ]
    watcher = table_page(login(UserFactory()), match)
    assert 'class="card-set"' not in watcher and "Your bidding cards" not in watcher
    karnoffel = make_match("karnoffel")
    assert 'class="card-set"' not in table_page(reader_of(karnoffel)[1], karnoffel)


@pytest.mark.parametrize(("amount", "words"), [(0, "0 bugs"), (1, "1 bug"), (2, "2 bugs")])
def test_a_blaze_bid_says_bug_for_one_and_bugs_for_more(amount: int, words: str) -> None:
    view = {"phase": "bidding", "options": {"blaze": True}}
    assert presenter_for("renfield").special_label("bid", {"type": "bid", "amount": amount}, view) == words
