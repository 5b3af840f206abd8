"""The engine contract, checked the same way for every game."""

from __future__ import annotations

import copy
import json

import pytest

import engine
from engine import GAMES, IllegalAction, get_game, karnoffel, rapscallion, renfield, rentz
from engine.cards import places_from_scores, validate_options

GAME_NAMES = sorted(GAMES)
FULL_DECKS = {
    "karnoffel": karnoffel.DECK,
    "rapscallion": rapscallion.PLAYING_DECK,
    "renfield": renfield.PLAYING_CARDS,
    "rentz": rentz.DECK,
}


def test_it_lists_all_four_games() -> None:
    assert set(GAMES) == {"renfield", "rentz", "karnoffel", "rapscallion"}


def test_it_names_the_known_games_for_an_unknown_one() -> None:
    with pytest.raises(KeyError) as info:
        get_game("poker")
    assert "karnoffel" in str(info.value)


def test_it_makes_illegal_action_a_value_error() -> None:
    assert issubclass(IllegalAction, ValueError)
    assert engine.IllegalAction is IllegalAction


@pytest.mark.parametrize("name", GAME_NAMES)
def test_it_has_the_module_conventions(name: str) -> None:
    game = get_game(name)
    assert name == game.NAME
    assert isinstance(game.TITLE, str) and game.TITLE
    assert 2 <= game.MIN_PLAYERS <= game.MAX_PLAYERS <= 8
    for entry in game.OPTIONS:
        assert {"name", "type", "default", "label"} <= set(entry)
    for fn in (
        "new_match",
        "to_act",
        "legal_actions",
        "apply",
        "view",
        "is_over",
        "outcome",
        "describe",
        "hand_index",
        "card_label",
        "validate_options",
    ):
        assert callable(getattr(game, fn)), fn


@pytest.mark.parametrize("name", GAME_NAMES)
def test_it_refuses_unknown_options_and_table_sizes(name: str) -> None:
    game = get_game(name)
    with pytest.raises(ValueError, match="no_such_option"):
        game.new_match(game.MIN_PLAYERS, {"no_such_option": 1}, seed=1)
    with pytest.raises(ValueError):
        game.new_match(game.MAX_PLAYERS + 1, None, seed=1)
    with pytest.raises(ValueError):
        game.new_match(game.MIN_PLAYERS - 1, None, seed=1)
    with pytest.raises(ValueError, match="deck"):
        game.new_match(game.MIN_PLAYERS, {"deck": ["not", "a", "deck"]}, seed=1)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_it_takes_the_seat_count_as_a_whole_number_only(name: str) -> None:
    game = get_game(name)
    for players in (float(game.MIN_PLAYERS), str(game.MIN_PLAYERS), True, None):
        with pytest.raises(ValueError):
            game.new_match(players, None, seed=1)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", GAME_NAMES)
def test_it_refuses_a_stacked_deck_with_a_card_repeated(name: str) -> None:
    game = get_game(name)
    deck = list(FULL_DECKS[name])
    deck[-1] = deck[0]  # the right size, but one card twice and one missing
    with pytest.raises(ValueError, match="deck"):
        game.new_match(game.MIN_PLAYERS, {"deck": deck}, seed=1)
    game.new_match(game.MIN_PLAYERS, {"deck": list(FULL_DECKS[name])}, seed=1)  # the deck itself is fine


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("seed", [0, -7, 2**70])
def test_it_takes_any_int_as_the_seed(name: str, seed: int) -> None:
    game = get_game(name)
    state = game.new_match(game.MIN_PLAYERS, None, seed=seed)
    assert state == game.new_match(game.MIN_PLAYERS, None, seed=seed)
    json.dumps(state)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_it_is_deterministic_from_the_seed(name: str) -> None:
    game = get_game(name)
    a = game.new_match(game.MIN_PLAYERS, None, seed=42)
    b = game.new_match(game.MIN_PLAYERS, None, seed=42)
    c = game.new_match(game.MIN_PLAYERS, None, seed=43)
    assert a == b
    assert a != c
    json.dumps(a)


def _containers(value: object) -> list:
    """Every list and dict inside ``value``, innermost first."""
    inside = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    found = [item for child in inside for item in _containers(child)]
    return [*found, value] if isinstance(value, list | dict) else found


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_state_shares_no_list_with_its_caller_or_the_schema(name: str) -> None:
    """Options a state keeps are its own: emptying the caller's lists, or the state's, changes nothing else."""
    game = get_game(name)
    schema = copy.deepcopy(game.OPTIONS)
    given = {o["name"]: copy.deepcopy(o["default"]) for o in game.OPTIONS if isinstance(o.get("default"), list | dict)}
    state = game.new_match(game.MIN_PLAYERS, given, seed=7)
    expected = copy.deepcopy(state)
    for item in _containers(given):  # the caller reuses its lists
        item.clear()
    assert state == expected
    for item in _containers(game.new_match(game.MIN_PLAYERS, None, seed=7).get("options", {})):
        item.clear()  # a careless holder of a state empties every list in its options
    assert schema == game.OPTIONS


@pytest.mark.parametrize("name", GAME_NAMES)
def test_it_gives_views_with_the_required_keys(name: str) -> None:
    game = get_game(name)
    players = game.MIN_PLAYERS
    state = game.new_match(players, None, seed=5)
    spectator = game.view(state, None)
    assert spectator["to_act"] == game.to_act(state)
    assert len(spectator["scores"]) == players
    assert "hand" not in spectator or not spectator["hand"]
    for seat in range(players):
        seated = game.view(state, seat)
        assert seated["seat"] == seat
        assert isinstance(seated["hand"], list)
        json.dumps(seated)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_it_never_mutates_the_state_and_refuses_out_of_turn(name: str) -> None:
    game = get_game(name)
    players = game.MIN_PLAYERS
    state = game.new_match(players, None, seed=9)
    frozen = copy.deepcopy(state)
    seat = game.to_act(state)[0]
    action = game.legal_actions(state, seat)[0]
    game.apply(state, seat, action)
    assert state == frozen
    waiting = [s for s in range(players) if s not in game.to_act(state)]
    for other in waiting:
        assert game.legal_actions(state, other) == []
        with pytest.raises(IllegalAction):
            game.apply(state, other, action)
        assert state == frozen


@pytest.mark.parametrize("name", GAME_NAMES)
def test_it_describes_actions_in_a_sentence(name: str) -> None:
    game = get_game(name)
    state = game.new_match(game.MIN_PLAYERS, None, seed=3)
    seat = game.to_act(state)[0]
    for action in game.legal_actions(state, seat)[:5]:
        text = game.describe(state, seat, action)
        assert isinstance(text, str) and text


def test_it_ranks_ties_sharing_a_place() -> None:
    assert places_from_scores([10, 30, 30, 5]) == [3, 1, 1, 4]
    assert places_from_scores([1, 1, 2], higher_is_better=False) == [1, 1, 3]


def test_it_validates_option_values_with_sentences() -> None:
    schema = [
        {"name": "target", "type": "int", "default": 12, "min": 1, "max": 50, "label": "Target"},
        {"name": "fast", "type": "bool", "default": False, "label": "Fast"},
        {"name": "mode", "type": "choice", "default": "a", "choices": ["a", "b"], "label": "Mode"},
    ]
    assert validate_options(None, schema, 4) == {"target": 12, "fast": False, "mode": "a"}
    assert validate_options({"target": 3}, schema, 4)["target"] == 3
    for bad, fragment in [
        ({"target": 0}, "between"),
        ({"target": "3"}, "whole number"),
        ({"fast": 1}, "true or false"),
        ({"mode": "c"}, "one of"),
        ({"x": 1}, "Unknown option"),
    ]:
        with pytest.raises(ValueError, match=fragment):
            validate_options(bad, schema, 4)
