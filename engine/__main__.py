"""Command line: ``python -m engine play …`` and ``python -m engine verify LOG.json``."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from engine import GAMES, get_game
from engine.bots import LEVELS
from engine.play import MAX_MATCH_STEPS, bot_players, play_out
from engine.replay import make_log, verify


def play_match(
    game_name: str, players: int, seed: int, levels: list[str], options: dict | None = None
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Play one whole match with bots; returns the final state and the action log."""
    game = get_game(game_name)
    actions: list[dict[str, Any]] = []
    state = play_out(
        game,
        game.new_match(players, options, seed=seed),
        choose=bot_players(game_name, levels, seed=seed),
        max_steps=MAX_MATCH_STEPS,
        on_decision=lambda d: actions.append({"seat": d.seat, "action": d.action}),
    )
    if not game.is_over(state):
        raise RuntimeError(f"The {game_name} match with seed {seed} did not end within {MAX_MATCH_STEPS} actions.")
    return state, actions


def _play(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    options = json.loads(args.options) if args.options else None
    levels = args.bots.split(",")
    for level in levels:
        if level not in LEVELS:
            raise SystemExit(f"Unknown bot level {level!r}; the levels are: {', '.join(LEVELS)}.")
    total_actions = 0
    started = time.perf_counter()
    for k in range(args.count):
        seed = args.seed + k
        state, actions = play_match(args.game, args.players, seed, levels, options)
        total_actions += len(actions)
        result = game.outcome(state)
        if args.log:
            with open(args.log if args.count == 1 else f"{args.log}.{k}", "w") as fh:
                json.dump(make_log(args.game, args.players, seed, options, actions, state), fh)
        if not args.quiet:
            print(
                json.dumps(
                    {"seed": seed, "actions": len(actions), "scores": result["scores"], "places": result["places"]}
                )
            )
    elapsed = time.perf_counter() - started
    summary = {"game": args.game, "matches": args.count, "actions": total_actions, "seconds": round(elapsed, 3)}
    print(json.dumps(summary))
    return 0


def _verify(args: argparse.Namespace) -> int:
    with open(args.log) as fh:
        log = json.load(fh)
    ok, message = verify(log)
    print(message)
    return 0 if ok else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description="Parlour's rules engine.")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play whole matches with bots and print the outcomes")
    play.add_argument("game", choices=sorted(GAMES))
    play.add_argument("--players", type=int, required=True)
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--bots", default="random", help="a level, or one per seat separated by commas")
    play.add_argument("--count", type=int, default=1)
    play.add_argument("--options", help="rule options as JSON")
    play.add_argument("--log", help="write the match log (for verify) to this file")
    play.add_argument("--quiet", action="store_true")
    play.set_defaults(func=_play)
    ver = sub.add_parser("verify", help="replay a match log and check it")
    ver.add_argument("log")
    ver.set_defaults(func=_verify)
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (ValueError, KeyError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
