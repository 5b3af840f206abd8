"""The "why" sentences of Renfield and Rapscallion: one per rule id, from the reasons of real engine states
(stacked decks and crafted showdowns), naming cards by their labels and seats by name; and the table's lines
from the view alone."""

from __future__ import annotations

import pytest

from engine import rapscallion as R
from engine import renfield as game
from games.presenters import presenter_for
from tests.engine.helpers_why import of, renfield_case, reveal, showdown

NAMES = ["Ann", "Bob", "Cat"]
TWO_PAIRS = [["KS", "KH", "9D", "9C", "AS", "4D", "3C", "6H"], ["7H", "7D", "2S", "2D", "8D", "JC", "5C", "4S"]]
SAME_RANKS = [["AS", "KS", "QH", "JD", "9C", "2C", "3D", "5H"], ["AH", "KH", "QD", "JC", "9S", "2D", "3H", "5C"]]


def renfield_text(reason: dict) -> str:
    return presenter_for("renfield").reason_text(reason, NAMES)


def rapscallion_text(reason: dict) -> str:
    return presenter_for("rapscallion").reason_text(reason, NAMES)


@pytest.mark.parametrize(
    ("rule", "words"),
    [
        ("highest_of_led_suit", "Ann's Tools 17 took the trick: no card of a higher suit than the led Tools"),
        ("higher_suit", "Bob's Tools 5 took the trick: Tools ranks above the led suit (Parts) in the order"),
        ("equal_card_earlier", "Ann's Parts 9 took the trick: it equals a card played after it"),
        ("wild", "Bob's Tools 1 (played as Parts 17) took the trick"),
        ("highest_rank", "Bob's Parts 9 took the trick: in Flatline only rank counts, so the highest rank won"),
        ("equal_rank_later", "Cat's Stones 9 took the trick: in Flatline only rank counts, and a tie goes to the"),
        ("zero_led", "Cat's Tools 1 took the trick: a zero was led, so Tools was high for this trick"),
        ("death_card", "Nobody took the trick: it held the Death card Stones 7, so its cards leave the game"),
        ("last_seat_in", "Bob's Tools 1 took the trick: Bob is the last player still in"),
    ],
)
def test_it_says_which_card_took_a_renfield_trick_and_by_which_rule(rule: str, words: str) -> None:
    state, found = renfield_case(rule)
    text = renfield_text(of(found, "trick")[-1] if rule != "last_seat_in" else of(found, "trick")[0])
    assert text.startswith(words), text
    assert "T17" not in text and text.endswith(".")


def test_it_says_what_a_renfield_trick_cost_and_that_the_two_doubled_it() -> None:
    state, found = renfield_case("higher_suit")
    assert renfield_text(found[-1]).endswith("; it cost $14 (doubled by the 2) and 5 bugs.")


@pytest.mark.parametrize(
    ("rule", "words"),
    [
        ("fewest_bugs", "Bob won the $"),
        ("split_pot", "Bob & Cat tied with the fewest bugs (3 bugs) and split the $23 pot, $11 each; $1 stays"),
        ("no_bugs", "Nobody still in the hand took a bug, so nobody won it and the $23 pot stays."),
        ("blaze_made", "Ann bid 12 bugs and took 12 bugs, so they won the $21 pot"),
        ("blaze_failed", "Ann bid 1 bug but did not take that many while still in (0 bugs), so they matched"),
    ],
)
def test_it_says_why_a_renfield_hand_paid_what_it_did(rule: str, words: str) -> None:
    state, found = renfield_case(rule)
    text = renfield_text(of(found, "hand")[0])
    assert text.startswith(words), text


def test_it_says_seats_folded_and_sat_out_in_a_blaze_hand() -> None:
    state, found = renfield_case("blaze_failed")
    folded = [renfield_text(r) for r in of(found, "folded")]
    assert folded[0].startswith("Bob folded and could not win the pot: ")
    assert folded[0].endswith("; in Blaze they sit out until someone wins the pot.")
    assert [renfield_text(r) for r in of(found, "sat_out")] == [
        f"{name} sat the hand out: they folded in a Blaze hand that failed, and sit out until someone wins the pot."
        for name in ("Bob", "Cat")
    ]


def test_it_says_who_bought_out_of_a_trick_and_how_the_match_ended() -> None:
    state, found = renfield_case("buying_the_trick")
    assert renfield_text(found[0]) == (
        "Bob had no bugs and bought out of the trick: paid $5 for the cards in it (Tools 17) and folded."
    )
    state, found = renfield_case("fewest_bugs")
    money = game.outcome(state)["scores"]
    first = max(range(3), key=money.__getitem__)
    assert renfield_text(of(found, "match")[0]).startswith(
        f"The match is over after 1 hands and places go by money: {NAMES[first]} finished first"
    )


def test_it_shows_the_last_renfield_trick_then_the_last_hand_at_the_table() -> None:
    presenter = presenter_for("renfield")
    state, found = renfield_case("higher_suit")
    assert presenter.table_reasons(game.view(state, 2), NAMES) == [renfield_text(found[-1])]
    state, found = renfield_case("blaze_failed")
    view = game.view(state, 0)
    lines = presenter.table_reasons(view, NAMES)  # the match is over: the last trick, hand and the match
    assert lines[0] == renfield_text(of(found, "trick")[-1]) and lines[1] == renfield_text(of(found, "hand")[1])
    assert lines[2:4] == [renfield_text(r) for r in of(found, "sat_out")]
    assert lines[4:] == [renfield_text(of(found, "match")[0])]
    old = {
        **view,
        "history": [{k: v for k, v in h.items() if k != "reason"} for h in view["history"]],
        "tricks": [{k: v for k, v in t.items() if k != "reason"} for t in view["tricks"]],
    }
    assert presenter.table_reasons(old, NAMES) == []  # stored before the reasons


def test_it_says_each_rapscallion_showdown_hands_category_and_every_item() -> None:
    state, found = showdown(TWO_PAIRS, ["B1", "B20"], [["R-red-1", "R-red-2"], []])
    first, second = (rapscallion_text(r) for r in of(found, "showdown"))
    assert first == (
        "Ann's two pair (K♠ K♥ 9♦ 9♣ A♠) scores 30: 0 for two pair, +20 for the best hand, "
        "+10 for 2 Rapscallions never played (5 each)."
    )
    assert second == (
        "Bob's two pair (7♥ 7♦ 2♠ 2♦ J♣) scores 5: 0 for two pair, -10 for the worst hand, "
        "+15 for winning the side bet."
    )


def test_it_says_why_a_rapscallion_hand_was_best_worst_or_won_on_suits() -> None:
    state, found = showdown(TWO_PAIRS, ["B1", "B20"], [[], []])
    assert rapscallion_text(of(found, "best_hand")[0]) == (
        "Ann had the best hand, two pair (K♠ K♥ 9♦ 9♣ A♠): it ranks above every other hand, Bob's the nearest; +20."
    )
    assert rapscallion_text(of(found, "worst_hand")[0]).startswith("Bob had the worst hand, two pair")
    state, found = showdown(SAME_RANKS, ["B1", "B7"], [[], []])
    assert "it ties Bob's in rank and wins on the suits" in rapscallion_text(of(found, "best_hand")[0])


@pytest.mark.parametrize(
    ("bets", "words"),
    [
        (["B1", "R-blue-1"], "Bob won the side bet with a lone Rapscallion, which beats every number: +15."),
        (["B7", "B1"], "Ann's 7 was the highest card in the side bet: +15."),
        (["R-red-1", "R-blue-1", "B3"], "The Rapscallions in the side bet cancelled, so Cat's 3, the highest"),
        (["R-red-1", "R-blue-1", "R-green-1"], "Every card in the side bet was a Rapscallion and they cancelled"),
    ],
)
def test_it_says_who_won_the_rapscallion_side_bet(bets: list[str], words: str) -> None:
    hands = [["2D", "5D", "8D", "JD", "KD", "3C", "4S", "9H"], ["5C", "6D", "7H", "8S", "9C", "2H", "KH", "QS"]]
    hands.append(["JS", "JH", "3D", "5H", "8H", "KC", "2S", "4H"])
    state, found = showdown(hands[: len(bets)], bets, [[] for _ in bets])
    assert rapscallion_text(of(found, "side_bet")[0]).startswith(words)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("P", ["R-red-1", "B3"]), "Ann chooses first: a lone Rapscallion beats every number."),
        (("P", ["B20", "B3"]), "Ann chooses first with the highest bid, 20."),
        (("B", ["AS", "KH"], [["AS", "2C"], ["KH", "3D"]]), "Ann chooses first with the highest playing card bid"),
        (("B", ["KH", "KS"], [["KH", "2C"], ["KS", "3D"]]), "Bob chooses first with K♠: of two cards of one rank"),
        (("P", ["R-red-1", "R-blue-1"]), "The Rapscallions of Ann & Bob cancelled each other"),
    ],
)
def test_it_says_why_the_revealed_bids_set_the_taking_order(args: tuple, words: str) -> None:
    state, found = reveal(*args)
    assert rapscallion_text(of(found, "bids")[0]).startswith(words)


def test_it_says_how_the_rapscallion_hand_and_match_were_decided() -> None:
    state, found = showdown(TWO_PAIRS, ["B1", "B20"], [["R-red-1", "R-red-2"], []], target=10)
    assert rapscallion_text(of(found, "hand")[0]) == (
        "Each player's points for the hand are the sum of those items: Ann 30, Bob 5."
    )
    assert rapscallion_text(of(found, "match")[0]) == (
        "Someone reached 10 points, so the match is over: Ann won with the highest total, 30."
    )


def test_it_shows_the_taking_order_and_then_the_last_showdown_at_the_table() -> None:
    presenter = presenter_for("rapscallion")
    state, found = reveal("P", ["B20", "B3"])
    assert presenter.table_reasons(R.view(state, 1), NAMES) == [rapscallion_text(found[-1])]
    state, found = showdown(TWO_PAIRS, ["B1", "B20"], [["R-red-1", "R-red-2"], []])
    lines = presenter.table_reasons(R.view(state, 0), NAMES)
    engine_lines = [rapscallion_text(r) for r in found if r["kind"] not in ("hand", "bids")]
    assert lines == engine_lines  # the view's labels read the same as the reasons' codes
