"""The conventions every game module keeps beyond the contract, checked alike for all.

- Each module satisfies ``engine.Game`` (mypy checks the same in ``engine/protocol.py``).
- Views are allow-lists: every state key is in ``PUBLIC_FIELDS`` or
  ``PRIVATE_FIELDS``; public keys are copied into every view, private ones never.
- ``state_from_view(view, private)`` rebuilds the full state for every seat.
- Actions compare type for type: ``True`` is not ``1``, ``1.0`` is not ``1``.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine import GAMES, Game, IllegalAction, get_game, karnoffel, rapscallion, rentz
from engine.cards import action_in, is_whole, json_copy

GAME_NAMES = sorted(GAMES)
# Short matches with a few table sizes, so every phase is reached quickly.
TABLES: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "karnoffel": [(4, {"target": 2})],
    "rentz": [(4, {})],
    "rapscallion": [(2, {"target": 10}), (6, {"target": 10})],
    "renfield": [(3, {}), (5, {"auction": True})],
}

# Typed assignments: mypy reports a module that no longer satisfies Game.
_karnoffel: Game = karnoffel
_rentz: Game = rentz
_rapscallion: Game = rapscallion


def states_along_playouts(name: str, seeds: range = range(2), every: int = 1) -> Iterator[Any]:
    """Every ``every``-th state of seeded random matches, the final state included."""
    game = get_game(name)
    for players, options in TABLES[name]:
        for seed in seeds:
            rng = random.Random(seed)
            state = game.new_match(players, options, seed=seed)
            step = 0
            while not game.is_over(state):
                if step % every == 0:
                    yield state
                seat = rng.choice(game.to_act(state))
                state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
                step += 1
            yield state


def seats_of(game: Game, state: Any) -> list[int | None]:
    return [None, *range(len(game.view(state, None)["scores"]))]


@pytest.mark.parametrize("name", GAME_NAMES)
def test_it_satisfies_the_game_protocol(name: str) -> None:
    game = get_game(name)
    assert isinstance(game, Game)
    assert isinstance(game.PUBLIC_FIELDS, tuple) and isinstance(game.PRIVATE_FIELDS, tuple)
    assert not set(game.PUBLIC_FIELDS) & set(game.PRIVATE_FIELDS)


def test_it_finds_a_module_that_lacks_a_convention() -> None:
    class Partial:
        NAME = "partial"

    assert not isinstance(Partial(), Game)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_it_declares_every_state_key_public_or_private(name: str) -> None:
    game = get_game(name)
    declared = set(game.PUBLIC_FIELDS) | set(game.PRIVATE_FIELDS)
    for state in states_along_playouts(name, every=7):
        undeclared = set(state) - declared
        assert not undeclared, f"state keys in neither PUBLIC_FIELDS nor PRIVATE_FIELDS: {sorted(undeclared)}"
        assert set(state) == declared, f"declared keys the state lacks: {sorted(declared - set(state))}"


@pytest.mark.parametrize("name", GAME_NAMES)
def test_it_copies_the_public_keys_into_every_view_and_never_a_private_key(name: str) -> None:
    game = get_game(name)
    for state in states_along_playouts(name, every=5):
        for seat in seats_of(game, state):
            shown = game.view(state, seat)
            # A relabelled key (Renfield's options, cards by label) is checked by the rebuild test below.
            as_is = [k for k in game.PUBLIC_FIELDS if k not in getattr(game, "RELABELLED_FIELDS", ())]
            assert {k: shown[k] for k in as_is} == {k: state[k] for k in as_is}
            assert set(game.PUBLIC_FIELDS) <= set(shown)
            assert not set(shown) & set(game.PRIVATE_FIELDS), f"view of {seat} has a private key"


@pytest.mark.parametrize("name", GAME_NAMES)
def test_it_rebuilds_the_state_from_any_seats_view_and_the_private_parts(name: str) -> None:
    game = get_game(name)
    for state in states_along_playouts(name, every=3):
        private = {k: state[k] for k in game.PRIVATE_FIELDS}
        for seat in seats_of(game, state):
            assert game.state_from_view(game.view(state, seat), private) == state


@pytest.mark.parametrize("name", GAME_NAMES)
def test_it_refuses_private_parts_that_miss_or_add_a_key(name: str) -> None:
    game = get_game(name)
    state = game.new_match(game.MIN_PLAYERS, None, seed=4)
    private = {k: state[k] for k in game.PRIVATE_FIELDS}
    shown = game.view(state, 0)
    missing = dict(private)
    missing.pop(game.PRIVATE_FIELDS[0])
    with pytest.raises(KeyError):
        game.state_from_view(shown, missing)
    with pytest.raises(KeyError):
        game.state_from_view(shown, {**private, "new_secret": 1})


@pytest.mark.parametrize("name", GAME_NAMES)
def test_it_gives_views_that_cannot_reach_the_state(name: str) -> None:
    game = get_game(name)
    for state in states_along_playouts(name, seeds=range(1), every=11):
        frozen = copy.deepcopy(state)
        shown = game.view(state, 0)
        for key in game.PUBLIC_FIELDS:
            if isinstance(shown[key], list):
                shown[key].append("edited")
            elif isinstance(shown[key], dict):
                shown[key]["edited"] = 1
        shown["hand"].append("edited")
        assert state == frozen


# --- whole numbers and type-strict actions (security review, finding 11) -----


def test_it_compares_actions_type_for_type() -> None:
    legal = [{"type": "bid", "amount": 1}, {"type": "play", "card": "7H"}]
    assert action_in({"type": "bid", "amount": 1}, legal)
    assert action_in({"amount": 1, "type": "bid"}, legal)
    assert {"type": "bid", "amount": True} in legal and {"type": "bid", "amount": 1.0} in legal  # why the helper exists
    for odd in ({"type": "bid", "amount": True}, {"type": "bid", "amount": 1.0}, {"type": "bid", "amount": "1"},
                {"type": "play", "card": ["7H"]}, {"type": "play"}, "play", None, [legal[0]]):  # fmt: skip
        assert not action_in(odd, legal), odd
    nested = [{"type": "order", "cards": ["7H", 2]}]
    assert action_in({"type": "order", "cards": ["7H", 2]}, nested)
    assert not action_in({"type": "order", "cards": ["7H", 2.0]}, nested)


def test_it_counts_only_ints_as_whole_numbers() -> None:
    assert is_whole(0) and is_whole(-3) and is_whole(10**20)
    assert not any(is_whole(x) for x in (True, False, 1.0, "1", None, [1]))


def _odd_values(value: Any) -> list[Any]:
    """Values Python's ``==`` may mistake for ``value``, and other wrong types."""
    if isinstance(value, bool):
        return [int(value), str(value).lower()]
    if isinstance(value, int):
        odd: list[Any] = [float(value), str(value), [value]]
        return odd + ([bool(value)] if value in (0, 1) else [])
    if isinstance(value, str):
        return [True, 1, 1.0, None, [value]]
    return []


@pytest.mark.parametrize("name", GAME_NAMES)
def test_it_refuses_bools_floats_and_strings_in_place_of_a_number_or_a_card(name: str) -> None:
    game = get_game(name)
    tried = 0
    for state in states_along_playouts(name, seeds=range(1), every=13):
        for seat in game.to_act(state):
            frozen = json_copy(state)
            for action in game.legal_actions(state, seat)[:6]:
                for key, value in action.items():
                    for odd in _odd_values(value) if key != "type" else []:
                        bad = {**action, key: odd}
                        with pytest.raises(IllegalAction):
                            game.apply(state, seat, bad)
                        tried += 1
            assert state == frozen
    assert tried > 50


@pytest.mark.parametrize("name", GAME_NAMES)
def test_it_refuses_a_seat_given_as_a_bool_a_float_or_a_string(name: str) -> None:
    game = get_game(name)
    for state in states_along_playouts(name, seeds=range(1), every=29):
        seat = game.to_act(state)[0] if game.to_act(state) else None
        if seat not in (0, 1):
            continue  # True and False stand for seats 1 and 0 only
        frozen = json_copy(state)
        action = game.legal_actions(state, seat)[0]
        for odd in (bool(seat), float(seat), str(seat)):
            assert game.legal_actions(state, odd) == []
            with pytest.raises(IllegalAction):
                game.apply(state, odd, action)
            with pytest.raises(ValueError):
                game.view(state, odd)
        assert state == frozen


def test_it_keeps_no_module_level_cache_keyed_on_id() -> None:
    """A cache keyed on ``id(state)`` hands a new state an old one's entry once ids are reused."""
    engine_dir = Path(__file__).resolve().parents[2] / "engine"
    offenders = [
        f"{path.relative_to(engine_dir.parent)}:{number}"
        for path in sorted(engine_dir.rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"\bid\(", line)
    ]
    assert not offenders, f"id() in the engine: {offenders}"
