"""Renfield bot knowledge: a sensible ``basic`` policy and ``determinize``.

Both work from a seat's view alone. ``basic`` plays to take one small trick
and then duck (the most bugs instead in Blaze), keeps its bids cheap, and
folds once its bugs are out of the running. ``determinize`` deals the unseen
cards at random to where they may lie, keeping every suit a seat has shown
it lacks away from it.
"""

from __future__ import annotations

import random
from typing import Any

from engine import renfield as game

Action = dict[str, Any]
View = dict[str, Any]

FOLD_AT = 8  # doubled bugs beyond which a hand is rarely won: stop paying for tricks
SMALL_TRICK = 3  # bugs a bot with none yet gladly takes
CHEAP_BID = 3


def engine_options(view: View) -> dict[str, Any]:
    """The view's options with the named cards back as codes."""
    return game.options_from_view(view["options"])


def _bugs(view: View, card: str) -> int:
    return game.bugs_of(view["table"], card)


def _badness(view: View, card: str) -> int:
    """How much a card hurts its taker in the ordinary game."""
    return _bugs(view, card) * 2 + (6 if card[1:] == game.BUG_DOUBLER else 0)


# --- basic --------------------------------------------------------------------


def basic(view: View, legal: list[Action], rng: random.Random) -> Action:
    phase = view["phase"]
    policy = {
        "auction": _auction,
        "betting": _betting,
        "discard": _discard,
        "bidding": _bidding,
        "order": _order,
        "play": _play,
    }[phase]
    choice = policy(view, legal, rng)
    return choice if choice in legal else legal[0]


def _auction(view: View, legal: list[Action], rng: random.Random) -> Action:
    if legal[0]["type"] == "offer":
        blaze = view["options"]["blaze"]
        return min(legal, key=lambda a: _badness(view, a["card"]) * (1 if blaze else -1))
    card = view["auction"]["offer"]
    wanted = _bugs(view, card) >= 4 if view["options"]["blaze"] else _badness(view, card) <= 1
    bids = [a for a in legal if a["type"] == "bid" and a["amount"] <= CHEAP_BID]
    return bids[0] if wanted and bids else {"type": "pass"}


def _betting(view: View, legal: list[Action], rng: random.Random) -> Action:
    kinds = {a["type"] for a in legal}
    if "check" in kinds:
        return {"type": "check"}
    owed = view["betting"]["bet"] - view["betting"]["put"][view["seat"]]
    return {"type": "call"} if owed <= 2 * view["options"]["draw_bet"] else {"type": "fold"}


def _discard(view: View, legal: list[Action], rng: random.Random) -> Action:
    blaze = view["options"]["blaze"]
    for action in sorted(
        (a for a in legal if a["type"] == "discard"), key=lambda a: _badness(view, a["card"]) * (1 if blaze else -1)
    ):
        worth = _badness(view, action["card"])
        if (blaze and worth <= 2) or (not blaze and worth >= 8):
            return action
    return {"type": "draw"}


def _bidding(view: View, legal: list[Action], rng: random.Random) -> Action:
    b, seat = view["bidding"], view["seat"]
    bids = [a for a in legal if a["type"] == "bid"]
    if not bids:
        return {"type": "pass"}
    if view["options"]["blaze"]:
        estimate = sum(_bugs(view, c) for c in view["hand"] if game.rank_of(c) >= 11) // 2
        return bids[0] if bids[0]["amount"] <= estimate else {"type": "pass"}
    last = b["seq"][-1] == seat
    strong = sum(1 for c in view["hand"] if game.rank_of(c) >= 13) >= 3
    if (last and b["by"] is None) or (strong and bids[0]["amount"] <= CHEAP_BID):
        return bids[0]  # the dealer's $1 beats the house's $5
    return {"type": "pass"}


def _order(view: View, legal: list[Action], rng: random.Random) -> Action:
    strength = {s: sum(game.rank_of(c) for c in view["hand"] if c[0] == s) for s in game.SUITS}
    return {"type": "order", "suits": sorted(game.SUITS, key=lambda s: -strength[s])}


def _play(view: View, legal: list[Action], rng: random.Random) -> Action:
    seat, opts = view["seat"], engine_options(view)
    plays = [a for a in legal if a["type"] == "play"]
    wins = {i: _would_win(view, opts, a) for i, a in enumerate(plays)}
    winning = [a for i, a in enumerate(plays) if wins[i]]
    ducking = [a for i, a in enumerate(plays) if not wins[i]]
    if not plays:
        return legal[0]
    if opts["blaze"]:
        return max(winning, key=lambda a: game.played_as(a)[1]) if winning else _lowest(ducking)
    trick_bugs = sum(_bugs(view, p["card"]) for p in view["trick"])
    mine = view["bugs"][seat]
    last = len(view["trick"]) == sum(view["in"]) - 1
    if mine == 0 and last and winning:
        best = min(winning, key=lambda a: _badness(view, a["card"]))
        if 1 <= trick_bugs + _bugs(view, best["card"]) <= SMALL_TRICK:
            return best
    if ducking:
        return max(ducking, key=lambda a: (game.played_as(a)[1], _badness(view, a["card"])))
    return _forced_win(view, legal, winning, trick_bugs)


def _forced_win(view: View, legal: list[Action], winning: list[Action], trick_bugs: int) -> Action:
    """Every card takes the trick (so far): fold or buy out when it is bad."""
    seat = view["seat"]
    total = game.bug_total(view["table"], view["taken"][seat])
    exits = [a for a in legal if a["type"] in ("fold", "buy")]
    if exits and (total >= FOLD_AT or trick_bugs >= FOLD_AT // 2):
        return exits[0]
    return min(winning, key=lambda a: (_badness(view, a["card"]), game.played_as(a)[1]))


def _lowest(plays: list[Action]) -> Action:
    return min(plays, key=lambda a: game.played_as(a)[1])


def _would_win(view: View, opts: dict[str, Any], action: Action) -> bool:
    play = {k: v for k, v in action.items() if k != "type"} | {"seat": view["seat"]}
    return game.winner_of(view["trick"] + [play], view["order"], opts) == view["seat"]


# --- determinize --------------------------------------------------------------


def voids(view: View, opts: dict[str, Any]) -> dict[int, set[str]]:
    """Suits each seat has shown it holds no natural card of this hand: it
    did not follow with a natural card, a wild played as the led suit or an
    all-suits Death card."""
    wild = set(opts["wilds"]) if opts["wild_cards"] else set()
    death = set(opts["death_cards"]) if opts["death_card"] else set()
    found: dict[int, set[str]] = {}
    tricks = [t["plays"] for t in view["tricks"]] + ([view["trick"]] if view["trick"] else [])
    for plays in tricks:
        led = game.played_as(plays[0])[0]
        for play in plays[1:]:
            card = play["card"]
            if card in death:
                follows = opts["death_all_suits"]
            else:
                follows = game.played_as(play)[0] == led if card in wild else card[0] == led
            if not follows:
                found.setdefault(play["seat"], set()).add(led)
    return found


def _seen(view: View) -> set[str]:
    seen = set(view["hand"]) | set(view["keys"]) | set(view["discards"]) | set(view["removed"])
    for cards in (*view["shown"], *view["taken"]):
        seen.update(cards)
    seen.update(p["card"] for p in view["trick"])
    if view["auction"] and view["auction"]["offer"]:
        seen.add(view["auction"]["offer"])
    return seen


def determinize(view: View, rng: random.Random) -> game.State:
    """A full state that fits ``view``: the unseen cards dealt at random to
    where they may lie, rebuilt through the engine's ``state_from_view`` so
    that only the private fields are sampled here."""
    seed = rng.getrandbits(48)
    opts, me = engine_options(view), view["seat"]
    unknown = [c for c in game.FULL_DECK if c not in _seen(view)]
    need = {p: view["hand_sizes"][p] - len(view["shown"][p]) for p in range(view["players"]) if p != me}
    hidden = _deal_unknown(unknown, need, voids(view, opts), opts, rng)
    hands = [
        list(view["hand"]) if p == me else game.sorted_cards(view["shown"][p] + hidden[p])
        for p in range(view["players"])
    ]
    rest, laid = hidden["rest"], []
    for count in view["laid_down_counts"]:
        laid.append(game.sorted_cards(rest[:count]))
        rest = rest[count:]
    pack, rest = rest[: view["pack_count"]], rest[view["pack_count"] :]
    draw_pile, deck = rest[: view["draw_pile_count"]], rest[view["draw_pile_count"] :]
    private = {"seed": seed, "hands": hands, "laid_down": laid, "deck": deck, "pack": pack, "draw_pile": draw_pile}
    return game.state_from_view(view, private)


def _deal_unknown(
    unknown: list[str], need: dict[int, int], lacking: dict[int, set[str]], opts: dict[str, Any], rng: random.Random
) -> dict[Any, list[str]]:
    """Random hidden cards per seat, the most constrained seats first; a few
    retries cover the rare dead end of a greedy pick."""
    special = (set(opts["wilds"]) if opts["wild_cards"] else set()) | (
        set(opts["death_cards"]) if opts["death_card"] else set()
    )

    def allowed(seat: int, card: str) -> bool:
        return card in special or card[0] not in lacking.get(seat, ())

    for _ in range(200):
        pool = list(unknown)
        rng.shuffle(pool)
        result: dict[Any, list[str]] = {}
        order = sorted(need, key=lambda p: sum(allowed(p, c) for c in pool) - need[p])
        for seat in order:
            fits = [c for c in pool if allowed(seat, c)]
            if len(fits) < need[seat]:
                break
            result[seat] = fits[: need[seat]]
            taken = set(result[seat])
            pool = [c for c in pool if c not in taken]
        else:
            result["rest"] = pool
            return result
    raise RuntimeError("No deal of the unseen cards fits this view.")
