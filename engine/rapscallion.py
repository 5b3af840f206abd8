"""Rapscallion: bid with coloured cards for playing cards, build the best poker hand.

Rules: ``docs/rules/rapscallion.md`` (digest ``shared/spec/rules-rapscallion.md``).

Card codes: playing cards as in the engine contract (``TH``); number bidding
cards ``B<value>`` (``B7``); Rapscallions ``R-<colour>-1`` / ``R-<colour>-2``.

Actions:

- ``{"type": "side_bet", "card": "B7"}``: at the start of a hand every seat puts
  one bidding card into the sealed side bet (simultaneous).
- ``{"type": "bid", "card": ...}``: a sealed bid (simultaneous): a bidding card
  in a playing-card round, a playing card in a bidding-card round. After
  Rapscallions cancel, only the seats whose Rapscallions cancelled bid again.
- ``{"type": "take", "card": ...}``: in bid order, take a face-up centre card,
  or the face-down one with ``"card": "hidden"``. The last taker of a row that
  holds exactly one card left gets it without acting.

Phases: ``side_bet``, ``bid``, ``take``, ``over``. The eleven rounds of a hand
follow ``PLAN`` (``P`` a playing-card round, ``B`` a bidding-card round).
"""

from __future__ import annotations

from typing import Any

from engine.cards import RANKS, check_stacked_deck, french_deck, label, rng_for, shuffled
from engine.cards import validate_options as check_schema
from engine.errors import IllegalAction

NAME = "rapscallion"
TITLE = "Rapscallion"
MIN_PLAYERS = 2
MAX_PLAYERS = 6

COLOURS = ("red", "yellow", "green", "blue", "purple", "orange")
PLAN = "PPBPPPBPPPP"
LAST_ROUND = len(PLAN) - 1
SIX_PLAYER_RESHUFFLE_ROUND = 9  # the round for the 7th playing card
HIDDEN = "hidden"
RANK_VALUE = {rank: i for i, rank in enumerate(RANKS)}
SUIT_RANK = {"C": 0, "D": 1, "H": 2, "S": 3}  # S > H > D > C, the digest's order
CATEGORIES = (
    "high card", "one pair", "two pair", "three of a kind", "straight",
    "flush", "full house", "four of a kind", "straight flush",
)
CATEGORY_POINTS = (0, 0, 0, 0, 5, 10, 15, 20, 20)
BEST_HAND_POINTS = 20
WORST_HAND_POINTS = -10
SIDE_BET_POINTS = 15
UNUSED_RAPSCALLION_POINTS = 5
MAX_BID_VALUE = 999
DEFAULT_VALUES: dict[str, Any] = {
    "colours": {colour: [k + 1, k + 7, k + 13] for k, colour in enumerate(COLOURS)},
    "general": list(range(19, 31)),
}
PLAYING_DECK = french_deck()

OPTIONS: list[dict[str, Any]] = [
    {
        "name": "target", "type": "int", "default": 100, "min": 10, "max": 1000,
        "label": "Points to end the match",
        "help": "The match ends after a hand in which someone reaches this total.",
    },
    {
        "name": "bidding_values", "type": "json", "default": DEFAULT_VALUES,
        "label": "Bidding card values",
        "help": "Three numbers per colour and twelve for the general deck, all different.",
    },
]


# --- card helpers -------------------------------------------------------------

def is_rapscallion(code: str) -> bool:
    return code.startswith("R-")


def is_playing(code: str) -> bool:
    return len(code) == 2 and code[0] in RANK_VALUE


def bid_value(code: str) -> int:
    """The printed number of a number bidding card ``B<value>``."""
    return int(code[1:])


def colour_set(values: dict[str, Any], colour: str) -> list[str]:
    return [f"B{v}" for v in values["colours"][colour]] + [f"R-{colour}-1", f"R-{colour}-2"]


def general_deck(values: dict[str, Any]) -> list[str]:
    return [f"B{v}" for v in values["general"]]


def card_label(code: str) -> str:
    if code == HIDDEN:
        return "the face-down card"
    if is_rapscallion(code):
        return f"Rapscallion ({code.split('-')[1]})"
    if code.startswith("B"):
        return f"{bid_value(code)} (bidding card)"
    return label(code)


def _order_key(card: str) -> tuple[int, int]:
    return RANK_VALUE[card[0]], SUIT_RANK[card[1]]


# --- poker hands ----------------------------------------------------------------
# A small evaluator rather than pokerkit: it is several times faster for the
# playouts and bots, and it gives the digest's suit tie-break (see the rules page).

HandKey = tuple[int, tuple[int, ...], tuple[int, ...]]


def best_hand(cards: list[str]) -> tuple[HandKey, list[str]]:
    """The best five of ``cards`` as (comparable key, five cards in the order compared).

    The key is (category, ranks, suits) with the cards in poker order: groups
    before kickers, straights from the top (a wheel from its 5), equal ranks by
    suit, so two hands of equal poker rank are ordered by suit card by card.
    """
    ordered = sorted(cards, key=_order_key, reverse=True)
    by_rank: dict[int, list[str]] = {}
    by_suit: dict[str, list[str]] = {}
    for card in ordered:
        by_rank.setdefault(RANK_VALUE[card[0]], []).append(card)
        by_suit.setdefault(card[1], []).append(card)
    flushes = [group for group in by_suit.values() if len(group) >= 5]
    runs = [run for run in (_straight(group) for group in flushes) if run]
    if runs:
        return _keyed(8, max(runs, key=_cards_key))
    groups = sorted(by_rank.values(), key=lambda g: (len(g), RANK_VALUE[g[0][0]]), reverse=True)
    return _made_hand(ordered, groups, flushes)


def _made_hand(ordered: list[str], groups: list[list[str]], flushes: list[list[str]]) -> tuple[HandKey, list[str]]:
    top = len(groups[0]) if groups else 0
    second = len(groups[1]) if len(groups) > 1 else 0
    if top == 4:
        return _keyed(7, groups[0] + _kickers(ordered, groups[0], 1))
    if top == 3 and second >= 2:
        return _keyed(6, groups[0] + groups[1][:2])
    if flushes:
        return _keyed(5, max((group[:5] for group in flushes), key=_cards_key))
    run = _straight(ordered)
    if run:
        return _keyed(4, run)
    if top == 3:
        return _keyed(3, groups[0] + _kickers(ordered, groups[0], 2))
    if top == 2 and second == 2:
        pairs = groups[0] + groups[1]
        return _keyed(2, pairs + _kickers(ordered, pairs, 1))
    if top == 2:
        return _keyed(1, groups[0] + _kickers(ordered, groups[0], 3))
    return _keyed(0, ordered[:5])


def _kickers(ordered: list[str], used: list[str], count: int) -> list[str]:
    return [card for card in ordered if card not in used][:count]


def _straight(ordered: list[str]) -> list[str] | None:
    """The highest five-card run in ``ordered`` (best suit per rank), ace low allowed."""
    tops: dict[int, str] = {}
    for card in ordered:
        tops.setdefault(RANK_VALUE[card[0]], card)
    for high in range(12, 2, -1):
        ranks = [high - i for i in range(4)] + [high - 4 if high > 3 else 12]
        if all(rank in tops for rank in ranks):
            return [tops[rank] for rank in ranks]
    return None


def _cards_key(cards: list[str]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return tuple(RANK_VALUE[c[0]] for c in cards), tuple(SUIT_RANK[c[1]] for c in cards)


def _keyed(category: int, five: list[str]) -> tuple[HandKey, list[str]]:
    ranks, suits = _cards_key(five)
    return (category, ranks, suits), five


# --- options and the state ------------------------------------------------------

def validate_options(players: int, options: dict[str, Any] | None) -> dict[str, Any]:
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Rapscallion is played by {MIN_PLAYERS} to {MAX_PLAYERS} players.")
    result = check_schema(options, OPTIONS, players, extra=("deck", "bidding_deck"))
    result["bidding_values"] = _check_values(result["bidding_values"])
    if "deck" in result:
        result["deck"] = check_stacked_deck(result["deck"], PLAYING_DECK, "deck")
    if "bidding_deck" in result:
        general = general_deck(result["bidding_values"])
        result["bidding_deck"] = check_stacked_deck(result["bidding_deck"], general, "general bidding deck")
    return result


def _check_values(table: Any) -> dict[str, Any]:
    if not isinstance(table, dict) or set(table) != {"colours", "general"}:
        raise ValueError(
            "Option 'bidding_values' must be a table with 'colours' (three numbers for each "
            "colour) and 'general' (twelve numbers)."
        )
    colours = table["colours"]
    if not isinstance(colours, dict) or set(colours) != set(COLOURS):
        raise ValueError(f"Option 'bidding_values' must give numbers for exactly the colours {', '.join(COLOURS)}.")
    numbers = [v for colour in COLOURS for v in _check_numbers(colours[colour], 3, f"the {colour} set")]
    numbers += _check_numbers(table["general"], 12, "the general bidding deck")
    repeated = sorted({v for v in numbers if numbers.count(v) > 1})
    if repeated:
        raise ValueError(
            f"Option 'bidding_values': every bidding card needs its own number, so that number "
            f"bids never tie; {repeated[0]} appears more than once."
        )
    return {
        "colours": {colour: sorted(colours[colour]) for colour in COLOURS},
        "general": sorted(table["general"]),
    }


def _check_numbers(values: Any, count: int, what: str) -> list[int]:
    if (
        not isinstance(values, list)
        or len(values) != count
        or not all(isinstance(v, int) and not isinstance(v, bool) and 0 < v <= MAX_BID_VALUE for v in values)
    ):
        raise ValueError(f"Option 'bidding_values': {what} must be a list of {count} whole numbers from 1 to {MAX_BID_VALUE}.")
    return values


def new_match(players: int, options: dict[str, Any] | None = None, seed: int | None = None) -> dict[str, Any]:
    opts = validate_options(players, options)
    seed = 0 if seed is None else seed
    base = {
        "players": players,
        "seed": seed,
        "options": opts,
        "scores": [0] * players,
        "history": [],
        "hand_no": 0,
        "colours": rng_for(seed, "colours").sample(list(COLOURS), players),
        "last_hand": None,
    }
    return _start_hand(base, opts.get("deck"), opts.get("bidding_deck"))


def _start_hand(base: dict[str, Any], deck: list[str] | None, gdeck: list[str] | None) -> dict[str, Any]:
    """Deal one playing card to each seat from seat 0 and hand out the coloured sets."""
    n, hand_no, seed = base["players"], base["hand_no"], base["seed"]
    values = base["options"]["bidding_values"]
    deck = list(deck) if deck else shuffled(PLAYING_DECK, seed, "hand", hand_no, "deck")
    gdeck = list(gdeck) if gdeck else shuffled(general_deck(values), seed, "hand", hand_no, "bidding")
    state = dict(base)
    state.update(
        phase="side_bet", round=0, deck=deck[n:], gdeck=gdeck,
        hands=[[deck[s]] for s in range(n)],
        bidding=[colour_set(values, colour) for colour in base["colours"]],
        known=[[] for _ in range(n)], aside=[[] for _ in range(n)], spent=[[] for _ in range(n)],
        side_bet=[None] * n, sealed=[None] * n, asked=list(range(n)), final=[None] * n,
        reveals=[], centre=[], down=None, order=[], takes=[],
        out=[], discard=[], buried=[], buried_bidding=[],
    )
    return state


def _kind(state: dict[str, Any]) -> str:
    return PLAN[state["round"]]


def to_act(state: dict[str, Any]) -> list[int]:
    phase = state["phase"]
    if phase == "side_bet":
        return [s for s, card in enumerate(state["side_bet"]) if card is None]
    if phase == "bid":
        sealed = state["sealed"]
        return [s for s in state["asked"] if sealed[s] is None]
    if phase == "take":
        return [state["order"][len(state["takes"])]]
    return []


def is_over(state: dict[str, Any]) -> bool:
    return state["phase"] == "over"


def hand_index(state: dict[str, Any]) -> int:
    return state["hand_no"]


# --- legal actions ----------------------------------------------------------------

def legal_actions(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    if seat not in to_act(state):
        return []
    return _LEGAL[state["phase"]](state, seat)


def _legal_side_bet(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    return [{"type": "side_bet", "card": card} for card in state["bidding"][seat]]


def _legal_bid(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    cards = state["bidding"][seat] if _kind(state) == "P" else state["hands"][seat]
    return [{"type": "bid", "card": card} for card in cards]


def _legal_take(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    actions = [{"type": "take", "card": card} for card in state["centre"]]
    if state["down"] is not None:
        actions.append({"type": "take", "card": HIDDEN})
    return actions


_LEGAL = {"side_bet": _legal_side_bet, "bid": _legal_bid, "take": _legal_take}


# --- apply ------------------------------------------------------------------------

def apply(state: dict[str, Any], seat: int, action: dict[str, Any]) -> dict[str, Any]:
    if not _is_legal(state, seat, action):
        raise IllegalAction(_refusal(state, seat, action))
    return _APPLY[state["phase"]](state, seat, action["card"])


def _is_legal(state: dict[str, Any], seat: int, action: Any) -> bool:
    """The same answer as ``action in legal_actions(state, seat)``, without building the list."""
    phase = state["phase"]
    if type(action) is not dict or len(action) != 2 or action.get("type") != phase or seat not in to_act(state):
        return False
    card = action.get("card")
    if phase == "take":
        return card in state["centre"] or (card == HIDDEN and state["down"] is not None)
    if phase == "bid" and _kind(state) == "B":
        return card in state["hands"][seat]
    return card in state["bidding"][seat]


def _refusal(state: dict[str, Any], seat: Any, action: Any) -> str:
    if is_over(state):
        return "The match is over."
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state["players"]:
        return f"There is no seat {seat!r} at this table."
    if seat not in to_act(state):
        return "It is not your turn: the table is waiting for someone else."
    expected = state["phase"]  # each phase has one action type, of the same name
    if not isinstance(action, dict) or action.get("type") != expected or set(action) != {"type", "card"}:
        return f"The table is waiting for you to {_WAITING[expected]}, as {{'type': '{expected}', 'card': ...}}."
    card = action["card"]
    if state["phase"] == "take":
        return f"{card!r} is not in the centre; take a face-up card or 'hidden' for the face-down one."
    what = "a playing card" if state["phase"] == "bid" and _kind(state) == "B" else "a bidding card"
    return f"You cannot use {card!r}: it is not {what} in your hand."


_WAITING = {
    "side_bet": "put one bidding card into the side bet",
    "bid": "place a sealed bid",
    "take": "take a card from the centre",
}


def _without(lists: list[list[str]], seat: int, card: str) -> list[list[str]]:
    result = list(lists)
    result[seat] = [c for c in lists[seat] if c != card]
    return result


def _with(lists: list[list[str]], seat: int, card: str) -> list[list[str]]:
    result = list(lists)
    result[seat] = lists[seat] + [card]
    return result


def _replaced(items: list[Any], index: int, value: Any) -> list[Any]:
    result = list(items)
    result[index] = value
    return result


def _apply_side_bet(state: dict[str, Any], seat: int, card: str) -> dict[str, Any]:
    new = dict(state)
    new["bidding"] = _without(state["bidding"], seat, card)
    new["side_bet"] = _replaced(state["side_bet"], seat, card)
    if None in new["side_bet"]:
        return new
    return _begin_round(new, 0)


def _apply_bid(state: dict[str, Any], seat: int, card: str) -> dict[str, Any]:
    new = dict(state)
    source = "bidding" if _kind(state) == "P" else "hands"
    new[source] = _without(state[source], seat, card)
    new["sealed"] = _replaced(state["sealed"], seat, card)
    if any(new["sealed"][s] is None for s in new["asked"]):
        return new
    return _reveal(new)


def _reveal(state: dict[str, Any]) -> dict[str, Any]:
    """Every sealed bid of this step is in: turn them all over at once."""
    sealed, n = state["sealed"], state["players"]
    state["reveals"] = state["reveals"] + [list(sealed)]
    state["sealed"] = [None] * n
    state["known"] = [[c for c in known if c != sealed[s]] for s, known in enumerate(state["known"])]
    if _kind(state) == "B":
        state["out"] = state["out"] + [card for card in sealed if card is not None]
        state["final"] = list(sealed)
        return _begin_taking(state)
    return _settle_rapscallions(state, sealed)


def _settle_rapscallions(state: dict[str, Any], sealed: list[str | None]) -> dict[str, Any]:
    """Two or more Rapscallions cancel and those seats bid again; every one is used up."""
    asked, n = state["asked"], state["players"]
    raps = [s for s in asked if is_rapscallion(sealed[s])]
    cancelled = raps if len(raps) >= 2 else []
    numbers = [s for s in asked if s not in raps]
    state["spent"] = [cards + [sealed[s]] if s in raps else cards for s, cards in enumerate(state["spent"])]
    state["aside"] = [cards + [sealed[s]] if s in numbers else cards for s, cards in enumerate(state["aside"])]
    state["final"] = [sealed[s] if s in asked and s not in cancelled else state["final"][s] for s in range(n)]
    # A cancelled seat with no bidding card left cannot re-bid: it chooses last.
    rebid = [s for s in cancelled if state["bidding"][s]]
    if rebid:
        state["asked"] = rebid
        return state
    return _begin_taking(state)


def bid_rank(code: str | None, seat: int) -> tuple[int, int]:
    """Higher chooses first: a lone Rapscallion, then numbers, then playing cards
    (ace high, suit rank on ties); a seat left without a bid comes last, lower seat first."""
    if code is None:
        return 0, -seat
    if is_rapscallion(code):
        return 2, 0
    if code[0] == "B" and not is_playing(code):
        return 1, bid_value(code)
    rank, suit = _order_key(code)
    return 1, rank * 4 + suit


def _begin_taking(state: dict[str, Any]) -> dict[str, Any]:
    final = state["final"]
    state["order"] = sorted(range(state["players"]), key=lambda s: bid_rank(final[s], s), reverse=True)
    state["phase"] = "take"
    state["takes"] = []
    return state


def _apply_take(state: dict[str, Any], seat: int, card: str) -> dict[str, Any]:
    new = dict(state)
    face_down = card == HIDDEN
    code = state["down"] if face_down else card
    if face_down:
        new["down"] = None
    else:
        new["centre"] = [c for c in state["centre"] if c != card]
        new["known"] = _replaced(state["known"], seat, sorted(state["known"][seat] + [code]))
    target = "hands" if _kind(state) == "P" else "bidding"
    new[target] = _with(state[target], seat, code)
    new["takes"] = state["takes"] + [[seat, code, face_down]]
    left = len(new["centre"]) + (new["down"] is not None)
    if len(new["takes"]) == state["players"]:
        return _end_round(new)
    if len(new["takes"]) == state["players"] - 1 and left == 1:
        # The last taker has no choice: a table would just hand them the card.
        last = new["order"][-1]
        return _apply_take(new, last, new["centre"][0] if new["centre"] else HIDDEN)
    return new


def _end_round(state: dict[str, Any]) -> dict[str, Any]:
    kind = _kind(state)
    state["discard"] = state["discard"] + state["centre"]
    if state["down"] is not None:
        pile = "buried" if kind == "P" else "buried_bidding"
        state[pile] = state[pile] + [state["down"]]
    state["centre"], state["down"] = [], None
    if kind == "B":
        aside = state["aside"]
        state["bidding"] = [cards + aside[s] for s, cards in enumerate(state["bidding"])]
        state["known"] = [sorted(cards + aside[s]) for s, cards in enumerate(state["known"])]
        state["aside"] = [[] for _ in aside]
    if state["round"] == LAST_ROUND:
        return _score(state)
    return _begin_round(state, state["round"] + 1)


def _begin_round(state: dict[str, Any], number: int) -> dict[str, Any]:
    n = state["players"]
    state.update(
        phase="bid", round=number, asked=list(range(n)), sealed=[None] * n, final=[None] * n,
        reveals=[], order=[], takes=[],
    )
    size = n + 1 if n == 2 else n
    if PLAN[number] == "B":
        row, state["gdeck"] = state["gdeck"][:size], state["gdeck"][size:]
    else:
        if n == 6 and number == SIX_PLAYER_RESHUFFLE_ROUND:
            pile = state["deck"] + state["out"]
            state["deck"] = shuffled(pile, state["seed"], "hand", state["hand_no"], "reshuffle")
            state["out"] = []
        row, state["deck"] = state["deck"][:size], state["deck"][size:]
    state["centre"], state["down"] = row[:-1], row[-1]
    return state


_APPLY = {"side_bet": _apply_side_bet, "bid": _apply_bid, "take": _apply_take}


# --- scoring ------------------------------------------------------------------------

def side_bet_winner(bets: list[str | None]) -> int | None:
    """A lone Rapscallion wins; two or more cancel and the highest number wins."""
    raps = [s for s, card in enumerate(bets) if card and is_rapscallion(card)]
    if len(raps) == 1:
        return raps[0]
    numbers = [(bid_value(card), s) for s, card in enumerate(bets) if card and not is_rapscallion(card)]
    return max(numbers)[1] if numbers else None


def score_hand(hands: list[list[str]], side_bets: list[str | None], bidding: list[list[str]]) -> list[dict[str, Any]]:
    """Each seat's points for one hand, item by item."""
    evaluated = [best_hand(cards) for cards in hands]
    keys = [key for key, _five in evaluated]
    seats = range(len(hands))
    best = max(seats, key=keys.__getitem__)
    worst = min(seats, key=keys.__getitem__)
    winner = side_bet_winner(side_bets)
    rows = []
    for s, (key, five) in enumerate(evaluated):
        points = {
            "hand": CATEGORY_POINTS[key[0]],
            "best": BEST_HAND_POINTS if s == best else 0,
            "worst": WORST_HAND_POINTS if s == worst else 0,
            "side_bet": SIDE_BET_POINTS if s == winner else 0,
            "rapscallions": UNUSED_RAPSCALLION_POINTS * sum(map(is_rapscallion, bidding[s])),
        }
        rows.append({"category": CATEGORIES[key[0]], "five": five, "points": points, "total": sum(points.values())})
    return rows


def _score(state: dict[str, Any]) -> dict[str, Any]:
    rows = score_hand(state["hands"], state["side_bet"], state["bidding"])
    totals = [row["total"] for row in rows]
    state["scores"] = [a + b for a, b in zip(state["scores"], totals)]
    state["history"] = state["history"] + [totals]
    state["last_hand"] = _showdown(state, rows)
    if max(state["scores"]) >= state["options"]["target"]:
        state["phase"] = "over"
        return state
    base = {key: state[key] for key in ("players", "seed", "options", "scores", "history", "last_hand")}
    base["hand_no"] = state["hand_no"] + 1
    base["colours"] = state["colours"][-1:] + state["colours"][:-1]  # each set passes to the next seat
    return _start_hand(base, None, None)


def _showdown(state: dict[str, Any], rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The hand's result as the table saw it. Labels, not codes: after the next
    deal these codes name cards that a seat may not see."""
    return {
        "hand_no": state["hand_no"],
        "side_bet_winner": side_bet_winner(state["side_bet"]),
        "seats": [
            {
                "category": row["category"], "five": [card_label(c) for c in row["five"]],
                "side_bet": card_label(state["side_bet"][s]), "points": row["points"], "total": row["total"],
            }
            for s, row in enumerate(rows)
        ],
    }


def places(state: dict[str, Any]) -> list[int]:
    """Highest total first; ties go to the last hand's points, then the hand before."""
    history = state["history"]
    keys = [(total, *[hand[s] for hand in reversed(history)]) for s, total in enumerate(state["scores"])]
    return [1 + sum(1 for other in keys if other > mine) for mine in keys]


def outcome(state: dict[str, Any]) -> dict[str, Any]:
    if not is_over(state):
        raise ValueError("The match is not over yet.")
    return {
        "scores": list(state["scores"]),
        "places": places(state),
        "hands": [list(hand) for hand in state["history"]],
        "last_hand": state["last_hand"],
    }


# --- views ----------------------------------------------------------------------------

def view(state: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
    """What ``seat`` may see (None: a spectator). Lists of the state are shared,
    not copied: states are never changed in place, and views are only read."""
    over = state["phase"] == "over"
    sealed = state["sealed"]
    result: dict[str, Any] = {
        "players": state["players"],
        "hand_no": state["hand_no"],
        "target": state["options"]["target"],
        "bidding_values": state["options"]["bidding_values"],
        "to_act": to_act(state),
        "scores": state["scores"],
        "history": state["history"],
        "colours": state["colours"],
        "phase": state["phase"],
        "round": state["round"],
        "round_kind": "playing" if PLAN[state["round"]] == "P" else "bidding",
        "centre": state["centre"] + [HIDDEN] if state["down"] is not None else state["centre"],
        "asked": state["asked"] if state["phase"] == "bid" else [],
        "bids": [card if card is None or s == seat else "sealed" for s, card in enumerate(sealed)],
        "side_bets": [
            card if card is None or s == seat or over else "placed" for s, card in enumerate(state["side_bet"])
        ],
        "reveals": state["reveals"],
        "final": state["final"],
        "order": state["order"],
        "takes": [_shown_take(take, seat) for take in state["takes"]],
        "known": state["known"],  # kept sorted: the order taken is not shown
        "holding": _holding(state),
        "aside": state["aside"],
        "spent": state["spent"],
        "out": state["out"],
        "discard": state["discard"],
        "buried": len(state["buried"]),
        "buried_bidding": len(state["buried_bidding"]),
        "deck": len(state["deck"]),
        "bidding_deck": len(state["gdeck"]),
        "last_hand": state["last_hand"],
    }
    if seat is not None:
        result["seat"] = seat
        result["hand"] = state["hands"][seat]
        result["bidding_cards"] = state["bidding"][seat]
    if over:
        result["outcome"] = outcome(state)
    return result


def _shown_take(take: list[Any], seat: int | None) -> dict[str, Any]:
    taker, card, face_down = take
    return {"seat": taker, "card": HIDDEN if face_down and taker != seat else card, "face_down": face_down}


def _holding(state: dict[str, Any]) -> list[list[int]]:
    """[playing, bidding] cards per seat; a sealed bid still counts, so the count tells nothing about it."""
    result = [[len(hand), len(bidding)] for hand, bidding in zip(state["hands"], state["bidding"])]
    for seat, sealed in enumerate(state["sealed"]):
        if sealed is not None:
            result[seat][0 if is_playing(sealed) else 1] += 1
    return result


def describe(state: dict[str, Any], seat: int, action: dict[str, Any]) -> str:
    kind, card = action.get("type"), action.get("card")
    if kind == "side_bet":
        return "placed a side bet"
    if kind == "bid":
        return "placed a sealed bid"
    if kind == "take" and card == HIDDEN:
        return "took the face-down card" if _kind(state) == "P" else "took the face-down bidding card"
    if kind == "take":
        return f"took {card_label(card)}"
    return "did something unexpected"
