"""One scenario per rule of the Karnoffel digest, on stacked decks."""

from __future__ import annotations

import copy
import itertools
from typing import Any

import pytest

from engine import IllegalAction, cards, get_game
from engine import karnoffel as K
from tests.engine.helpers_karnoffel import DEAL_ORDER, play, stacked, start


def trick_hands(trump: str, plays: list[str]) -> tuple[list[list[str]], list[str]]:
    """Hands in which seats 1, 2, 3, 0 play ``plays`` (padded to four with a
    low card of a suit neither led nor trump) and ``trump`` is trump: its 2
    is the only face-up 2, the other seats show a King or Queen."""
    used = set(plays)
    led = plays[0][1]
    fill = (r + s for s in "CDHS" if s not in (trump, led) for r in "2345")
    plays = plays + [c for c in fill if c not in used][: 4 - len(plays)]
    used |= set(plays)
    hands = {seat: [code] for seat, code in zip(DEAL_ORDER, plays, strict=False)}
    low = "2" + trump
    owner = DEAL_ORDER[plays.index(low)] if low in plays else 1
    faces = iter(c for c in K.DECK if c[0] in "KQ" and c[1] != trump and c not in used)
    for seat in DEAL_ORDER:
        if seat == owner:
            if low not in hands[seat]:
                hands[seat].insert(0, low)
            else:
                hands[seat] = [low]
        else:
            hands[seat].insert(0, next(faces))
    taken = {c for h in hands.values() for c in h}
    spare = iter(c for c in K.DECK if c not in taken and c[0] in "6789T" and c[1] != trump)
    for seat in DEAL_ORDER:
        while len(hands[seat]) < 5:
            hands[seat].append(next(spare))
    return [hands[s] for s in range(4)], plays


def trick_winner(trump: str, plays: list[str]) -> str:
    """The card that takes a first trick in which seats 1, 2, 3, 0 play ``plays``."""
    hands, plays = trick_hands(trump, plays)
    state = start(hands)
    assert state["trump"] == trump
    state = play(state, *plays)
    done = state["tricks"][0]
    assert [p["card"] for p in done["cards"]] == plays
    return next(p["card"] for p in done["cards"] if p["seat"] == done["winner"])


# --- table ------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 5])
def test_it_is_played_by_exactly_four(players: int) -> None:
    with pytest.raises(ValueError, match="exactly 4 players"):
        K.new_match(players, seed=1)


def test_it_uses_48_cards_without_aces() -> None:
    assert len(K.DECK) == 48 and len(set(K.DECK)) == 48
    assert not [c for c in K.DECK if c[0] == "A"]
    with_ace = list(K.DECK)
    with_ace[0] = "AS"
    with pytest.raises(ValueError, match="not a complete 48-card deck"):
        K.new_match(4, {"deck": with_ace}, seed=1)


def test_it_is_registered() -> None:
    assert get_game("karnoffel") is K
    assert (K.NAME, K.TITLE, K.MIN_PLAYERS, K.MAX_PLAYERS) == ("karnoffel", "Karnoffel", 4, 4)


def test_it_scores_partners_across_the_table_together() -> None:
    # Seat 2 takes the trick with the Jack of trump; that is a trick for seats 0 and 2.
    hands, plays = trick_hands("H", ["9C", "JH", "TC"])
    state = play(start(hands), *plays)
    assert state["tricks"][0]["winner"] == 2
    assert state["taken"] == [1, 0]


# --- deal and trump -----------------------------------------------------------


def test_it_deals_face_up_from_the_seat_after_the_dealer_then_four_rounds() -> None:
    deck = list(K.DECK)
    state = K.new_match(4, {"deck": deck}, seed=1)
    assert state["dealer"] == 0
    assert state["face_up"] == [deck[3], deck[0], deck[1], deck[2]]
    for seat in range(4):
        pos = DEAL_ORDER.index(seat)
        assert state["hands"][seat] == [deck[pos + 4 * r] for r in range(5)]
    assert state["set_aside"] == deck[20:]
    assert len(state["set_aside"]) == 28


def test_it_takes_trump_from_the_lowest_face_up_card() -> None:
    hands = [
        ["KC", "2C", "3C", "4C", "5C"],
        ["QD", "2D", "3D", "4D", "5D"],
        ["TS", "2S", "3S", "4S", "5S"],
        ["JH", "2H", "3H", "4H", "5H"],
    ]
    # K high, 2 low: the 10 of spades is below the Jack, Queen and King.
    assert start(hands)["trump"] == "S"


def test_it_breaks_a_trump_tie_by_the_first_card_dealt() -> None:
    hands = [
        ["5C", "2C", "3C", "4C", "6C"],
        ["9D", "2D", "3D", "4D", "5D"],
        ["5S", "2S", "3S", "4S", "6S"],
        ["5H", "2H", "3H", "4H", "6H"],
    ]
    # Dealt in the order seat 1, 2, 3, 0: of the three fives, seat 2's came first.
    assert start(hands)["trump"] == "S"
    hands[2][0], hands[2][4] = hands[2][4], hands[2][0]  # seat 2 now shows 6S
    assert start(hands)["trump"] == "H"  # seat 3's 5H was dealt before seat 0's 5C


def test_it_puts_the_face_up_card_into_its_owners_hand() -> None:
    state = K.new_match(4, seed=5)
    for seat in range(4):
        assert state["face_up"][seat] in state["hands"][seat]
        assert len(state["hands"][seat]) == 5


def test_it_shows_the_face_up_round_and_trump_to_everyone_for_the_whole_hand() -> None:
    hands, _ = trick_hands("H", ["9C", "3H", "KH"])
    state = play(start(hands), "9C", "3H", "KH")
    for seat in [None, 0, 1, 2, 3]:
        seen = K.view(state, seat)
        assert seen["face_up"] == [h[0] for h in hands]
        assert seen["trump"] == "H"


def test_it_keeps_the_four_later_cards_private() -> None:
    hands, _ = trick_hands("H", ["9C", "3H", "KH"])
    state = start(hands)
    for seat in [None, 0, 1, 2, 3]:
        shown = set(_strings(K.view(state, seat)))
        for other in range(4):
            for code in hands[other][1:]:
                assert (code in shown) == (other == seat), (seat, other, code)


# --- play -------------------------------------------------------------------------


def test_it_has_the_seat_after_the_dealer_lead_and_the_trick_winner_lead_next() -> None:
    hands, plays = trick_hands("H", ["9C", "3H", "KH"])
    state = start(hands)
    assert K.to_act(state) == [1]
    state = play(state, "9C", "3H", "KH")
    assert K.to_act(state) == [0]
    state = play(state, plays[3])
    assert state["tricks"][0]["winner"] == 3
    assert K.to_act(state) == [3] and state["leader"] == 3


def test_it_never_requires_following_suit() -> None:
    clubs_holder = [
        ["KS", "2S", "3S", "4S", "5S"],
        ["QD", "9C", "3D", "4D", "5D"],
        ["KD", "TC", "8D", "2H", "6S"],
        ["QS", "2D", "7S", "8S", "9S"],
    ]
    state = play(start(clubs_holder), "9C")
    assert K.legal_actions(state, 2) == [{"type": "play", "card": c} for c in ["KD", "TC", "8D", "2H", "6S"]]
    state = play(state, "2H")  # seat 2 holds the 10 of clubs and plays a heart
    assert state["trick"][-1] == {"seat": 2, "card": "2H"}


def _hand_won_by_team_one() -> list[list[str]]:
    # Trump hearts (2H face up for seat 1). Seat 1 leads the Jack, 6 and 2 of
    # trump, which nothing can beat; the others throw low plain cards.
    return [
        ["KC", "2C", "3C", "4C", "5C"],
        ["2H", "JH", "6H", "3H", "QH"],
        ["KD", "2D", "3D", "4D", "5D"],
        ["KS", "2S", "3S", "4S", "5S"],
    ]


def test_it_ends_the_hand_at_once_when_a_team_has_three_tricks() -> None:
    state = start(_hand_won_by_team_one())
    state = play(state, "JH", "2D", "2S", "2C", "6H", "3D", "3S", "3C")
    assert state["taken"] == [0, 2] and state["hand_no"] == 0
    state = play(state, "2H", "4D", "4S", "4C")
    assert state["hand_no"] == 1
    assert state["hands_won"] == [0, 1]
    assert state["last_hand"]["winner_team"] == 1
    assert state["last_hand"]["taken"] == [0, 3]
    assert state["tricks"] == [] and state["taken"] == [0, 0]
    assert all(len(h) == 5 for h in state["hands"])


def test_it_ends_the_hand_after_four_tricks_when_it_is_three_to_one() -> None:
    hands = [
        ["KC", "JH", "3C", "4C", "5C"],
        ["2H", "QC", "6H", "3H", "7H"],
        ["KD", "2D", "3D", "4D", "5D"],
        ["KS", "2S", "3S", "4S", "5S"],
    ]
    state = start(hands)
    state = play(state, "QC", "2D", "2S", "JH")  # seat 0 takes it with the Jack of trump
    assert state["taken"] == [1, 0] and K.to_act(state) == [0]
    state = play(state, "3C", "6H", "3D", "3S")  # 6 of trump for seat 1
    state = play(state, "7H", "4D", "4S", "4C")  # led 7 of trump
    assert state["taken"] == [1, 2] and state["hand_no"] == 0
    state = play(state, "2H", "5D", "5S", "5C")
    assert state["hand_no"] == 1 and state["hands_won"] == [0, 1]
    assert state["last_hand"]["trick_winners"] == [0, 1, 1, 1]


def test_it_passes_the_deal_one_seat_each_hand_and_shuffles_from_the_seed() -> None:
    state = K.new_match(4, seed=11)
    starts = []
    rng = __import__("random").Random(3)
    while state["hand_no"] < 6:
        if not state["tricks"] and not state["trick"]:
            starts.append((state["hand_no"], state["dealer"], state["leader"], state["trump"], state["face_up"]))
        seat = state["turn"]
        state = K.apply(state, seat, rng.choice(K.legal_actions(state, seat)))
    for hand_no, dealer, leader, trump, face_up in starts:
        assert dealer == hand_no % 4 and leader == (dealer + 1) % 4
        order = [(dealer + 1 + i) % 4 for i in range(4)]
        assert trump == K.trump_from([face_up[s] for s in order])
    assert [s[0] for s in starts] == list(range(6))
    assert len({tuple(s[4]) for s in starts}) > 1  # later hands are fresh shuffles
    again = K.new_match(4, seed=11)
    assert again == K.new_match(4, seed=11)
    assert K.new_match(4, seed=12)["hands"] != again["hands"]


def _hand_one_deck(seed: int) -> list[str]:
    # Pinned: stored matches replay from the seed, so this salt cannot change.
    return cards.shuffled(K.DECK, seed, "karnoffel", "hand", 1)


def _first_and_last_face_up_tie_for_lowest(deck: list[str]) -> bool:
    ranks = [K.RANKS.index(c[0]) for c in deck[:4]]
    return ranks[0] == ranks[3] == min(ranks)


def test_it_deals_the_next_hand_from_the_seed_starting_after_the_new_dealer() -> None:
    # Hand 1 is dealt by seat 1: face up to seats 2, 3, 0, 1, then four rounds
    # in that order. On this seed the first and the last face-up cards tie for
    # lowest, so trump comes out right only if the round starts at seat 2.
    order = [2, 3, 0, 1]
    seed = next(s for s in range(1000) if _first_and_last_face_up_tie_for_lowest(_hand_one_deck(s)))
    state = K.new_match(4, {"deck": stacked(_hand_won_by_team_one())}, seed=seed)
    state = play(state, "JH", "2D", "2S", "2C", "6H", "3D", "3S", "3C", "2H", "4D", "4S", "4C")
    assert (state["hand_no"], state["dealer"], K.to_act(state)) == (1, 1, [2])
    deck = _hand_one_deck(seed)
    assert [state["face_up"][seat] for seat in order] == deck[:4]
    for i, seat in enumerate(order):
        assert state["hands"][seat] == deck[i:20:4]
    assert state["set_aside"] == deck[20:]
    assert state["trump"] == deck[0][1] != deck[3][1]


def test_it_plays_the_match_to_target_hands_with_team_places() -> None:
    state = start(_hand_won_by_team_one(), target=1)
    state = play(state, "JH", "2D", "2S", "2C", "6H", "3D", "3S", "3C", "2H", "4D", "4S", "4C")
    assert K.is_over(state) and K.to_act(state) == []
    assert all(K.legal_actions(state, s) == [] for s in range(4))
    result = K.outcome(state)
    assert result["scores"] == [0, 1, 0, 1]
    assert result["places"] == [2, 1, 2, 1]
    assert result["winners"] == [1, 3]
    assert (result["winner_team"], result["hands_won"], result["hands_played"]) == (1, [0, 1], 1)
    # No next hand is dealt: the last hand's tricks stay on view.
    seen = K.view(state, None)
    assert seen["to_act"] == [] and seen["turn"] == seen["leader"] == 1
    assert [t["winner"] for t in seen["tricks"]] == [1, 1, 1] and seen["taken"] == [0, 3]
    assert K.view(state, None)["outcome"] == result


def test_it_defaults_to_twelve_hands() -> None:
    assert K.new_match(4, seed=1)["target"] == 12
    state = start(_hand_won_by_team_one(), target=2)
    state = play(state, "JH", "2D", "2S", "2C", "6H", "3D", "3S", "3C", "2H", "4D", "4S", "4C")
    assert not K.is_over(state)
    with pytest.raises(ValueError, match="not over"):
        K.outcome(state)


def test_it_gives_places_one_two_one_two_when_the_first_team_wins() -> None:
    state = K.new_match(4, {"target": 1}, seed=0)
    state = {**state, "hands_won": [1, 0], "winner_team": 0}
    assert K.outcome(state)["places"] == [1, 2, 1, 2]
    assert K.outcome(state)["scores"] == [1, 0, 1, 0]


# --- who takes a trick ----------------------------------------------------------------

WORKED = [
    (["9C", "3H", "KH"], "KH"),
    (["3H", "KH"], "3H"),
    (["KC", "3H"], "KC"),
    (["KC", "3H", "TH"], "TH"),
    (["7H", "6H"], "7H"),
    (["2C", "7H", "7C"], "7H"),
]


@pytest.mark.parametrize(("plays", "winner"), WORKED)
def test_it_settles_the_worked_examples(plays: list[str], winner: str) -> None:
    assert trick_winner("H", plays) == winner


TRUMP_PAIRS = list(itertools.combinations("J62K3Q45T98", 2))


@pytest.mark.parametrize(("high", "low"), TRUMP_PAIRS)
def test_it_ranks_trumps_j_6_2_k_3_q_4_5_t_9_8_when_neither_was_led(high: str, low: str) -> None:
    # A plain 8 of clubs leads, so none of the led-card exceptions applies.
    assert trick_winner("S", ["8C", low + "S", high + "S"]) == high + "S"
    assert trick_winner("S", ["8C", high + "S", low + "S"]) == high + "S"


@pytest.mark.parametrize("other", [r + "D" for r in "62K3Q45T98"])
def test_it_lets_a_led_seven_of_trump_beat_all_but_the_jack(other: str) -> None:
    assert trick_winner("D", ["7D", other]) == "7D"
    assert trick_winner("D", ["7D", other, "JD"]) == "JD"


def test_it_counts_a_seven_of_trump_played_later_as_a_plain_seven_of_the_led_suit() -> None:
    assert trick_winner("H", ["2C", "7H"]) == "7H"  # beats the plain 2 of clubs
    assert trick_winner("H", ["8C", "7H"]) == "8C"  # but not the plain 8
    assert trick_winner("H", ["2D", "7H"]) == "7H"
    assert trick_winner("H", ["2C", "8H", "7H"]) == "8H"  # and is no trump
    assert trick_winner("H", ["3H", "7H"]) == "3H"  # led trump: the later 7 is no trump


def test_it_lets_the_first_seven_win_a_tie_between_sevens() -> None:
    assert trick_winner("H", ["7C", "7H"]) == "7C"
    assert trick_winner("H", ["2C", "7H", "7C"]) == "7H"
    assert trick_winner("H", ["2C", "7C", "7H"]) == "7C"


def test_it_lets_a_led_three_of_trump_beat_the_king_of_trump() -> None:
    assert trick_winner("H", ["3H", "KH"]) == "3H"
    assert trick_winner("H", ["3H", "KH", "2H"]) == "2H"  # the 2 is above the 3 anyway
    assert trick_winner("H", ["9C", "3H", "KH"]) == "KH"  # not led: the King is higher


@pytest.mark.parametrize("led", ["4H", "5H"])
def test_it_lets_a_led_four_or_five_of_trump_beat_king_and_queen(led: str) -> None:
    assert trick_winner("H", [led, "KH"]) == led
    assert trick_winner("H", [led, "QH"]) == led
    assert trick_winner("H", [led, "3H"]) == "3H"
    assert trick_winner("H", ["9C", led, "QH"]) == "QH"


def test_it_lets_led_king_queen_jack_of_any_suit_beat_the_low_trumps() -> None:
    for led, holds, loses in [("KC", "345", "JQ2T98"), ("QD", "45", "3KT8"), ("JS", "5", "4398")]:
        for rank in holds:
            assert trick_winner("H", [led, rank + "H"]) == led, (led, rank)
        for rank in loses:
            assert trick_winner("H", [led, rank + "H"]) == rank + "H", (led, rank)


def test_it_applies_led_exceptions_only_to_the_led_card() -> None:
    # The led Queen keeps the trick against the 4 of trump; the King of clubs
    # then beats the Queen as a plain card of the led suit.
    assert trick_winner("H", ["QC", "4H", "KC"]) == "KC"
    assert trick_winner("H", ["QC", "4H", "JC"]) == "QC"
    # Once a trump has taken over, a later plain King is just a plain card.
    assert trick_winner("H", ["9C", "3H", "KC"]) == "3H"


def test_it_lets_any_trump_beat_any_plain_card() -> None:
    assert trick_winner("H", ["9C", "8H"]) == "8H"
    assert trick_winner("H", ["TC", "9H", "KC"]) == "9H"


def test_it_lets_only_the_led_suit_win_among_plain_cards() -> None:
    assert trick_winner("H", ["9C", "KD", "KS"]) == "9C"
    for low, high in itertools.pairwise("23456789TJQK"):
        if "7" in (low, high):
            continue  # 7C and 7H cases are above; the filler clubs avoid trouble
        assert trick_winner("H", [low + "C", high + "C"]) == high + "C"
        assert trick_winner("H", [high + "C", low + "C"]) == high + "C"


def test_it_walks_the_trick_because_the_relation_is_not_transitive() -> None:
    assert trick_winner("H", ["9C", "QH", "3H", "KH"]) == "KH"
    assert trick_winner("H", ["3H", "QH", "KH"]) == "3H"
    assert trick_winner("H", ["KC", "3H", "TH"]) == "TH"


def test_it_always_gives_the_jack_of_trump_the_trick() -> None:
    for plays in (["7H", "JH"], ["3H", "6H", "JH"], ["KC", "JH", "2H"], ["JH", "6H", "7H", "2H"]):
        assert trick_winner("H", plays) == "JH"


# --- actions, options, views ----------------------------------------------------------------


def test_it_rejects_bad_options_with_clear_messages() -> None:
    cases = [
        ({"targett": 3}, "Unknown option 'targett'"),
        ({"target": 0}, "between 1 and 50"),
        ({"target": 51}, "between 1 and 50"),
        ({"target": "12"}, "whole number"),
        ({"target": True}, "whole number"),
        ({"deck": K.DECK[:-1]}, "missing"),
        ({"deck": K.DECK[:-1] + K.DECK[:1]}, "repeated"),
        ({"deck": "2C 3C"}, "list of card codes"),
    ]
    for options, message in cases:
        with pytest.raises(ValueError, match=message):
            K.new_match(4, options, seed=1)
    with pytest.raises(ValueError, match="dictionary"):
        K.new_match(4, ["target", 3], seed=1)  # type: ignore[arg-type]
    assert K.validate_options(4, {"target": 7}) == {"target": 7}
    assert K.OPTIONS[0]["name"] == "target" and K.OPTIONS[0]["default"] == 12


@pytest.mark.parametrize(
    ("seat", "action", "message"),
    [
        (2, {"type": "play", "card": "QD"}, "not your turn"),
        (1, {"type": "play", "card": "AH"}, "do not hold"),
        (1, {"type": "play", "card": "KS"}, "do not hold"),
        (1, {"type": "play"}, "exactly one card"),
        (1, {"type": "play", "card": "9C", "also": 1}, "exactly one card"),
        (1, {"type": "bid", "amount": 3}, "only move"),
        (1, {"type": "pass"}, "only move"),
        (1, "9C", "only move"),
        (1, None, "only move"),
        (1, {"type": "play", "card": ["9C"]}, "do not hold"),
    ],
)
def test_it_refuses_illegal_actions_and_changes_nothing(seat: int, action: Any, message: str) -> None:
    state = start(trick_hands("H", ["9C", "3H", "KH"])[0])
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction, match=message):
        K.apply(state, seat, action)
    assert state == before


def test_it_refuses_a_card_already_played_and_any_play_after_the_end() -> None:
    state = play(start(_hand_won_by_team_one(), target=1), "JH", "2D", "2S", "2C")
    with pytest.raises(IllegalAction, match="do not hold"):
        K.apply(state, 1, {"type": "play", "card": "JH"})
    state = play(state, "6H", "3D", "3S", "3C", "2H", "4D", "4S", "4C")
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction, match="match is over"):
        K.apply(state, 1, {"type": "play", "card": "3H"})
    assert state == before


def test_it_shows_each_seat_what_the_digest_lists() -> None:
    hands = _hand_won_by_team_one()
    state = play(start(hands), "JH", "2D", "2S", "2C", "6H")
    seen = K.view(state, 1)
    assert seen["seat"] == 1 and seen["hand"] == ["2H", "3H", "QH"]
    assert seen["trick"] == [{"seat": 1, "card": "6H"}]
    assert seen["tricks"] == [
        {
            "leader": 1,
            "winner": 1,
            "cards": [
                {"seat": 1, "card": "JH"},
                {"seat": 2, "card": "2D"},
                {"seat": 3, "card": "2S"},
                {"seat": 0, "card": "2C"},
            ],
        }
    ]
    assert seen["taken"] == [0, 1]
    assert seen["scores"] == [0, 0, 0, 0] and seen["hands_won"] == [0, 0]
    assert seen["to_act"] == [2] and seen["dealer"] == 0 and seen["trump"] == "H"
    assert seen["hand_sizes"] == [4, 3, 4, 4]
    assert seen["teams"] == [[0, 2], [1, 3]] and seen["target"] == 12


def test_it_hides_other_hands_and_the_set_aside_cards_from_seats_and_spectators() -> None:
    state = play(start(_hand_won_by_team_one()), "JH", "2D")
    spectator = K.view(state, None)
    assert "seat" not in spectator and "hand" not in spectator
    for seat in [None, 0, 1, 2, 3]:
        shown = set(_strings(K.view(state, seat)))
        public = set(state["face_up"]) | {"JH", "2D"}
        for other in range(4):
            secret = set(state["hands"][other]) - public
            assert bool(shown & secret) == (other == seat)
        assert not shown & set(state["set_aside"])


def test_it_hides_the_cards_of_the_last_hand_once_they_are_reshuffled() -> None:
    state = play(start(_hand_won_by_team_one()), "JH", "2D", "2S", "2C", "6H", "3D", "3S", "3C", "2H", "4D", "4S", "4C")
    shown = set(_strings(K.view(state, None)))
    assert shown.isdisjoint(set(K.DECK) - set(state["face_up"]))
    assert K.view(state, None)["last_hand"]["trick_winners"] == [1, 1, 1]


def test_it_describes_plays_for_the_log() -> None:
    state = start(_hand_won_by_team_one())
    assert K.describe(state, 1, {"type": "play", "card": "JH"}) == "led J♥"
    state = play(state, "JH")
    assert K.describe(state, 2, {"type": "play", "card": "TD"}) == "played 10♦"
    assert K.card_label("KS") == "K♠"
    assert K.hand_index(state) == 0


def _strings(data: Any) -> list[str]:
    from tests.engine.invariants import strings_in

    return list(strings_in(data))


def test_it_refuses_a_view_for_a_seat_that_does_not_exist() -> None:
    with pytest.raises(ValueError, match="no seat 4"):
        K.view(K.new_match(4, seed=1), 4)
