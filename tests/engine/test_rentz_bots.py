"""Rentz bots: legal choices from views, faithful determinization, sensible play."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engine import rentz
from engine.__main__ import play_match
from engine.bots import choose
from engine.bots import rentz as policy
from engine.cards import french_deck
from tests.engine.helpers_rentz import (
    BY_SUIT,
    CLUBS,
    DIAMONDS,
    HEARTS,
    SPADES,
    layout_table,
    locations,
    play,
    play_trick,
    stacked,
    start,
)

DECK = french_deck()


def random_states(count: int, seed: int) -> Iterator[dict]:
    """Mid-match states from random play, in every phase and mini-game."""
    rng = random.Random(seed)
    produced = 0
    while produced < count:
        state = rentz.new_match(4, {"end_when_decided": rng.random() < 0.5}, seed=rng.randrange(10**6))
        for _ in range(rng.randrange(1, 400)):
            seat = rentz.to_act(state)[0]
            state = rentz.apply(state, seat, rng.choice(rentz.legal_actions(state, seat)))
        produced += 1
        yield state


def test_it_makes_basic_choose_a_legal_action_from_the_view() -> None:
    for state in random_states(150, 1):
        seat = rentz.to_act(state)[0]
        legal = rentz.legal_actions(state, seat)
        action = policy.basic(rentz.view(state, seat), legal, random.Random(0))
        assert action in legal


def test_it_makes_strong_choose_a_legal_action_from_the_view() -> None:
    for k, state in enumerate(random_states(12, 2)):
        seat = rentz.to_act(state)[0]
        legal = rentz.legal_actions(state, seat)
        action = choose("rentz", "strong", rentz.view(state, seat), legal, seed=k, playouts=8, time_limit=0.3)
        assert action in legal


def test_it_determinizes_to_the_same_view_and_legal_actions() -> None:
    rng = random.Random(3)
    differed = 0
    for state in random_states(150, 3):
        for seat in range(4):
            view = rentz.view(state, seat)
            det = policy.determinize(view, rng)
            assert rentz.view(det, seat) == view
            assert rentz.legal_actions(det, seat) == rentz.legal_actions(state, seat)
            assert sorted(locations(det)) == sorted(DECK)
            differed += det["hands"] != state["hands"]
    assert differed > 400, "determinize should actually deal the unseen cards afresh"


def test_it_determinizes_to_a_state_that_plays_on() -> None:
    rng = random.Random(4)
    for state in random_states(30, 4):
        seat = rentz.to_act(state)[0]
        det = policy.determinize(rentz.view(state, seat), rng)
        hand = det["hand_no"]
        while not rentz.is_over(det) and det["hand_no"] == hand:
            actor = rentz.to_act(det)[0]
            det = rentz.apply(det, actor, rng.choice(rentz.legal_actions(det, actor)))


def test_it_keeps_voids_shown_by_failing_to_follow_suit() -> None:
    # Seats 2 and 3 showed they hold no clubs, so seat 1 knows every unseen club is seat 0's.
    state = play_trick(start(BY_SUIT, "acool"), ["2C", "2D", "2H", "2S"])
    for seed in range(20):
        det = policy.determinize(rentz.view(state, 1), random.Random(seed))
        assert det["hands"][0] == state["hands"][0]
        assert det["hands"][1] == state["hands"][1]


def test_it_keeps_what_a_pass_in_the_layout_game_proves() -> None:
    state = start(layout_table(), "rentz")
    for card in ("JC", "JD", "JH"):
        state = play(state, rentz.to_act(state)[0], card)
    state = rentz.apply(state, 3, {"type": "pass"})
    banned = {"TC", "QC", "TD", "QD", "TH", "QH", "JS"}
    for seed in range(40):
        det = policy.determinize(rentz.view(state, 0), random.Random(seed))
        assert not banned & set(det["hands"][3])


def test_it_keeps_the_bots_choice_when_hidden_cards_are_reshuffled() -> None:
    rng = random.Random(5)
    for k, state in enumerate(random_states(40, 5)):
        seat = rentz.to_act(state)[0]
        other = policy.determinize(rentz.view(state, seat), rng)
        for level in ("basic", "strong"):
            kwargs = {"playouts": 4, "time_limit": 5.0} if level == "strong" else {}
            real = choose("rentz", level, rentz.view(state, seat), rentz.legal_actions(state, seat), seed=k, **kwargs)
            alt = choose("rentz", level, rentz.view(other, seat), rentz.legal_actions(other, seat), seed=k, **kwargs)
            assert real == alt


# --- what basic does ---------------------------------------------------------------------------


def _basic(state: dict) -> dict:
    seat = rentz.to_act(state)[0]
    return policy.basic(rentz.view(state, seat), rentz.legal_actions(state, seat), random.Random(0))


MIXED = [
    CLUBS[:6] + DIAMONDS[:7],  # seat 0: 2-7C, 2-8D
    CLUBS[6:] + DIAMONDS[7:],  # seat 1: 8-AC, 9-AD
    HEARTS,
    SPADES,
]


def fill(partial: list[list[str]]) -> list[list[str]]:
    """Complete each seat's hand to 13 with the cards nobody was given, in deck order."""
    rest = [c for c in DECK if all(c not in h for h in partial)]
    hands = []
    for hand in partial:
        need = 13 - len(hand)
        hands.append(hand + rest[:need])
        rest = rest[need:]
    return hands


def test_it_ducks_with_the_highest_card_that_still_loses() -> None:
    state = start(MIXED, "acool")
    state = play_trick(state, ["7C", "8C", "2H", "2S"])  # seat 1 takes it and leads
    state = play_trick(state, ["KC", "3H", "3S"])
    assert _basic(state) == {"type": "play", "card": "6C"}, "seat 0 holds 2-6C, all under the K"


def test_it_plays_its_lowest_card_when_it_cannot_duck_and_others_are_still_to_play() -> None:
    state = play(start(MIXED, "acool"), 0, "2C")
    assert _basic(state) == {"type": "play", "card": "8C"}, "seat 1 holds only clubs above the 2"


def test_it_spends_its_highest_safe_card_when_last_and_bound_to_win() -> None:
    hands = [["2C", *DIAMONDS[:12]], HEARTS, SPADES, [*CLUBS[1:], "AD"]]
    state = start(hands, "queens")
    state = play_trick(state, ["2C", "QH", "QS"])
    assert _basic(state) == {"type": "play", "card": "AC"}, "the trick is seat 3's anyway; keep the QC back"


def test_it_sheds_the_king_of_hearts_when_void() -> None:
    hands = [CLUBS, DIAMONDS[:12] + ["KH"], [h for h in HEARTS if h != "KH"] + ["AD"], SPADES]
    state = play(start(hands, "king_of_hearts"), 0, "2C")
    assert _basic(state) == {"type": "play", "card": "KH"}


def test_it_sheds_queens_and_high_diamonds_when_void() -> None:
    state = play(start(BY_SUIT, "queens"), 0, "2C")
    assert _basic(state) == {"type": "play", "card": "QD"}
    state = play(start(BY_SUIT, "diamonds"), 0, "2C")
    assert _basic(state) == {"type": "play", "card": "AD"}


def test_it_keeps_queens_kings_and_aces_back_when_leading_in_queens() -> None:
    hands = [CLUBS[:3] + DIAMONDS[:10], CLUBS[3:] + DIAMONDS[10:], HEARTS, SPADES]
    state = play_trick(start(hands, "queens"), ["4C", "5C", "2H", "2S"])
    assert _basic(state) == {"type": "play", "card": "6C"}


def test_it_does_not_lead_hearts_while_holding_the_king_of_hearts() -> None:
    state = start(fill([["2H", "KH", *CLUBS[2:]], [], [], []]), "king_of_hearts")
    assert _basic(state) == {"type": "play", "card": "4C"}


def test_it_opens_the_way_for_its_own_cards_in_rentz() -> None:
    hands = [
        ["JC", "TC", "9C", "8C", "JD", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H"],
        ["2C", "3C", "4C", "5C", "6C", "7C", "2D", "3D", "4D", "5D", "6D", "7D", "8D"],
        ["QC", "KC", "AC", "9D", "TD", "QD", "KD", "AD", "TH", "JH", "QH", "KH", "AH"],
        SPADES,
    ]
    state = start(hands, "rentz")
    # JC frees three of seat 0's clubs; JD frees nothing of its own and helps the others.
    assert _basic(state) == {"type": "play", "card": "JC"}
    state = rentz.apply(play(state, 0, "JC"), 1, {"type": "pass"})
    # Seat 2: JH frees its four hearts at both ends; QC only its two clubs above.
    assert _basic(state) == {"type": "play", "card": "JH"}


def test_it_chooses_rentz_for_a_hand_full_of_jacks_and_middle_cards() -> None:
    hand = ["JC", "JD", "JH", "JS", "TC", "QC", "TD", "QD", "TH", "QH", "TS", "QS", "9S"]
    assert max(rentz.MINI_GAMES, key=lambda g: policy.suitability(g, hand, rentz.DEFAULT_POINTS)) == "rentz"
    far = ["2C", "3C", "AC", "2D", "3D", "AD", "2H", "3H", "AH", "2S", "3S", "AS", "KS"]
    assert policy.suitability("rentz", far, rentz.DEFAULT_POINTS) < 0


def test_it_chooses_king_of_hearts_with_low_hearts_and_no_king() -> None:
    hand = ["2H", "3H", "4H", "5H", "6H", "2C", "3C", "AC", "KS", "AS", "AD", "KD", "QS"]
    games = ["acool", "diamonds", "king_of_hearts", "queens"]
    assert max(games, key=lambda g: policy.suitability(g, hand, rentz.DEFAULT_POINTS)) == "king_of_hearts"


def test_it_judges_queens_by_how_bare_the_queens_are() -> None:
    bare = ["QC", "QD", "2H", "3H", "4H", "5H", "6H", "7H", "2S", "3S", "4S", "5S", "6S"]
    none = ["2C", "3C", "4C", "2D", "3D", "2H", "3H", "4H", "5H", "2S", "3S", "4S", "5S"]
    assert (
        policy.suitability("queens", bare, rentz.DEFAULT_POINTS)
        < 0
        < policy.suitability("queens", none, rentz.DEFAULT_POINTS)
    )


def test_it_picks_the_game_that_suits_the_hand_when_dealing() -> None:
    hand = ["JC", "JD", "JH", "JS", "TC", "QC", "TD", "QD", "TH", "QH", "TS", "QS", "9S"]
    state = rentz.new_match(4, {"deck": _deck_for(hand)}, seed=1)
    assert _basic(state) == {"type": "choose", "game": "rentz"}


def _deck_for(seat0: list[str]) -> list[str]:
    return stacked(fill([seat0, [], [], []]))


@pytest.mark.parametrize("seed", range(2))
def test_it_makes_basic_beat_random(seed: int) -> None:
    basic_total = random_total = 0
    for k in range(4):
        levels = ["basic", "random"] * 2 if k % 2 == 0 else ["random", "basic"] * 2
        state, _ = play_match("rentz", 4, 1000 * seed + k, levels)
        for s, score in enumerate(rentz.outcome(state)["scores"]):
            if levels[s] == "basic":
                basic_total += score
            else:
                random_total += score
    assert basic_total > random_total + 400
