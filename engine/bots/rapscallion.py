"""Rapscallion bot knowledge: a sensible ``basic`` policy and ``determinize``.

Both read only a seat's view (``engine.rapscallion.view``), never the state.
"""

from __future__ import annotations

import random
from typing import Any

from engine.rapscallion import (
    CATEGORY_POINTS,
    HIDDEN,
    PLAYING_DECK,
    RANK_VALUE,
    State,
    best_hand,
    bid_value,
    colour_set,
    general_deck,
    is_playing,
    is_rapscallion,
    state_from_view,
)

Action = dict[str, Any]
BIG_GAIN = 8.0  # worth a Rapscallion: roughly a jump to a straight or better
SOME_GAIN = 3.0  # worth the highest number card
HIDDEN_GAIN = 1.0  # below this, the unknown face-down card is as good a gamble


# --- hand potential ----------------------------------------------------------------


def potential(cards: list[str]) -> float:
    """A rough worth of a partial poker hand: made points plus draws and height.

    Counts ranks and suits directly instead of calling ``best_hand``: the bots
    call this many times per decision, inside the strong bot's playouts too.
    """
    if not cards:
        return 0.0
    ranks: dict[int, int] = {}
    suits: dict[str, int] = {}
    for card in cards:
        rank = RANK_VALUE[card[0]]
        ranks[rank] = ranks.get(rank, 0) + 1
        suits[card[1]] = suits.get(card[1], 0) + 1
    present = set(ranks)
    if 12 in present:
        present.add(-1)  # the ace also plays low
    run = max(sum(1 for r in range(low, low + 5) if r in present) for low in range(-1, 9))
    flush = max(suits.values())
    category = _category(sorted(ranks.values(), reverse=True), flush >= 5, run == 5)
    if category == 5 and run == 5:
        category = best_hand(cards)[0][0]  # a straight flush is rare: ask the evaluator
    return CATEGORY_POINTS[category] + 2 * category + flush + 0.8 * run + 0.02 * sum(ranks)


def _category(counts: list[int], flush: bool, straight: bool) -> int:
    if counts[0] >= 4:
        return 7
    if counts[0] == 3 and len(counts) > 1 and counts[1] >= 2:
        return 6
    if flush:
        return 5
    if straight:
        return 4
    if counts[0] == 3:
        return 3
    if counts[0] == 2 and len(counts) > 1 and counts[1] == 2:
        return 2
    return 1 if counts[0] == 2 else 0


def _gain(hand: list[str], card: str) -> float:
    return potential(hand + [card]) - potential(hand)


# --- the basic policy ------------------------------------------------------------------


def basic(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    kind = legal[0]["type"]
    if kind == "side_bet":
        choice = _side_bet(view)
    elif kind == "bid":
        choice = _bid_for_playing(view) if view["round_kind"] == "playing" else _bid_for_bidding(view)
    else:
        choice = _take_playing(view) if view["round_kind"] == "playing" else _take_bidding(view)
    action = {"type": kind, "card": choice}
    return action if action in legal else rng.choice(legal)


def _numbers(cards: list[str]) -> list[str]:
    return sorted((c for c in cards if not is_rapscallion(c)), key=bid_value)


def _side_bet(view: dict[str, Any]) -> str:
    """Bet low: the Rapscallions are worth more kept or bid than in the side bet."""
    numbers = _numbers(view["bidding_cards"])
    return numbers[0] if numbers else view["bidding_cards"][0]


def _bid_for_playing(view: dict[str, Any]) -> str:
    cards = view["bidding_cards"]
    numbers = _numbers(cards)
    raps = [c for c in cards if is_rapscallion(c)]
    face_up = [c for c in view["centre"] if c != HIDDEN]
    gain = max((_gain(view["hand"], c) for c in face_up), default=0.0)
    if raps and (gain >= BIG_GAIN or not numbers):
        return raps[0]
    if not numbers:
        return cards[0]
    return numbers[-1] if gain >= SOME_GAIN else numbers[0]


def _take_playing(view: dict[str, Any]) -> str:
    face_up = [c for c in view["centre"] if c != HIDDEN]
    if not face_up:
        return HIDDEN
    best = max(face_up, key=lambda c: _gain(view["hand"], c))
    if HIDDEN in view["centre"] and _gain(view["hand"], best) < HIDDEN_GAIN:
        return HIDDEN
    return best


def _bid_for_bidding(view: dict[str, Any]) -> str:
    """Give up the card the hand misses least, preferring a high one to win a good card."""
    hand = view["hand"]
    whole = potential(hand)

    def cost(card: str) -> float:
        rest = [c for c in hand if c != card]
        return whole - potential(rest) - 0.15 * RANK_VALUE[card[0]]

    return min(hand, key=cost)


def _take_bidding(view: dict[str, Any]) -> str:
    face_up = [c for c in view["centre"] if c != HIDDEN]
    unseen = [bid_value(c) for c in _unseen_general(view)]
    expected = sum(unseen) / len(unseen) if unseen else 0
    best = max(face_up, key=bid_value, default=None)
    if best is None or (HIDDEN in view["centre"] and bid_value(best) < expected):
        return HIDDEN
    return best


# --- determinization ---------------------------------------------------------------------


def _seen(view: dict[str, Any]) -> set[str]:
    """Every card code the view shows, wherever it lies."""
    seen = set(view["hand"]) | set(view["bidding_cards"]) | set(view["centre"])
    for group in ("known", "aside", "spent", "reveals"):
        for cards in view[group]:
            seen.update(c for c in cards if c)
    seen.update(view["out"], view["discard"], (t["card"] for t in view["takes"]))
    seen.update(c for c in view["bids"] + view["side_bets"] if c)
    seen.discard(HIDDEN)
    return seen


def _unseen_general(view: dict[str, Any]) -> list[str]:
    seen = _seen(view)
    return [c for c in general_deck(view["bidding_values"]) if c not in seen]


def determinize(view: dict[str, Any], rng: random.Random) -> State:
    """A full state that this seat cannot tell from the real one.

    Only the private parts are sampled (``PRIVATE_FIELDS``); everything
    public comes from the view through ``state_from_view``.
    """
    seat, n = view["seat"], view["players"]
    seen = _seen(view)
    playing = [c for c in PLAYING_DECK if c not in seen]
    general = [c for c in general_deck(view["bidding_values"]) if c not in seen]
    rng.shuffle(playing)
    rng.shuffle(general)
    over = view["phase"] == "over"
    hands = [list(view["hand"]) if s == seat else [] for s in range(n)]
    bidding = [list(view["bidding_cards"]) if s == seat else [] for s in range(n)]
    side_bet = [c if c is None or s == seat or over else None for s, c in enumerate(view["side_bets"])]
    sealed = [view["bids"][s] if s == seat else None for s in range(n)]
    taken = [[t["seat"], t["card"], t["face_down"]] for t in view["takes"]]
    private: dict[str, Any] = {
        # The real seed and stacked decks are secret; any seed deals future hands.
        "seed": rng.randrange(2**31),
        "options": {"target": view["target"], "bidding_values": view["bidding_values"]},
    }
    for other in range(n):
        if other == seat:
            continue
        hand, cards, bet, bid, secrets = _deal_other(view, other, seen, playing, general, rng)
        hands[other], bidding[other], sealed[other] = hand, cards, bid
        if bet is not None:
            side_bet[other] = bet
        taken = [
            [t[0], secrets[0] if secrets else HIDDEN, t[2]] if t[0] == other and t[1] == HIDDEN else t for t in taken
        ]
    down = None
    if HIDDEN in view["centre"]:
        down = playing.pop() if view["round_kind"] == "playing" else general.pop()
    private.update(
        hands=hands, bidding=bidding, side_bet=side_bet, sealed=sealed, taken=taken, down=down,
        buried_cards=[playing.pop() for _ in range(view["buried"])],
        buried_bidding_cards=[general.pop() for _ in range(view["buried_bidding"])],
        stock=playing, bidding_stock=general,
    )  # fmt: skip
    return state_from_view(view, private)


def _deal_other(
    view: dict[str, Any],
    other: int,
    seen: set[str],
    playing: list[str],
    general: list[str],
    rng: random.Random,
) -> tuple[list[str], list[str], str | None, str | None, list[str]]:
    """``other``'s hand, bidding cards, side bet, sealed bid and the unseen cards it was given.

    Its known cards plus random unseen ones, up to the counts shown; the
    unseen ones are drawn from the ends of the shuffled pools.
    """
    known = view["known"][other]
    count_playing, count_bidding = view["holding"][other]
    known_playing = [c for c in known if is_playing(c)]
    known_bidding = [c for c in known if not is_playing(c)]
    secret_playing = [playing.pop() for _ in range(count_playing - len(known_playing))]
    colour = [c for c in colour_set(view["bidding_values"], view["colours"][other]) if c not in seen]
    rng.shuffle(colour)
    bet = colour.pop() if view["side_bets"][other] == "placed" else None
    secret_general = [general.pop() for _ in range(count_bidding - len(known_bidding) - len(colour))]
    hand, bidding = known_playing + secret_playing, known_bidding + colour + secret_general
    bid = None
    if view["bids"][other] == "sealed":
        pool = hand if view["round_kind"] == "bidding" else bidding
        bid = rng.choice(pool)
        pool.remove(bid)
    secrets = secret_playing if view["round_kind"] == "playing" else secret_general
    return hand, bidding, bet, bid, secrets
