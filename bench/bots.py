"""Bot tournament: strong against basic, basic against random, per game; JSON out.

    .venv/bin/python -m bench.bots [--matches 40] [--game karnoffel] [--jobs 2]

Half the seats play level A and half level B, alternating round the table
(A, B, A, B: in Karnoffel that makes A one team); every other match swaps
them, so seat order favours no one. A match is a win for A when A's best place
beats B's best place, half a win when they share it. Win rates come with a 95%
Wilson interval; "clear" means the interval's lower bound is above 0.5. The
strong bot's decision times (its default budget) give the median and p95.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from engine import GAMES, get_game
from engine.play import MAX_MATCH_STEPS, Decision, bot_players, play_out

# Shorter matches than the defaults where a game allows it: the comparison is
# per match, and a strong seat thinks for up to a second per decision.
CONFIGS: dict[str, dict[str, Any]] = {
    # One hand a match, five times as many matches: a Karnoffel hand is short and
    # the strong bot's edge over basic is small, so it needs the larger sample.
    "karnoffel": {"players": 4, "options": {"target": 1}, "scale": 5},
    "rentz": {"players": 4, "options": {}},
    "renfield": {"players": 4, "options": {"hands": 4}},
    "rapscallion": {"players": 4, "options": {"target": 50}},
}
PAIRINGS = [("strong", "basic"), ("basic", "random")]


def play(game_name: str, players: int, options: dict, seed: int, levels: list[str]) -> dict[str, Any]:
    game = get_game(game_name)
    decisions: list[Decision] = []
    state = play_out(
        game,
        game.new_match(players, options or None, seed=seed),
        choose=bot_players(game_name, levels, seed=seed),
        max_steps=MAX_MATCH_STEPS,
        on_decision=decisions.append,
    )
    # A forced move is no decision: only real choices count towards the strong bot's times.
    times = [d.seconds for d in decisions if levels[d.seat] == "strong" and len(d.legal) > 1]
    return {"places": game.outcome(state)["places"], "times": times, "steps": len(decisions)}


def _match(args: tuple[str, int, dict, int, str, str]) -> tuple[float, list[float]]:
    game_name, players, options, seed, a, b = args
    swap = seed % 2 == 1
    levels = [(b if swap else a) if seat % 2 == 0 else (a if swap else b) for seat in range(players)]
    result = play(game_name, players, options, seed, levels)
    best_a = min(p for p, lvl in zip(result["places"], levels, strict=True) if lvl == a)
    best_b = min(p for p, lvl in zip(result["places"], levels, strict=True) if lvl == b)
    score = 1.0 if best_a < best_b else 0.5 if best_a == best_b else 0.0
    return score, result["times"]


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40, help="matches per pairing and game")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    args = parser.parse_args(argv)
    results = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for game_name, config in CONFIGS.items():
            if game_name not in GAMES or (args.game and game_name not in args.game):
                continue
            for a, b in PAIRINGS:
                count = args.matches * config.get("scale", 1)
                jobs = [(game_name, config["players"], config["options"], seed, a, b) for seed in range(count)]
                started = time.perf_counter()
                outcomes = list(pool.map(_match, jobs))
                wins = sum(score for score, _ in outcomes)
                times = [t for _, ts in outcomes for t in ts]
                low, high = wilson(wins, len(outcomes))
                entry: dict[str, Any] = {
                    "game": game_name,
                    "players": config["players"],
                    "options": config["options"],
                    "a": a,
                    "b": b,
                    "matches": len(outcomes),
                    "a_win_rate": round(wins / len(outcomes), 3),
                    "ci95": [round(low, 3), round(high, 3)],
                    "clear": low > 0.5,
                    "seconds": round(time.perf_counter() - started, 1),
                }
                if times:
                    entry["strong_decisions"] = len(times)
                    entry["strong_median_s"] = round(statistics.median(times), 3)
                    entry["strong_p95_s"] = round(percentile(times, 0.95), 3)
                results.append(entry)
                print(json.dumps(entry), file=sys.stderr)
    json.dump({"benchmark": "bots", "results": results}, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
