"""Match logs: replay a recorded match from its seed, options and actions.

A log is JSON::

    {"game": "karnoffel", "players": 4, "seed": 7, "options": {...},
     "actions": [{"seat": 0, "action": {"type": "play", "card": "7H"}}, ...],
     "state_hash": "…", "outcome": {...}}

``state_hash`` and ``outcome`` are optional; when present, ``verify`` checks
that the replay reproduces them. ``format`` says which shape of the engine's
state ``state_hash`` was taken of: a log of an older format (or none, the first)
is checked on its seed hash, every action and its outcome, not on the state hash,
so exports made before a state's shape changed still verify.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from engine import IllegalAction, get_game

# The shape of the states whose hash a log records; raised whenever a game's state keys change.
LOG_FORMAT = 2


def canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def state_hash(state: dict[str, Any]) -> str:
    return hashlib.sha256(canonical(state).encode()).hexdigest()


def seed_hash(seed: int | str) -> str:
    """The commitment shown at the table before the deal is revealed."""
    return hashlib.sha256(f"parlour-seed:{seed}".encode()).hexdigest()


def replay(log: dict[str, Any]) -> dict[str, Any]:
    """The state after every action of the log; IllegalAction names the bad step."""
    return state_at(log["game"], log["players"], log.get("options"), log["seed"], log["actions"])


def state_at(
    game_name: str,
    players: int,
    options: dict[str, Any] | None,
    seed: int,
    actions: Sequence[Mapping[str, Any]],
    ply: int | None = None,
) -> dict[str, Any]:
    """The state after the first ``ply`` actions (all of them when None); IllegalAction names the bad step.

    ``actions`` are ``{"seat": ..., "action": ...}`` mappings, as in a log or the match's moves.
    """
    game = get_game(game_name)
    state = game.new_match(players, options or None, seed=seed)
    for number, entry in enumerate(actions[:ply]):
        try:
            state = game.apply(state, entry["seat"], entry["action"])
        except IllegalAction as exc:
            raise IllegalAction(f"Step {number + 1} (seat {entry['seat']}) is not legal: {exc}") from exc
    return state


def make_log(game_name: str, players: int, seed: int | str, options: dict | None, actions: list, state: dict) -> dict:
    game = get_game(game_name)
    log = {
        "game": game_name,
        "players": players,
        "seed": seed,
        "seed_hash": seed_hash(seed),
        "options": options or {},
        "actions": actions,
        "state_hash": state_hash(state),
        "format": LOG_FORMAT,
    }
    if game.is_over(state):
        log["outcome"] = game.outcome(state)
    return log


def verify(log: dict[str, Any]) -> tuple[bool, str]:
    """Replay ``log`` and say whether it reproduces what it recorded."""
    try:
        state = replay(log)
    except (IllegalAction, KeyError, ValueError) as exc:
        return False, str(exc)
    game = get_game(log["game"])
    if "seed_hash" in log and log["seed_hash"] != seed_hash(log["seed"]):
        return False, "The seed does not match the seed hash shown at the table."
    same_shape = log.get("format", 1) == LOG_FORMAT
    if same_shape and "state_hash" in log and log["state_hash"] != state_hash(state):
        return False, "The replayed state differs from the recorded one."
    if "outcome" in log:
        if not game.is_over(state):
            return False, "The log records an outcome but the replayed match is not over."
        if canonical(game.outcome(state)) != canonical(log["outcome"]):
            return False, "The replayed outcome differs from the recorded one."
    steps = len(log["actions"])
    return (
        True,
        f"OK: {steps} actions replayed; the match {'is over' if game.is_over(state) else 'is still in progress'}.",
    )
