"""Why a Rentz trick, hand and match went as they did: one scenario per rule id (the trick rule, each mini-game's
scoring, each way a hand ends), the engine's structured reason and the sentence (``reason_text``). Points are
checked against a recount from the raw tricks, not the engine's scoring."""

from __future__ import annotations

from typing import Any

import pytest

from engine import rentz as R
from games.presenters import presenter_for
from tests.engine.helpers_reasons import rentz_steps

NAMES = ["Dora", "Bot 1", "Bot 2", "Bot 3"]
PENALTY = {"acool": -10, "diamonds": -15, "queens": -25, "king_of_hearts": -75}


def sentence(reason: dict[str, Any]) -> str:
    return presenter_for("rentz").reason_text(reason, NAMES)


def played_hand(game: str, **options: Any) -> tuple[list[list[str]], list[int], list[dict[str, Any]]]:
    """The first hand of ``game`` played out: its tricks' cards, who took each (recounted: the led suit's
    highest card, ace high), and every reason along the way."""
    tricks, winners, reasons = [], [], []
    for before, _action, after in rentz_steps(game, options=options):
        found = R.reasons(before, after)
        reasons += found
        if len(before["trick_cards"]) == 3:
            cards = [*before["trick_cards"], _action["card"]]
            led = [c for c in cards if c[1] == cards[0][1]]
            best = max(led, key=lambda c: R.RANKS.index(c[0]))
            tricks.append(cards)
            winners.append((before["leader"] + cards.index(best)) % 4)
    return tricks, winners, reasons


def test_it_gives_the_highest_card_of_the_led_suit_for_every_trick_and_says_it() -> None:
    tricks, winners, reasons = played_hand("acool")
    trick_reasons = [r for r in reasons if r["kind"] == "trick"]
    assert len(trick_reasons) == len(tricks) == 13
    for number, (cards, winner, reason) in enumerate(zip(tricks, winners, trick_reasons, strict=True), start=1):
        off = [c for c in cards if c[1] != cards[0][1]]
        led = [c for c in cards if c[1] == cards[0][1]]
        best = max(led, key=lambda c: R.RANKS.index(c[0]))
        assert reason == {
            "kind": "trick", "rule": "highest_of_led_suit", "trick_no": number, "seat": winner,
            "card": best, "led": cards[0], "cards": cards, "off_suit": off,
        }  # fmt: skip
    reason = next(r for r in trick_reasons if r["off_suit"])
    text = sentence(reason)
    assert text.startswith(
        f"{NAMES[reason['seat']]}'s {R.card_label(reason['card'])} took the trick: there are no trumps"
    )
    assert "did not follow suit" in text and R.card_label(reason["off_suit"][0]) in text


@pytest.mark.parametrize("game", ["acool", "diamonds", "queens", "king_of_hearts"])
def test_it_gives_each_trick_games_scoring_rule_and_says_it(game: str) -> None:
    tricks, winners, reasons = played_hand(game)
    hand = reasons[-1]
    if game == "acool":
        counts = [winners.count(seat) for seat in range(4)]
    else:
        taken = [[c for cards, w in zip(tricks, winners, strict=True) if w == seat for c in cards] for seat in range(4)]
        counts = [sum(1 for c in cards if R.is_penalty(game, c)) for cards in taken]
    ended = {"acool": "all_tricks", "king_of_hearts": "king_taken"}.get(game, "all_penalties")
    assert hand == {
        "kind": "hand", "rule": game, "game": game, "unit": PENALTY[game], "counts": counts, "ended": ended,
        "scores": [PENALTY[game] * n for n in counts], "hand_no": 0, "dealer": 0,
    }  # fmt: skip
    text = sentence(hand)
    assert str(PENALTY[game]) in text
    for seat, count in enumerate(counts):
        if count and game != "king_of_hearts":
            assert f"{NAMES[seat]} took {count} ({PENALTY[game] * count})" in text
    if game == "king_of_hearts":
        assert f"{NAMES[counts.index(1)]} took the K♥" in text and "ends with the trick" in text
    if ended == "all_penalties":
        assert "once every penalty card was taken" in text


def test_it_says_a_hand_played_to_the_thirteenth_trick_ended_there() -> None:
    *_, reasons = played_hand("diamonds", end_when_decided=False)
    assert reasons[-1]["ended"] == "all_tricks"
    assert "penalty card" not in sentence(reasons[-1])


def test_it_gives_the_order_of_going_out_in_the_rentz_game_and_says_it() -> None:
    steps = list(rentz_steps("rentz"))
    outs = []
    for before, action, _after in steps:  # a seat is out when it plays its last card
        if action["type"] == "play" and len(before["hands"][before["turn"]]) == 1:
            outs.append(before["turn"])
    last = next(seat for seat in range(4) if seat not in outs)
    hand = R.reasons(steps[-1][0], steps[-1][2])[-1]
    bonus = {seat: [200, 150, 100, 50][place] for place, seat in enumerate([*outs, last])}
    assert hand == {
        "kind": "hand", "rule": "rentz", "game": "rentz", "unit": [200, 150, 100, 50], "order": [*outs, last],
        "ended": "three_out", "scores": [bonus[seat] for seat in range(4)], "hand_no": 0, "dealer": 0,
    }  # fmt: skip
    assert all(R.reasons(b, a) == [] for b, _, a in steps[:-1])
    text = sentence(hand)
    assert text.startswith("Rentz: going out first to last scores 200/150/100/50")
    assert f"1st {NAMES[outs[0]]} (200)" in text and f"4th {NAMES[last]} (50)" in text


def test_it_gives_every_scoring_rule_a_scenario() -> None:
    assert set(R.HAND_RULES) == {"acool", "diamonds", "queens", "king_of_hearts", "rentz"}


def test_it_says_the_highest_total_wins_the_match() -> None:
    state, last = R.new_match(4, None, seed=5), []
    while not R.is_over(state):
        seat = R.to_act(state)[0]
        before, state = state, R.apply(state, seat, R.legal_actions(state, seat)[0])
        last = R.reasons(before, state)
    match = last[-1]
    totals = [sum(h["points"][seat] for h in state["history"]) for seat in range(4)]
    places = [1 + sum(1 for t in totals if t > mine) for mine in totals]
    assert match == {"kind": "match", "rule": "highest_total", "scores": totals, "places": places}
    assert [r["kind"] for r in last] == ["trick", "hand", "match"] or [r["kind"] for r in last] == ["hand", "match"]
    assert sentence(match).startswith("After all 20 hands the highest total wins: Dora ")
    presenter = presenter_for("rentz")
    shown = presenter.table_reasons(R.view(state, None), NAMES)
    assert shown[-2:] == [sentence(last[-2]), sentence(match)]


def test_it_shows_the_last_trick_then_the_last_hand_at_the_table() -> None:
    presenter = presenter_for("rentz")
    steps = list(rentz_steps("king_of_hearts"))
    before, _, after = next(s for s in steps if len(s[2]["tricks"]) == 1)
    assert presenter.table_reasons(R.view(after, 2), NAMES) == [sentence(R.reasons(before, after)[0])]
    before, _, after = steps[-1]
    hand = R.reasons(before, after)[-1]
    assert presenter.table_reasons(R.view(after, 2), NAMES) == [sentence(hand)]
    assert presenter.hand_summary(hand, NAMES).startswith("End of hand 1 of 20 (King of Hearts, dealt by Dora): ")
