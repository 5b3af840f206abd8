"""One driver for playing a match out with a policy: the command line, the benchmarks, the demo and the tests.

``play_out`` asks the first seat to act for a decision, applies it, and goes on
until the match is over, ``until(state)`` holds or ``max_steps`` decisions were
made. Who decides is the caller's ``choose(state, seat, legal)``; how a decision
is applied is ``game.apply`` unless the caller passes its own ``apply`` (the app
passes its move service, which records the move and plays forced moves).
``on_decision`` hears of every decision with the time ``choose`` took.

In a step where several seats act at once (sealed bids), they decide one
after another in the order ``to_act`` lists them.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from typing import NamedTuple

from engine import Game, get_game
from engine.protocol import Action, State

Choose = Callable[[State, int, list[Action]], Action]
Apply = Callable[[State, int, Action], State]

# Far more decisions than any game's longest match (a Rentz match takes about a thousand):
# a match still running after this many is an engine bug, not a long match.
MAX_MATCH_STEPS = 100_000


class Decision(NamedTuple):
    """One decision as ``on_decision`` hears of it: ``step`` counts from 0, ``seconds`` is the time ``choose`` took."""

    step: int
    seat: int
    legal: list[Action]
    action: Action
    seconds: float


def play_out(
    game: Game,
    state: State,
    *,
    choose: Choose,
    max_steps: int,
    apply: Apply | None = None,
    until: Callable[[State], bool] | None = None,
    on_decision: Callable[[Decision], None] | None = None,
) -> State:
    """The state once the match is over, ``until(state)`` holds, or ``max_steps`` decisions were made."""
    apply = apply or game.apply
    for step in range(max_steps):
        if game.is_over(state) or (until is not None and until(state)):
            break
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        started = time.perf_counter()
        action = choose(state, seat, legal)
        seconds = time.perf_counter() - started
        state = apply(state, seat, action)
        if on_decision is not None:
            on_decision(Decision(step, seat, legal, action, seconds))
    return state


def bot_players(game_name: str, levels: Sequence[str], *, seed: int | str) -> Choose:
    """Bots round the table (``levels[seat % len(levels)]``), each choosing from its own view only.

    The n-th decision of the match is seeded ``"{seed}:{n}"``, so a match replays exactly from its seed.
    """
    from engine import bots  # here, not at the top: the bots may play their rollouts with play_out

    game, numbers = get_game(game_name), itertools.count()

    def choose(state: State, seat: int, legal: list[Action]) -> Action:
        level = levels[seat % len(levels)]
        return bots.choose(game_name, level, game.view(state, seat), legal, seed=f"{seed}:{next(numbers)}")

    return choose
