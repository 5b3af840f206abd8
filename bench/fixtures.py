"""Fixtures: the draw's repeated meetings against the best of many random draws and a lower bound.

    .venv/bin/python -m bench.fixtures [--draws 1000] [--seats 2-8] [--entrants 3-40] [--rounds 1-10] [--fill bots]

For every table size the games allow (Rapscallion 2-6, Renfield 3-8, Rentz and Karnoffel 4), entrant
count and round count in the ranges, ``leagues.fixtures.schedule`` draws the season (seed 1) and the
result is measured by ``repeated_pairs``: the sum over pairs of entrants of max(0, times they shared a
table - 1).

- ``random``: the best of ``--draws`` random draws by the same rules (each round the entrants shuffled
  into the same tables, byes taken in turn, the tables with more bots to whoever had the fewest bot
  seats so far); ``random_any_bots``: the same without the bot-seat rule. One set of draws of the
  longest season serves every round count: its first r rounds are a random r-round draw.
- ``bound``: ``leagues.fixtures.lower_bound`` (pair slots minus distinct pairs, per entrant, and
  again-at-a-table counts); ``counting``: the first of those alone.
- ``bot_seat_spread``: most minus fewest bot seats of an entrant (the rule: at most 1).
- ``ms``: the time the draw took; ``ms_40_4_10`` and ``cpu_ms_40_4_10``: 40 entrants at fours over
  ten rounds, median of five seeds, wall clock and this process's CPU (target: well under a second).

Prints JSON: a summary (how many sizes beat or tie the random draws, reach the bound, the worst
gaps) and, with ``--all``, every size.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from typing import Any, Literal

from leagues.fixtures import bot_seats, lower_bound, repeated_pairs, schedule

Fill = Literal["bots", "byes"]


def _span(text: str) -> range:
    low, _, high = text.partition("-")
    return range(int(low), int(high or low) + 1)


def _caps(n: int, size: int, fill: Fill) -> tuple[list[int], int]:
    if fill == "byes":
        return [size] * (n // size), n % size
    tables = -(-n // size)
    base, extra = divmod(n, tables)
    return [base + 1] * extra + [base] * (tables - extra), 0


def best_random(n: int, size: int, rounds: int, fill: Fill, draws: int, rng: random.Random, *, fair: bool) -> list[int]:
    """The fewest repeats of ``draws`` random draws, for each prefix of 1..rounds rounds.

    ``fair``: by the generator's rules, the short tables (more bots) go to those with the fewest bot
    seats so far, ties at random; otherwise anyone may sit with bots any number of times.
    """
    caps, byes = _caps(n, size, fill)
    best = [sys.maxsize] * rounds
    for _ in range(draws):
        met = [0] * n  # a bit per opponent met
        repeats = 0
        queue = list(range(n))
        rng.shuffle(queue)  # byes in turn: nobody sits out twice before everyone once
        short = [0] * n
        for r in range(rounds):
            out = {queue[(r * byes + i) % n] for i in range(byes)}
            order = [p for p in range(n) if p not in out]
            rng.shuffle(order)
            if fair:  # caps run fuller first: the last places are the short tables'
                order.sort(key=lambda p: -short[p])
                for p in order[sum(c for c in caps if c == caps[0]) :]:
                    short[p] += 1
            start = 0
            for cap in caps:
                table = order[start : start + cap]
                mask = sum(1 << p for p in table)
                for p in table:
                    repeats += (met[p] & mask).bit_count()  # each old pair seen from both ends
                    met[p] |= mask ^ (1 << p)
                start += cap
            best[r] = min(best[r], repeats // 2)
    return best


def measure(args: argparse.Namespace) -> dict[str, Any]:
    rows = []
    for size in _span(args.seats):
        for n in _span(args.entrants):
            if args.fill == "byes" and n < size:
                continue
            longest = max(_span(args.rounds))
            randoms = best_random(n, size, longest, args.fill, args.draws, random.Random(n * 100 + size), fair=True)
            free = best_random(n, size, longest, args.fill, args.draws, random.Random(n * 100 + size), fair=False)
            for rounds in _span(args.rounds):
                started = time.perf_counter()
                drawn = schedule(list(range(n)), table_size=size, rounds=rounds, fill=args.fill, seed=1)
                ms = (time.perf_counter() - started) * 1000
                faced = bot_seats(drawn)
                row = {
                    "seats": size,
                    "entrants": n,
                    "rounds": rounds,
                    "repeats": repeated_pairs(drawn),
                    "random": randoms[rounds - 1],
                    "random_any_bots": free[rounds - 1],
                    "bound": lower_bound(n, table_size=size, rounds=rounds, fill=args.fill),
                    "counting": max(
                        0, rounds * sum(c * (c - 1) // 2 for c in _caps(n, size, args.fill)[0]) - n * (n - 1) // 2
                    ),
                    "bot_seat_spread": max(faced[p] for p in range(n)) - min(faced[p] for p in range(n))
                    if args.fill == "bots"
                    else 0,
                    "ms": round(ms, 1),
                }
                rows.append(row)
    worse = [r for r in rows if r["repeats"] > r["random"]]
    tied_above_bound = [r for r in rows if r["repeats"] == r["random"] > r["bound"]]
    gaps = sorted((r for r in rows if r["repeats"] > r["bound"]), key=lambda r: r["repeats"] - r["bound"], reverse=True)
    times, cpu, big = [], [], []
    for seed in range(5):
        started, started_cpu = time.perf_counter(), time.process_time()
        big.append(repeated_pairs(schedule(list(range(40)), table_size=4, rounds=10, fill="bots", seed=seed)))
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    summary = {
        "sizes": len(rows),
        "worse_than_random": len(worse),
        "tied_with_random_above_bound": len(tied_above_bound),
        "beat_random": sum(r["repeats"] < r["random"] for r in rows),
        "at_bound": sum(r["repeats"] == r["bound"] for r in rows),
        "zero_where_bound_zero": f"{sum(r['repeats'] == 0 for r in rows if r['bound'] == 0)} of {sum(r['bound'] == 0 for r in rows)}",
        "bot_seat_spread_max": max(r["bot_seat_spread"] for r in rows),
        "worst_gaps": gaps[:15],
        "worse": worse[:20],
        "ties_above_bound": tied_above_bound[:20],
        "ms_median": statistics.median(r["ms"] for r in rows),
        "ms_max": max(rows, key=lambda r: r["ms"]),
        "ms_40_4_10": round(statistics.median(times), 1),
        "cpu_ms_40_4_10": round(statistics.median(cpu), 1),
        "repeats_40_4_10": big,
    }
    return {"summary": summary, "rows": rows if args.all else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=1000)
    parser.add_argument("--seats", default="2-8")
    parser.add_argument("--entrants", default="3-40")
    parser.add_argument("--rounds", default="1-10")
    parser.add_argument("--fill", choices=["bots", "byes"], default="bots")
    parser.add_argument("--all", action="store_true", help="print every size, not only the summary")
    args = parser.parse_args()
    started = time.perf_counter()
    result = measure(args)
    result["args"] = vars(args)
    result["python"] = platform.python_version()
    result["load_average"] = os.getloadavg()
    result["seconds"] = round(time.perf_counter() - started, 1)
    json.dump(result, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
