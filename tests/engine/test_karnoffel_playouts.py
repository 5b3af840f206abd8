"""Seeded random Karnoffel matches through the shared invariants, plus
property tests of the trick walk against a table written from the rule text."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import karnoffel as K
from tests.engine.helpers_karnoffel import hidden, locations
from tests.engine.invariants import random_playout

# Full checks at every step on short matches, lighter checks on long ones.
FULL = [(seed, {"target": 1 + seed % 3}) for seed in range(40)]
LIGHT = [(seed, {} if seed % 4 == 0 else {"target": 1 + seed % 6}) for seed in range(40, 200)]


@pytest.mark.parametrize(("seed", "options"), FULL)
def test_it_keeps_every_invariant_at_every_step(seed: int, options: dict) -> None:
    state, actions = random_playout(
        K, 4, seed, options=options, full_deck=K.DECK, locations=locations, hidden=hidden, check_every=1
    )
    _check_result(state, options)


@pytest.mark.parametrize(("seed", "options"), LIGHT)
def test_it_keeps_the_invariants_on_longer_matches(seed: int, options: dict) -> None:
    state, actions = random_playout(
        K, 4, seed, options=options, full_deck=K.DECK, locations=locations, hidden=hidden, check_every=37
    )
    _check_result(state, options)


def _check_result(state: dict, options: dict) -> None:
    target = options.get("target", 12)
    result = K.outcome(state)
    assert max(state["hands_won"]) == target and min(state["hands_won"]) < target
    assert result["places"] in ([1, 2, 1, 2], [2, 1, 2, 1])
    assert result["scores"][0] == result["scores"][2] and result["scores"][1] == result["scores"][3]
    assert state["hand_no"] + 1 == sum(state["hands_won"])
    assert result["hands_played"] == sum(state["hands_won"]) and result["hands_won"] == state["hands_won"]
    assert max(state["taken"]) == 3 and sum(state["taken"]) == len(state["tricks"]) <= 5


def test_it_plays_stacked_first_hands_then_shuffles() -> None:
    deck = list(reversed(K.DECK))
    state, _ = random_playout(
        K, 4, 9, options={"deck": deck, "target": 2}, full_deck=K.DECK, locations=locations, hidden=hidden
    )
    assert K.is_over(state)


# --- the trick walk against the rule text ---------------------------------------------------

# What beats a trump card holding the trick, read off the seed's "beats all
# but ..." sentences with the digest's corrections; "led" when it was led.
_BEATEN_BY = {
    "J": "",
    "6": "J",
    "2": "J6",
    "K": "J62",
    "3": "J62K",
    "Q": "J62K3",
    "4": "J62K3Q",
    "5": "J62K3Q4",
    "T": "J62K3Q45",
    "9": "J62K3Q45T",
    "8": "J62K3Q45T9",
}
_LED_BEATEN_BY = {"7": "J", "3": "J62", "4": "J623", "5": "J6234"}
_PLAIN = "23456789TJQK"
_LED_PLAIN_SHIELD = {"K": "345", "Q": "45", "J": "5"}


def reference_beats(card: str, best: str, led: str, trump: str) -> bool:
    led_best = best == led
    card_trump = card[1] == trump and card[0] != "7"
    if best[1] == trump and (best[0] != "7" or led_best):
        beaten = _LED_BEATEN_BY.get(best[0], _BEATEN_BY.get(best[0])) if led_best else _BEATEN_BY[best[0]]
        return card_trump and card[0] in beaten
    if card_trump:
        return not (led_best and card[0] in _LED_PLAIN_SHIELD.get(best[0], ""))
    card_suit = led[1] if card[0] == "7" and card[1] == trump else card[1]
    return card_suit == led[1] and _PLAIN.index(card[0]) > _PLAIN.index(best[0])


def reference_winner(played: list[str], trump: str) -> int:
    best = 0
    for i in range(1, len(played)):
        if reference_beats(played[i], played[best], played[0], trump):
            best = i
    return best


tricks = st.lists(st.sampled_from(K.DECK), min_size=2, max_size=4, unique=True)
suits = st.sampled_from("CDHS")


@st.composite
def trump_heavy_tricks(draw: st.DrawFn) -> tuple[list[str], str]:
    """Tricks rich in trumps and face cards, where the exceptions live."""
    trump = draw(suits)
    trumps = [c for c in K.DECK if c[1] == trump]
    faces = [c for c in K.DECK if c[0] in "KQJ7"]
    pool = st.one_of(st.sampled_from(trumps), st.sampled_from(faces), st.sampled_from(K.DECK))
    return draw(st.lists(pool, min_size=2, max_size=4, unique=True)), trump


def test_it_walks_every_two_and_three_card_trick_as_the_rule_text_says() -> None:
    for trump in "CDHS":
        for first, second in itertools.permutations(K.DECK, 2):
            assert K.winning_index([first, second], trump) == reference_winner([first, second], trump)
    for played in itertools.permutations(K.DECK, 3):
        assert K.winning_index(list(played), "H") == reference_winner(list(played), "H"), played


@settings(max_examples=2000, deadline=None)
@given(trump_heavy_tricks())
def test_it_walks_four_card_tricks_as_the_rule_text_says(case: tuple[list[str], str]) -> None:
    played, trump = case
    assert K.winning_index(played, trump) == reference_winner(played, trump)


def test_it_gives_the_jack_of_trump_or_a_led_seven_the_trick() -> None:
    reached = {"jack": 0, "seven": 0}  # both rules were checked, not just generated around

    @settings(max_examples=500, deadline=None)
    @given(tricks, suits)
    def check(played: list[str], trump: str) -> None:
        winner = played[K.winning_index(played, trump)]
        if "J" + trump in played:
            assert winner == "J" + trump
            reached["jack"] += 1
        elif played[0] == "7" + trump:
            assert winner == played[0]
            reached["seven"] += 1

    check()
    assert all(reached.values()), f"the examples never reached a rule: {reached}"


@settings(max_examples=500, deadline=None)
@given(tricks, suits)
def test_it_gives_a_trickless_trick_to_the_best_card_of_the_led_suit(played: list[str], trump: str) -> None:
    if any(c[1] == trump and c[0] != "7" for c in played) or played[0] == "7" + trump:
        return
    led = played[0][1]
    ranks = [c[0] for c in played if c[1] == led or c == "7" + trump]
    top = max(ranks, key=_PLAIN.index)
    winner = played[K.winning_index(played, trump)]
    assert winner[0] == top
    # Of two sevens, the first one played keeps the trick.
    assert winner == next(c for c in played if c[0] == top and (c[1] == led or c == "7" + trump))


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=2**40))
def test_it_replays_any_seed(seed: int) -> None:
    random_playout(
        K, 4, seed, options={"target": 1}, full_deck=K.DECK, locations=locations, hidden=hidden, check_every=3
    )
