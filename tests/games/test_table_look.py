"""The drawn table's data, without a browser: where each seat sits, what a card is called, how a card is split."""

from __future__ import annotations

import pytest

from games.presenters import presenter_for
from games.presenters.base import card_parts, card_words, seat_places


def test_it_seats_the_reader_at_the_bottom_and_the_next_seat_on_their_left() -> None:
    assert seat_places(4, 2) == ["n", "e", "s", "w"]
    assert seat_places(4, 0) == ["s", "w", "n", "e"]
    assert seat_places(3, 1) == ["ne", "s", "nw"]


def test_it_seats_a_spectator_as_the_first_seat_would_sit() -> None:
    assert seat_places(4, None) == seat_places(4, 0)
    assert seat_places(5, 9) == seat_places(5, 0)


@pytest.mark.parametrize("players", range(1, 9))
def test_it_gives_every_seat_a_place_of_its_own(players: int) -> None:
    for reader in range(players):
        places = seat_places(players, reader)
        assert len(places) == players and len(set(places)) == players and places[reader] == "s"


@pytest.mark.parametrize(
    ("code", "words"),
    [("QD", "queen of diamonds"), ("TH", "10 of hearts"), ("AS", "ace of spades"), ("7C", "7 of clubs")],
)
def test_it_names_a_french_card_in_words(code: str, words: str) -> None:
    assert card_words(code) == words
    assert presenter_for("rentz").card(code)["name"] == words


@pytest.mark.parametrize("code", ["T5", "S17", "B3", "R-red-1", "hidden", ""])
def test_it_gives_no_other_name_to_a_card_whose_label_reads_as_words(code: str) -> None:
    assert card_words(code) == ""


def test_it_draws_a_word_and_number_card_as_its_suit_mark_over_its_rank() -> None:
    face = presenter_for("renfield").card("S12")
    assert (face["text"], face["mark"], face["rank"], face["name"]) == ("Stones 12", "Stones", "12", "")
    assert card_parts("Rapscallion (red)") == ("", "")
    assert card_parts("Q♦") == ("", "")
