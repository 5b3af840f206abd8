"""The one driver for bot play (``engine.play``) and replaying a match to any step (``engine.replay.state_at``)."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from engine import GAMES, IllegalAction, get_game
from engine.__main__ import play_match
from engine.bots import choose as bot_choose
from engine.play import Decision, bot_players, play_out
from engine.replay import state_at

GAME_NAMES = sorted(GAMES)


def _random(seed: int) -> Any:
    rng = random.Random(seed)
    return lambda _state, _seat, legal: rng.choice(legal)


def _reference_match(name: str, players: int, seed: int, levels: list[str]) -> list[dict[str, Any]]:
    """The loop the command line used before the driver: every seat to act, in order, seeded by the step."""
    game = get_game(name)
    state, actions = game.new_match(players, None, seed=seed), list[dict[str, Any]]()
    while not game.is_over(state):
        for seat in game.to_act(state):
            legal = game.legal_actions(state, seat)
            level = levels[seat % len(levels)]
            action = bot_choose(name, level, game.view(state, seat), legal, seed=f"{seed}:{len(actions)}")
            state = game.apply(state, seat, action)
            actions.append({"seat": seat, "action": action})
            if game.is_over(state):
                break
    return actions


@pytest.mark.parametrize("name", GAME_NAMES)
def test_it_plays_the_same_matches_as_the_command_line_did_before(name: str) -> None:
    players = get_game(name).MIN_PLAYERS
    for seed, levels in ((1, ["random"]), (2, ["basic"]), (3, ["basic", "random"])):
        state, actions = play_match(name, players, seed, levels)
        assert actions == _reference_match(name, players, seed, levels)
        assert get_game(name).is_over(state)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_it_tells_the_hook_every_decision_and_the_decisions_replay_to_the_final_state(name: str) -> None:
    game = get_game(name)
    start = game.new_match(game.MIN_PLAYERS, None, seed=4)
    heard: list[Decision] = []
    final = play_out(game, start, choose=_random(4), max_steps=100_000, on_decision=heard.append)
    assert game.is_over(final)
    assert [d.step for d in heard] == list(range(len(heard)))
    assert all(d.action in d.legal and d.seconds >= 0 for d in heard)
    actions = [{"seat": d.seat, "action": d.action} for d in heard]
    assert state_at(name, game.MIN_PLAYERS, None, 4, actions) == final


def test_it_stops_after_max_steps_or_when_until_holds() -> None:
    game = get_game("rentz")
    start = game.new_match(4, None, seed=1)
    heard: list[Decision] = []
    play_out(game, start, choose=_random(1), max_steps=7, on_decision=heard.append)
    assert len(heard) == 7
    heard.clear()
    state = play_out(
        game,
        start,
        choose=_random(1),
        max_steps=1_000,
        on_decision=heard.append,
        until=lambda s: 2 in game.to_act(s) and len(heard) >= 5,
    )
    assert 2 in game.to_act(state) and len(heard) >= 5 and not game.is_over(state)
    assert play_out(game, start, choose=_random(1), max_steps=1_000, until=lambda s: True) is start


def test_it_applies_through_the_callers_apply_and_goes_on_from_what_it_returns() -> None:
    """The app passes its move service, which may play forced moves after the chosen one."""
    game = get_game("karnoffel")
    start = game.new_match(4, None, seed=2)
    calls: list[int] = []

    def apply_and_play_forced(state: dict, seat: int, action: dict) -> dict:
        calls.append(seat)
        state = game.apply(state, seat, action)
        while not game.is_over(state) and len(legal := game.legal_actions(state, game.to_act(state)[0])) == 1:
            state = game.apply(state, game.to_act(state)[0], legal[0])
        return state

    heard: list[Decision] = []
    final = play_out(
        game, start, choose=_random(2), apply=apply_and_play_forced, max_steps=100_000, on_decision=heard.append
    )
    assert game.is_over(final) and calls == [d.seat for d in heard]
    assert all(len(d.legal) > 1 for d in heard[1:]), "forced moves were played by the apply, not asked for"


def test_seats_acting_at_once_decide_in_seat_order() -> None:
    game = get_game("rapscallion")
    state = game.new_match(4, None, seed=3)
    state = play_out(game, state, choose=_random(3), max_steps=1_000, until=lambda s: len(game.to_act(s)) > 1)
    waiting = game.to_act(state)
    assert len(waiting) > 1, "the setup needs a step where several seats act at once"
    heard: list[Decision] = []
    play_out(game, state, choose=_random(3), max_steps=len(waiting), on_decision=heard.append)
    assert [d.seat for d in heard] == waiting


def test_it_times_each_decision_for_the_hook() -> None:
    game = get_game("renfield")
    slow = _random(5)

    def thinking(state: dict, seat: int, legal: list) -> dict:
        time.sleep(0.01)
        return slow(state, seat, legal)

    heard: list[Decision] = []
    play_out(game, game.new_match(3, None, seed=5), choose=thinking, max_steps=3, on_decision=heard.append)
    assert len(heard) == 3 and all(d.seconds >= 0.01 for d in heard)


def test_bots_choose_from_their_own_view_seeded_by_the_decision_number(monkeypatch: pytest.MonkeyPatch) -> None:
    game = get_game("karnoffel")
    state = game.new_match(4, None, seed=6)
    seen: list[tuple[str, dict, str]] = []

    def spy(name: str, level: str, view: dict, legal: list, *, seed: int | str) -> dict:
        seen.append((level, view, str(seed)))
        return legal[0]

    monkeypatch.setattr("engine.bots.choose", spy)
    play_out(game, state, choose=bot_players("karnoffel", ["basic", "random"], seed=6), max_steps=3)
    seats = [view["seat"] for _, view, _ in seen]
    assert [level for level, _, _ in seen] == [["basic", "random"][s % 2] for s in seats]
    assert seen[0][1] == game.view(state, seats[0])
    assert [seed for _, _, seed in seen] == ["6:0", "6:1", "6:2"]


def test_state_at_stops_at_the_ply_and_names_an_illegal_step() -> None:
    name = "karnoffel"
    state, actions = play_match(name, 4, 8, ["random"])
    game = get_game(name)
    expected = game.new_match(4, None, seed=8)
    for entry in actions[:5]:
        expected = game.apply(expected, entry["seat"], entry["action"])
    assert state_at(name, 4, {}, 8, actions, 5) == expected
    assert state_at(name, 4, None, 8, actions, 0) == game.new_match(4, None, seed=8)
    assert state_at(name, 4, None, 8, actions) == state
    wrong = [*actions[:2], {"seat": (actions[2]["seat"] + 1) % 4, "action": actions[2]["action"]}]
    with pytest.raises(IllegalAction, match="Step 3"):
        state_at(name, 4, None, 8, wrong)
