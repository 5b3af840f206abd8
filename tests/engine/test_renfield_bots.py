"""Renfield bots: legal choices from views, determinize faithful to the view,
choices blind to the hidden cards, and basic clearly better than random."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import engine.bots
from engine import renfield as game
from engine.__main__ import play_match
from engine.bots import choose
from engine.bots import renfield as policy

SETUPS: list[tuple[int, dict]] = [
    (3, {}),
    (5, {}),
    (8, {}),
    (4, {"auction": True}),
    (5, {"blaze": True}),
    (4, {"death_card": True}),
    (4, {"death_card": True, "death_all_suits": True}),
    (5, {"draw": True}),
    (3, {"flatline": True}),
    (4, {"flatline": True, "flatline_zeroes": True}),
    (6, {"stud": True}),
    (4, {"wild_cards": True}),
    (6, {"breathing_room": True}),
    (4, {"buying_the_trick": True}),
    (5, {"auction": True, "draw": True, "wild_cards": True, "death_card": True, "buying_the_trick": True}),
    (4, {"stud": True, "blaze": True, "wild_cards": True, "death_card": True}),
]


def states(players: int, options: dict, seed: int, every: int = 3) -> Iterator[tuple[dict, int]]:
    """States along a random match (sampling every few steps) and the seat to act."""
    rng = random.Random(seed)
    state = game.new_match(players, {**options, "hands": 2}, seed=seed)
    step = 0
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        if step % every == 0:
            yield state, seat
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        step += 1


@pytest.mark.parametrize(("players", "options"), SETUPS)
def test_it_determinizes_to_the_same_view_and_legal_actions(players: int, options: dict) -> None:
    rng = random.Random(1)
    checked = 0
    for seed in range(3):
        for state, seat in states(players, options, seed):
            seen = game.view(state, seat)
            det = policy.determinize(seen, rng)
            assert game.view(det, seat) == seen
            assert game.legal_actions(det, seat) == game.legal_actions(state, seat)
            assert sorted(
                det["deck"] + sum(det["hands"], []) + sum(det["laid_down"], []) + det["pack"] + det["draw_pile"]
            ) == sorted(
                state["deck"]
                + sum(state["hands"], [])
                + sum(state["laid_down"], [])
                + state["pack"]
                + state["draw_pile"]
            )
            checked += 1
    assert checked > 20


def test_it_keeps_shown_voids_in_the_determinized_hands() -> None:
    rng, found = random.Random(2), 0
    for seed in range(30):
        for state, seat in states(5, {}, seed, every=1):
            seen = game.view(state, seat)
            lacking = policy.voids(seen, policy.engine_options(seen))
            det = policy.determinize(seen, rng)
            for other, suits in lacking.items():
                if other != seat:
                    found += 1
                    assert not [c for c in det["hands"][other] if c[0] in suits]
                    assert not [c for c in state["hands"][other] if c[0] in suits]  # the oracle agrees
    assert found > 50


@pytest.mark.parametrize(("players", "options"), SETUPS)
def test_it_chooses_legal_actions_from_views(players: int, options: dict) -> None:
    for state, seat in states(players, options, seed=5, every=2):
        legal = game.legal_actions(state, seat)
        action = choose("renfield", "basic", game.view(state, seat), legal, seed=3)
        assert action in legal


def test_it_makes_strong_choose_legal_actions() -> None:
    for players, options in SETUPS[::3]:
        for i, (state, seat) in enumerate(states(players, options, seed=8, every=9)):
            if i % 3:
                continue
            legal = game.legal_actions(state, seat)
            action = choose("renfield", "strong", game.view(state, seat), legal, seed=i, playouts=4, time_limit=5)
            assert action in legal


@pytest.mark.parametrize("level", ["basic", "strong"])
def test_it_chooses_the_same_whatever_the_hidden_cards(level: str) -> None:
    rng = random.Random(4)
    compared = 0
    for players, options in SETUPS[:: 4 if level == "strong" else 1]:
        for i, (state, seat) in enumerate(states(players, options, seed=11, every=7)):
            legal = game.legal_actions(state, seat)
            if len(legal) < 2 or (level == "strong" and i % 2):
                continue
            other = policy.determinize(game.view(state, seat), rng)  # others' hidden cards reshuffled
            kwargs = {"playouts": 4, "time_limit": 30} if level == "strong" else {}
            mine = choose("renfield", level, game.view(state, seat), legal, seed=i, **kwargs)
            theirs = choose(
                "renfield", level, game.view(other, seat), game.legal_actions(other, seat), seed=i, **kwargs
            )
            assert mine == theirs
            compared += 1
    assert compared > 5


def test_it_bids_a_dollar_as_dealer_rather_than_pay_five() -> None:
    state = game.new_match(3, {"hands": 1}, seed=1)
    state = game.apply(game.apply(state, 1, {"type": "pass"}), 2, {"type": "pass"})
    action = policy.basic(game.view(state, 0), game.legal_actions(state, 0), random.Random(0))
    assert action == {"type": "bid", "amount": 1}


def takes_the_trick(view: dict, opts: dict, action: dict) -> bool:
    """Whether playing ``action`` now would take the trick, by the engine's own rule (``winner_of``)."""
    play = {k: v for k, v in action.items() if k != "type"} | {"seat": view["seat"]}
    return game.winner_of(view["trick"] + [play], view["order"], opts) == view["seat"]


def test_it_ducks_once_it_has_a_bug() -> None:
    checked = 0
    for state, seat in states(4, {}, seed=21, every=1):
        if state["phase"] == "play" and state["bugs"][seat] and state["trick"]:
            legal = game.legal_actions(state, seat)
            seen = game.view(state, seat)
            opts = policy.engine_options(seen)
            ducks = [a for a in legal if a["type"] == "play" and not takes_the_trick(seen, opts, a)]
            if ducks:
                action = policy.basic(seen, legal, random.Random(0))
                assert action in ducks
                checked += 1
    assert checked, "the playout never reached a seat with a bug that could duck"


def test_it_beats_random_play_clearly() -> None:
    totals = {"basic": 0, "random": 0}
    for seed in range(30):
        state, _ = play_match("renfield", 4, seed, ["basic", "random"], None)
        for seat, score in enumerate(game.outcome(state)["scores"]):
            totals["basic" if seat % 2 == 0 else "random"] += score
    assert totals["basic"] > 0 > totals["random"]
    assert totals["basic"] > 2000


def test_it_plays_a_match_with_every_level(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine.bots, "DEFAULT_PLAYOUTS", 6)
    for options in ({"hands": 1}, {"hands": 1, "draw": True, "auction": True, "wild_cards": True}):
        state, actions = play_match("renfield", 3, 2, ["strong", "basic", "random"], options)
        assert game.is_over(state) and actions
