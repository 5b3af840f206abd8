"""Why a Karnoffel trick, hand and match went as they did: one scenario per rule id, the engine's structured
reason (``engine.karnoffel.reasons``) and the sentence the table and the log show (``reason_text``)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import karnoffel as K
from games.presenters import presenter_for
from tests.engine.helpers_reasons import karnoffel_trick

NAMES = ["Dora", "Bot 1", "Bot 2", "Bot 3"]
SEAT_OF_PLAY = [1, 2, 3, 0]  # seat 0 deals the first hand: seat 1 leads


def trick_reason(trump: str, plays: list[str]) -> dict[str, Any]:
    before, after = karnoffel_trick(trump, plays)
    reasons = K.reasons(before, after)
    assert [r["kind"] for r in reasons] == ["trick"]
    return reasons[0]


def sentence(reason: dict[str, Any]) -> str:
    return presenter_for("karnoffel").reason_text(reason, NAMES)


# (trump, plays by seats 1, 2, 3, 0, the card that takes the trick, the card the rule beat, words of the sentence)
RULES = {
    "led_seven": ("H", ["7H", "KH", "2C", "3D"], "7H", "KH", "a led 7 of trump beats every card but the Jack"),
    "led_three": ("H", ["3H", "KH", "2C", "4D"], "3H", "KH", "a led 3 of trump beats the King of trump"),
    "led_four_or_five": (
        "H",
        ["4H", "QH", "2C", "3D"],
        "4H",
        "QH",
        "a led 4 or 5 of trump beats the King and the Queen",
    ),
    "led_king": ("H", ["KC", "3H", "2C", "4D"], "KC", "3H", "a led King beats the 3, 4 and 5 of trump"),
    "led_queen": ("C", ["QD", "4C", "2S", "3S"], "QD", "4C", "a led Queen beats the 4 and 5 of trump"),
    "led_jack": ("H", ["JD", "5H", "2C", "3C"], "JD", "5H", "a led Jack beats the 5 of trump"),
    "trump_order": ("H", ["9C", "3H", "KH", "2D"], "KH", "3H", "the trumps rank J 6 2 K 3 Q 4 5 10 9 8"),
    "trump": ("H", ["KC", "3H", "TH", "2D"], "TH", "KC", "a trump (♥ hearts) beats any plain card"),
    "first_seven": ("H", ["7C", "7H", "2D", "3D"], "7C", "7H", "both 7s count in the led suit (♣ clubs)"),
    "seven_as_led_suit": ("H", ["2C", "7H", "3D", "4S"], "7H", "2C", "a 7 of trump that is not led is no trump"),
    "highest_of_led_suit": ("H", ["9C", "KC", "2D", "3S"], "KC", "9C", "the highest card of the led suit (♣ clubs)"),
}


def test_it_has_a_scenario_for_every_trick_rule() -> None:
    assert set(RULES) == set(K.TRICK_RULES)


@pytest.mark.parametrize("rule", sorted(RULES))
def test_it_gives_the_rule_that_took_the_trick_and_says_it(rule: str) -> None:
    trump, plays, winner, over, words = RULES[rule]
    reason = trick_reason(trump, plays)
    assert reason == {
        "kind": "trick",
        "rule": rule,
        "trick_no": 1,
        "seat": SEAT_OF_PLAY[plays.index(winner)],
        "card": winner,
        "over": over,
        "over_seat": SEAT_OF_PLAY[plays.index(over)],
        "led": plays[0],
        "trump": trump,
        "cards": plays,
    }
    text = sentence(reason)
    name, label = NAMES[reason["seat"]], K.card_label(winner)
    assert text.startswith(f"{name}'s {label} took the trick: ")
    assert words in text and K.card_label(over) in text


def test_it_explains_the_newcomers_trick_a_trump_four_losing_to_a_led_queen() -> None:
    text = sentence(trick_reason("C", ["QD", "4C", "2S", "3S"]))
    assert text == "Bot 1's Q♦ took the trick: a led Queen beats the 4 and 5 of trump, so the 4♣ lost to it."


def test_it_names_the_jack_of_trump_over_a_led_seven() -> None:
    reason = trick_reason("H", ["7H", "JH", "2C", "3D"])
    assert (reason["rule"], reason["card"], reason["over"]) == ("trump_order", "JH", "7H")


def test_it_names_the_card_the_winner_took_over_from_not_one_the_led_card_beat() -> None:
    # The led King keeps the trick against the 3 of trump, then the 10 of trump takes it from the King.
    reason = trick_reason("H", ["KC", "3H", "TH", "2D"])
    assert (reason["seat"], reason["rule"], reason["over"]) == (3, "trump", "KC")


def test_it_says_why_a_team_won_the_hand_and_the_match() -> None:
    state = K.new_match(4, {"target": 1}, seed=1)
    trumps, rest = ["JH", "6H", "2H"], iter(c for c in K.DECK if c[1] in "CS")
    hands = [[next(rest) for _ in range(5)] for _ in range(4)]
    hands[1] = trumps + hands[1][:2]
    state, reasons = {**state, "hands": hands, "trump": "H"}, []
    while not K.is_over(state):
        seat = state["turn"]
        before, state = state, K.apply(state, seat, {"type": "play", "card": state["hands"][seat][0]})
        reasons += K.reasons(before, state)
    assert [r["kind"] for r in reasons] == ["trick", "trick", "trick", "hand", "match"]
    hand, match = reasons[3], reasons[4]
    # Recounted from the tricks: seat 1's team took all three.
    taken = [sum(1 for r in reasons[:3] if r["seat"] % 2 == team) for team in (0, 1)]
    assert hand == {
        "kind": "hand",
        "rule": "three_tricks",
        "hand_no": 0,
        "team": 1,
        "seats": [1, 3],
        "taken": taken,
        "scores": [0, 1, 0, 1],
        "hands_won": [0, 1],
    }
    assert match == {
        "kind": "match",
        "rule": "target_reached",
        "team": 1,
        "seats": [1, 3],
        "hands_won": [0, 1],
        "target": 1,
    }
    assert sentence(hand) == "Bot 1 & Bot 3 won the hand: the first team to take three tricks wins it (3 tricks to 0)."
    assert sentence(match) == "Bot 1 & Bot 3 won the match: the first team to win 1 hand (1 hand to 0)."
    assert (
        presenter_for("karnoffel").hand_summary(hand, NAMES)
        == "Hand 1 is over. Hands won: Dora & Bot 2 0, Bot 1 & Bot 3 1."
    )
    # The final table: the last trick, the hand and the match, from the view alone.
    shown = presenter_for("karnoffel").table_reasons(K.view(state, None), NAMES)
    assert shown == [sentence(reasons[2]), sentence(hand), sentence(match)]


def test_it_shows_the_last_trick_at_the_table_from_the_view_alone() -> None:
    before, after = karnoffel_trick("C", ["QD", "4C", "2S", "3S"])
    presenter = presenter_for("karnoffel")
    assert presenter.table_reasons(K.view(before, 0), NAMES) == []
    assert presenter.table_reasons(K.view(after, None), NAMES) == [sentence(K.reasons(before, after)[0])]


def test_it_settles_nothing_with_a_card_that_does_not_end_a_trick() -> None:
    before, after = karnoffel_trick("C", ["QD", "4C", "2S", "3S"])
    nxt = K.apply(after, after["turn"], {"type": "play", "card": after["hands"][after["turn"]][0]})
    assert K.reasons(after, nxt) == []
