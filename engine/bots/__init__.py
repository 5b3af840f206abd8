"""Bots that choose from ``view(state, seat)`` alone, never the full state.

Three levels, the same for every game:

- ``random``: a uniformly random legal action.
- ``basic``: the game's own sensible rules, in ``engine/bots/<game>.py``
  (``basic(view, legal, rng) -> action``).
- ``strong``: determinized Monte Carlo search. It samples the unseen cards
  consistently with the bot's own view (the game's ``determinize(view, rng)``,
  which samples only the game's ``PRIVATE_FIELDS`` and rebuilds the state with
  the game's ``state_from_view``),
  tries each legal action, plays the rest of the hand out with ``basic`` for
  every seat, and keeps the action with the best average result for itself.

A bot never sees the state: ``choose`` takes the seat's view and the seat's
legal actions (which the seat knows anyway) and a seed, so a bot's choice is a
pure function of what that seat may see.
"""

from __future__ import annotations

import importlib
import random
import time
from types import ModuleType
from typing import Any

from engine import Game, get_game

LEVELS = ("random", "basic", "strong")
DEFAULT_PLAYOUTS = 64  # total determinized playouts per decision at "strong"; a game's
# policy module may set STRONG_PLAYOUTS where its playouts are cheap (bench/bots.py measures both)
DEFAULT_TIME_LIMIT = 0.8  # seconds; a cap on top of the playout budget
MAX_ROLLOUT_STEPS = 2_000


def policy_module(game_name: str) -> ModuleType:
    return importlib.import_module(f"engine.bots.{game_name}")


def choose(
    game_name: str,
    level: str,
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    *,
    seed: int | str = 0,
    playouts: int | None = None,
    time_limit: float | None = None,
) -> dict[str, Any]:
    """The action a bot of ``level`` takes, from the seat's view and legal actions."""
    if not legal:
        raise ValueError("The bot has nothing to do: no legal actions.")
    if level not in LEVELS:
        raise ValueError(f"Unknown bot level {level!r}; the levels are: {', '.join(LEVELS)}.")
    rng = random.Random(f"bot:{seed}")
    if len(legal) == 1:
        return legal[0]
    if level == "random":
        return rng.choice(legal)
    policy = policy_module(game_name)
    if level == "basic":
        return policy.basic(view, legal, rng)
    return strong(game_name, view, legal, rng, playouts=playouts, time_limit=time_limit)


def strong(
    game_name: str,
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    rng: random.Random,
    *,
    playouts: int | None = None,
    time_limit: float | None = None,
) -> dict[str, Any]:
    game = get_game(game_name)
    policy = policy_module(game_name)
    seat = view["seat"]
    budget = playouts or int(getattr(policy, "STRONG_PLAYOUTS", DEFAULT_PLAYOUTS))
    deadline = time.perf_counter() + (time_limit or DEFAULT_TIME_LIMIT)
    per_action = max(2, budget // len(legal))
    totals = [0.0] * len(legal)
    counts = [0] * len(legal)
    for _round in range(per_action):
        # One determinization per round, shared by all actions: a fairer
        # comparison than an independent sample per action.
        sample = policy.determinize(view, rng)
        for i, action in enumerate(legal):
            totals[i] += _playout(game, policy, sample, seat, action, rng)
            counts[i] += 1
        if time.perf_counter() > deadline:
            break
    best = max(range(len(legal)), key=lambda i: (totals[i] / counts[i], -i))
    return legal[best]


def _playout(
    game: Game, policy: ModuleType, state: Any, seat: int, action: dict[str, Any], rng: random.Random
) -> float:
    hand = game.hand_index(state)
    state = game.apply(state, seat, action)
    for _ in range(MAX_ROLLOUT_STEPS):
        if game.is_over(state) or game.hand_index(state) != hand:
            break
        for actor in game.to_act(state):
            actor_view = game.view(state, actor)
            options = game.legal_actions(state, actor)
            choice = options[0] if len(options) == 1 else policy.basic(actor_view, options, rng)
            state = game.apply(state, actor, choice)
            if game.is_over(state) or game.hand_index(state) != hand:
                break
    return utility(game, policy, state, seat)


def utility(game: Game, policy: ModuleType, state: Any, seat: int) -> float:
    """How good ``state`` is for ``seat``: the game's own measure if it has one."""
    if hasattr(policy, "utility"):
        return policy.utility(state, seat)
    scores = game.view(state, None)["scores"]
    others = [s for i, s in enumerate(scores) if i != seat]
    return scores[seat] - sum(others) / len(others)
