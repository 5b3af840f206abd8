"""Engine throughput: seeded random playouts per game, printed as JSON.

    .venv/bin/python -m bench.engine [--seconds 5] [--game karnoffel]

Each configuration plays whole matches with uniformly random legal actions
through ``engine.play.play_out``, which calls ``to_act`` and ``legal_actions``
before every ``apply`` (as the app does), for about ``--seconds`` seconds on
one core. Target: at least 20,000 applied actions per second per game.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from typing import Any

from engine import GAMES, get_game
from engine.play import MAX_MATCH_STEPS, play_out

TARGET_ACTIONS_PER_SECOND = 20_000

CONFIGS: list[dict[str, Any]] = [
    {"game": "karnoffel", "players": 4, "options": {}},
    {"game": "rentz", "players": 4, "options": {}},
    {"game": "renfield", "players": 3, "options": {}},
    {"game": "renfield", "players": 5, "options": {}},
    {"game": "renfield", "players": 8, "options": {}},
    {"game": "renfield", "players": 5, "options": {"auction": True}},
    {"game": "renfield", "players": 5, "options": {"blaze": True}},
    {"game": "renfield", "players": 5, "options": {"death_card": True}},
    {"game": "renfield", "players": 5, "options": {"draw": True}},
    {"game": "renfield", "players": 5, "options": {"flatline": True}},
    {"game": "renfield", "players": 5, "options": {"stud": True}},
    {"game": "renfield", "players": 5, "options": {"wild_cards": True}},
    {"game": "renfield", "players": 5, "options": {"breathing_room": True}},
    {"game": "renfield", "players": 5, "options": {"buying_the_trick": True}},
    {"game": "rapscallion", "players": 2, "options": {}},
    {"game": "rapscallion", "players": 4, "options": {}},
    {"game": "rapscallion", "players": 6, "options": {}},
]


def playout(game: Any, players: int, options: dict, seed: int) -> int:
    rng = random.Random(seed)
    actions = 0

    def choose(_state: dict, _seat: int, legal: list) -> Any:
        nonlocal actions
        actions += 1
        return rng.choice(legal)

    play_out(game, game.new_match(players, options or None, seed=seed), choose=choose, max_steps=MAX_MATCH_STEPS)
    return actions


def run(config: dict[str, Any], seconds: float) -> dict[str, Any]:
    game = get_game(config["game"])
    matches = actions = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds or matches == 0:
        actions += playout(game, config["players"], config["options"], seed=matches)
        matches += 1
    elapsed = time.perf_counter() - started
    rate = actions / elapsed
    return {
        **config,
        "matches": matches,
        "actions": actions,
        "seconds": round(elapsed, 3),
        "actions_per_second": round(rate),
        "meets_target": rate >= TARGET_ACTIONS_PER_SECOND,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per configuration")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    args = parser.parse_args(argv)
    results = []
    for config in CONFIGS:
        if config["game"] not in GAMES or (args.game and config["game"] not in args.game):
            continue
        try:
            results.append(run(config, args.seconds))
        except ValueError as exc:  # an option this engine does not offer
            results.append({**config, "error": str(exc)})
    report = {
        "benchmark": "engine",
        "python": platform.python_version(),
        "target_actions_per_second": TARGET_ACTIONS_PER_SECOND,
        "results": results,
    }
    json.dump(report, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
