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

Why it happened: ``reasons(before, after)`` gives what one action settled, as the rules that applied
recorded it (``settled``): ``bids`` (rules ``lone_rapscallion``, ``highest_number``,
``highest_playing_card``, ``suit_breaks_tie``, ``rapscallions_cancel``, ``no_bids``), and at a
showdown ``showdown`` per seat (its category, e.g. ``two_pair``, and every item of its points),
``best_hand`` / ``worst_hand`` (``poker_rank``, ``suit_tiebreak``), ``side_bet``
(``lone_rapscallion``, ``highest_number``, ``rapscallions_cancel``, ``nothing_wins``), ``hand``
(``items_added``) and ``match`` (``highest_total``, ``last_hands_break_tie``). The view's
``last_hand`` carries what decided its showdown (``decided``: seats and rule ids, no cards).

Phases (``state["phase"]``); the eleven rounds of a hand follow ``PLAN``
(``P`` a playing-card round, ``B`` a bidding-card round)::

    deal --> side_bet (every seat, sealed)
                |
                v
             bid (sealed; seats whose Rapscallions cancelled bid again)
                |                              ^
                v                              |
             take (in bid order) --(next round of PLAN)
                |
                | after round 10
                v
             scoring --(someone has `target` points)--> over
                |
                +--> deal (the next hand)
"""

from __future__ import annotations

from typing import Any, TypedDict, cast

from engine.cards import (
    RANKS,
    action_in,
    check_stacked_deck,
    french_deck,
    is_whole,
    json_copy,
    label,
    public_part,
    rebuild,
    rng_for,
    shuffled,
    view_scores,
)
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
    "high card",
    "one pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
CATEGORY_POINTS = (0, 0, 0, 0, 5, 10, 15, 20, 20)
STRAIGHT, STRAIGHT_FLUSH = CATEGORIES.index("straight"), CATEGORIES.index("straight flush")
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
        "name": "target",
        "type": "int",
        "default": 100,
        "min": 10,
        "max": 1000,
        "label": "Points to end the match",
        "help": "The match ends after a hand in which someone reaches this total.",
    },
    {
        "name": "bidding_values",
        "type": "json",
        "default": DEFAULT_VALUES,
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
    """The best five of ``cards`` as (comparable key, five cards in poker order).

    The key is (category, ranks, suits). The ranks are in poker order (groups
    before kickers, straights from the top, a wheel from its 5), so the key
    ranks hands as poker does. The suits are in height order (highest card
    first, a wheel's ace last, equal ranks best suit first): two hands of
    exactly equal rank are ordered by the suit of their highest card, then the
    next card, and so on, as the digest says.
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
        # The highest other group of two or more gives the pair: a second
        # three of a kind only outranks a pair here if its rank is higher.
        pair = max((group for group in groups[1:] if len(group) >= 2), key=lambda g: RANK_VALUE[g[0][0]])
        return _keyed(6, groups[0] + pair[:2])
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
    ranks = tuple(RANK_VALUE[c[0]] for c in five)
    # A straight is already in height order (a wheel's ace last); a group may
    # lie below its kickers (3 3 A K Q), and the suit tie-break goes by height.
    by_height = five if category in (STRAIGHT, STRAIGHT_FLUSH) else sorted(five, key=_order_key, reverse=True)
    return (category, ranks, tuple(SUIT_RANK[c[1]] for c in by_height)), five


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
        raise ValueError(
            f"Option 'bidding_values': {what} must be a list of {count} whole numbers from 1 to {MAX_BID_VALUE}."
        )
    return values


class State(TypedDict):
    players: int  # public
    seed: int | str  # private: deals every later hand
    options: dict[str, Any]  # private: holds the stacked decks; views show target and bidding_values
    scores: list[int]  # public: match totals
    history: list[list[int]]  # public: each finished hand's points per seat
    hand_no: int  # public
    colours: list[str]  # public: each seat's coloured set this hand
    last_hand: dict[str, Any] | None  # public: the last showdown, as labels
    phase: str  # public: side_bet, bid, take or over
    round: int  # public: index into PLAN
    stock: list[str]  # private: the playing cards still to come
    bidding_stock: list[str]  # private: the general bidding cards still to come
    hands: list[list[str]]  # private: each seat's playing cards
    bidding: list[list[str]]  # private: each seat's bidding cards in hand
    known: list[list[str]]  # public: cards each seat is known to hold (taken face up, returned), sorted
    aside: list[list[str]]  # public: number cards bid this group, back at the next bidding-card round
    spent: list[list[str]]  # public: Rapscallions used up this hand
    side_bet: list[str | None]  # private: the sealed side bets (shown when the match is over)
    sealed: list[str | None]  # private: this step's sealed bids
    asked: list[int]  # public: seats asked to bid in this step ([] outside the bid phase)
    final: list[str | None]  # public: each seat's deciding bid once revealed
    reveals: list[list[str | None]]  # public: the bids turned over this round, step by step
    centre: list[str]  # public: the face-up centre cards, then HIDDEN while the face-down one lies there
    down: str | None  # private: the face-down centre card
    order: list[int]  # public: the taking order, best bid first
    taken: list[list[Any]]  # private: [seat, card, face_down] per take; views hide face-down cards from others
    out: list[str]  # public: playing cards bid away in bidding-card rounds
    discard: list[str]  # public: face-up centre cards left untaken
    buried_cards: list[str]  # private: face-down playing cards left untaken
    buried_bidding_cards: list[str]  # private: face-down bidding cards left untaken
    # private: the reasons of what the last action settled (``reasons``). Not secret, but a showdown names
    # cards that are shuffled into the next deal at once, so no view may carry them as codes.
    settled: list[dict[str, Any]]


# Views are allow-lists: these keys are copied into every view as they are...
PUBLIC_FIELDS: tuple[str, ...] = (
    "players", "scores", "history", "hand_no", "colours", "last_hand", "phase", "round", "known", "aside",
    "spent", "asked", "final", "reveals", "centre", "order", "out", "discard",
)  # fmt: skip
# ...and these never are; a view shows only what follows from them for its seat.
PRIVATE_FIELDS: tuple[str, ...] = (
    "seed", "options", "stock", "bidding_stock", "hands", "bidding", "side_bet", "sealed", "down", "taken",
    "buried_cards", "buried_bidding_cards", "settled",
)  # fmt: skip


def new_match(players: int, options: dict[str, Any] | None = None, seed: int | None = None) -> State:
    opts = validate_options(players, options)
    seed = 0 if seed is None else seed
    colours = rng_for(seed, "colours").sample(list(COLOURS), players)
    return _start_hand(players, seed, opts, [0] * players, [], 0, colours, None)


def _start_hand(
    n: int,
    seed: int | str,
    options: dict[str, Any],
    scores: list[int],
    history: list[list[int]],
    hand_no: int,
    colours: list[str],
    last_hand: dict[str, Any] | None,
) -> State:
    """Deal one playing card to each seat from seat 0 and hand out the coloured sets.

    The stacked decks of the options are the first hand's; later hands shuffle from the seed.
    """
    values = options["bidding_values"]
    deck = options.get("deck") if hand_no == 0 else None
    gdeck = options.get("bidding_deck") if hand_no == 0 else None
    deck = list(deck) if deck else shuffled(PLAYING_DECK, seed, "hand", hand_no, "deck")
    gdeck = list(gdeck) if gdeck else shuffled(general_deck(values), seed, "hand", hand_no, "bidding")
    return {
        "players": n, "seed": seed, "options": options, "scores": scores, "history": history,
        "hand_no": hand_no, "colours": colours, "last_hand": last_hand,
        "phase": "side_bet", "round": 0, "stock": deck[n:], "bidding_stock": gdeck,
        "hands": [[deck[s]] for s in range(n)],
        "bidding": [colour_set(values, colour) for colour in colours],
        "known": [[] for _ in range(n)], "aside": [[] for _ in range(n)], "spent": [[] for _ in range(n)],
        "side_bet": [None] * n, "sealed": [None] * n, "asked": [], "final": [None] * n,
        "reveals": [], "centre": [], "down": None, "order": [], "taken": [],
        "out": [], "discard": [], "buried_cards": [], "buried_bidding_cards": [], "settled": [],
    }  # fmt: skip


def _kind(state: State) -> str:
    return PLAN[state["round"]]


def to_act(state: State) -> list[int]:
    phase = state["phase"]
    if phase == "side_bet":
        return [s for s, card in enumerate(state["side_bet"]) if card is None]
    if phase == "bid":
        sealed = state["sealed"]
        return [s for s in state["asked"] if sealed[s] is None]
    if phase == "take":
        return [state["order"][len(state["taken"])]]
    return []


def is_over(state: State) -> bool:
    return state["phase"] == "over"


def hand_index(state: State) -> int:
    return state["hand_no"]


# --- legal actions ----------------------------------------------------------------


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    if not is_whole(seat) or seat not in to_act(state):
        return []
    return _LEGAL[state["phase"]](state, seat)


def _legal_side_bet(state: State, seat: int) -> list[dict[str, Any]]:
    return [{"type": "side_bet", "card": card} for card in state["bidding"][seat]]


def _legal_bid(state: State, seat: int) -> list[dict[str, Any]]:
    cards = state["bidding"][seat] if _kind(state) == "P" else state["hands"][seat]
    return [{"type": "bid", "card": card} for card in cards]


def _legal_take(state: State, seat: int) -> list[dict[str, Any]]:
    # The centre lists the face-down card as HIDDEN, so it is taken by that name.
    return [{"type": "take", "card": card} for card in state["centre"]]


_LEGAL = {"side_bet": _legal_side_bet, "bid": _legal_bid, "take": _legal_take}


# --- apply ------------------------------------------------------------------------


def apply(state: State, seat: int, action: dict[str, Any]) -> State:
    if not action_in(action, legal_actions(state, seat)):
        raise IllegalAction(_refusal(state, seat, action))
    return _APPLY[state["phase"]]({**state, "settled": []}, seat, action["card"])


def _refusal(state: State, seat: Any, action: Any) -> str:
    """Why an action that is not in ``legal_actions`` was refused, for the player."""
    if is_over(state):
        return "The match is over."
    if not is_whole(seat) or not 0 <= seat < state["players"]:
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
    result[seat] = [*lists[seat], card]
    return result


def _replaced(items: list[Any], index: int, value: Any) -> list[Any]:
    result = list(items)
    result[index] = value
    return result


def _apply_side_bet(state: State, seat: int, card: str) -> State:
    new: State = {
        **state,
        "bidding": _without(state["bidding"], seat, card),
        "side_bet": _replaced(state["side_bet"], seat, card),
    }
    if None in new["side_bet"]:
        return new
    return _begin_round(new, 0)


def _apply_bid(state: State, seat: int, card: str) -> State:
    new: State = {**state, "sealed": _replaced(state["sealed"], seat, card)}
    if _kind(state) == "P":
        new["bidding"] = _without(state["bidding"], seat, card)
    else:
        new["hands"] = _without(state["hands"], seat, card)
    if any(new["sealed"][s] is None for s in new["asked"]):
        return new
    return _reveal(new)


def _reveal(state: State) -> State:
    """Every sealed bid of this step is in: turn them all over at once."""
    sealed, n = state["sealed"], state["players"]
    new: State = {
        **state,
        "reveals": [*state["reveals"], list(sealed)],
        "sealed": [None] * n,
        "known": [[c for c in known if c != sealed[s]] for s, known in enumerate(state["known"])],
    }
    if _kind(state) == "B":
        new["out"] = state["out"] + [card for card in sealed if card is not None]
        new["final"] = list(sealed)
        return _begin_taking(new)
    return _settle_rapscallions(new, sealed)


def _settle_rapscallions(state: State, sealed: list[str | None]) -> State:
    """Two or more Rapscallions cancel and those seats bid again; every one is used up."""
    asked, n = state["asked"], state["players"]
    raps = [s for s in asked if is_rapscallion(cast(str, sealed[s]))]
    cancelled = raps if len(raps) >= 2 else []
    numbers = [s for s in asked if s not in raps]
    new: State = {
        **state,
        "spent": [[*cards, cast(str, sealed[s])] if s in raps else cards for s, cards in enumerate(state["spent"])],
        "aside": [[*cards, cast(str, sealed[s])] if s in numbers else cards for s, cards in enumerate(state["aside"])],
        "final": [sealed[s] if s in asked and s not in cancelled else state["final"][s] for s in range(n)],
    }
    if cancelled:
        new["settled"] = [*state["settled"], _cancel_reason(state, cancelled, sealed)]
    # A cancelled seat with no bidding card left cannot re-bid: it chooses last.
    rebid = [s for s in cancelled if state["bidding"][s]]
    if rebid:
        return {**new, "asked": rebid}
    return _begin_taking(new)


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


def taking_order(final: list[str | None]) -> tuple[list[int], str]:
    """The seats in the order they choose (``bid_rank``), and the id of the rule that put the first first:
    a lone Rapscallion, the highest number, the highest playing card, or that card's suit over an equal rank."""
    order = sorted(range(len(final)), key=lambda s: bid_rank(final[s], s), reverse=True)
    first = final[order[0]]
    if first is None:
        return order, "no_bids"
    if is_rapscallion(first):
        return order, "lone_rapscallion"
    if not is_playing(first):
        return order, "highest_number"
    tied = any(card and is_playing(card) and card[0] == first[0] for card in final if card != first)
    return order, "suit_breaks_tie" if tied else "highest_playing_card"


def _begin_taking(state: State) -> State:
    order, rule = taking_order(state["final"])
    reason = {
        "kind": "bids",
        "rule": rule,
        "hand_no": state["hand_no"],
        "round": state["round"],
        "round_kind": "playing" if _kind(state) == "P" else "bidding",
        "seat": order[0],
        "card": state["final"][order[0]],
        "bids": list(state["final"]),
        "order": order,
    }
    settled = [*state["settled"], reason]
    return {**state, "order": order, "phase": "take", "taken": [], "asked": [], "settled": settled}


def _cancel_reason(state: State, cancelled: list[int], sealed: list[str | None]) -> dict[str, Any]:
    """Two or more Rapscallions played together cancel; each is used up, and those seats bid again."""
    return {
        "kind": "bids",
        "rule": "rapscallions_cancel",
        "hand_no": state["hand_no"],
        "round": state["round"],
        "round_kind": "playing",
        "seats": list(cancelled),
        "cards": [sealed[s] for s in cancelled],
        "rebid": [s for s in cancelled if state["bidding"][s]],
    }


def _apply_take(state: State, seat: int, card: str) -> State:
    face_down = card == HIDDEN
    code = cast(str, state["down"]) if face_down else card
    new: State = {
        **state,
        "centre": [c for c in state["centre"] if c != card],
        "taken": [*state["taken"], [seat, code, face_down]],
    }
    if face_down:
        new["down"] = None
    else:
        new["known"] = _replaced(state["known"], seat, sorted([*state["known"][seat], code]))
    if _kind(state) == "P":
        new["hands"] = _with(state["hands"], seat, code)
    else:
        new["bidding"] = _with(state["bidding"], seat, code)
    if len(new["taken"]) == state["players"]:
        return _end_round(new)
    if len(new["taken"]) == state["players"] - 1 and len(new["centre"]) == 1:
        # The last taker has no choice: a table would just hand them the card.
        return _apply_take(new, new["order"][-1], new["centre"][0])
    return new


def _end_round(state: State) -> State:
    kind, down = _kind(state), state["down"]
    new: State = {
        **state,
        "discard": state["discard"] + [c for c in state["centre"] if c != HIDDEN],
        "centre": [],
        "down": None,
    }
    if down is not None and kind == "P":
        new["buried_cards"] = [*state["buried_cards"], down]
    elif down is not None:
        new["buried_bidding_cards"] = [*state["buried_bidding_cards"], down]
    if kind == "B":
        aside = state["aside"]
        new["bidding"] = [cards + aside[s] for s, cards in enumerate(state["bidding"])]
        new["known"] = [sorted(cards + aside[s]) for s, cards in enumerate(state["known"])]
        new["aside"] = [[] for _ in aside]
    if state["round"] == LAST_ROUND:
        return _score(new)
    return _begin_round(new, state["round"] + 1)


def _begin_round(state: State, number: int) -> State:
    n = state["players"]
    size = n + 1 if n == 2 else n
    new: State = {
        **state,
        "phase": "bid", "round": number, "asked": list(range(n)), "sealed": [None] * n, "final": [None] * n,
        "reveals": [], "order": [], "taken": [],
    }  # fmt: skip
    if PLAN[number] == "B":
        row, new["bidding_stock"] = state["bidding_stock"][:size], state["bidding_stock"][size:]
    else:
        stock = state["stock"]
        if n == 6 and number == SIX_PLAYER_RESHUFFLE_ROUND:
            stock = shuffled(stock + state["out"], state["seed"], "hand", state["hand_no"], "reshuffle")
            new["out"] = []
        row, new["stock"] = stock[:size], stock[size:]
    new["centre"], new["down"] = [*row[:-1], HIDDEN], row[-1]
    return new


_APPLY = {"side_bet": _apply_side_bet, "bid": _apply_bid, "take": _apply_take}


# --- scoring ------------------------------------------------------------------------


def side_bet_winner(bets: list[str | None]) -> int | None:
    return side_bet_decision(bets)[0]


def side_bet_decision(bets: list[str | None]) -> tuple[int | None, str]:
    """Who wins the side bet and the id of the rule: a lone Rapscallion wins; two or more cancel and the
    highest number wins (nobody, with no number in it)."""
    raps = [s for s, card in enumerate(bets) if card and is_rapscallion(card)]
    if len(raps) == 1:
        return raps[0], "lone_rapscallion"
    numbers = [(bid_value(card), s) for s, card in enumerate(bets) if card and not is_rapscallion(card)]
    rule = "rapscallions_cancel" if raps else "highest_number"
    return (max(numbers)[1], rule) if numbers else (None, "nothing_wins")


def extreme_hand(keys: list[HandKey], *, best: bool) -> tuple[int, str, int]:
    """The seat with the best (or worst) hand, the id of the rule that decided it, and the seat it beat
    (or fell below) last: by poker rank, or by suits when the category and ranks are equal."""
    ranked = sorted(range(len(keys)), key=keys.__getitem__, reverse=best)
    seat, other = ranked[0], ranked[1]
    same_rank = keys[seat][:2] == keys[other][:2]
    return seat, "suit_tiebreak" if same_rank else "poker_rank", other


def score_hand(hands: list[list[str]], side_bets: list[str | None], bidding: list[list[str]]) -> list[dict[str, Any]]:
    """Each seat's points for one hand, item by item."""
    return score_decisions(hands, side_bets, bidding)[0]


def score_decisions(
    hands: list[list[str]], side_bets: list[str | None], bidding: list[list[str]]
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Each seat's points for one hand, item by item, and what decided the best and worst hand and the
    side bet (seats and rule ids): the showdown's reasons come from here."""
    evaluated = [best_hand(cards) for cards in hands]
    keys = [key for key, _five in evaluated]
    best, best_rule, best_over = extreme_hand(keys, best=True)
    worst, worst_rule, worst_under = extreme_hand(keys, best=False)
    winner, side_rule = side_bet_decision(side_bets)
    decided = {
        "best": best, "best_rule": best_rule, "best_over": best_over,
        "worst": worst, "worst_rule": worst_rule, "worst_under": worst_under,
        "side_bet_winner": winner, "side_bet_rule": side_rule,
    }  # fmt: skip
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
    return rows, decided


def _score(state: State) -> State:
    rows, decided = score_decisions(state["hands"], state["side_bet"], state["bidding"])
    totals = [row["total"] for row in rows]
    scores = [a + b for a, b in zip(state["scores"], totals, strict=True)]
    history = [*state["history"], totals]
    last_hand = _showdown(state, rows) | {"decided": decided}
    settled = [*state["settled"], *showdown_reasons(state, rows, decided), hand_reason(state, totals, scores)]
    scored: State = {**state, "scores": scores, "history": history, "last_hand": last_hand}
    if max(scores) >= state["options"]["target"]:
        return {**scored, "phase": "over", "settled": [*settled, match_reason(scored)]}
    colours = state["colours"][-1:] + state["colours"][:-1]  # each set passes to the next seat
    new = _start_hand(
        state["players"], state["seed"], state["options"], scores, history, state["hand_no"] + 1, colours, last_hand
    )
    return {**new, "settled": settled}


# --- reasons: why a showdown, a hand, the match went as they did --------------------------


def showdown_reasons(state: State, rows: list[dict[str, Any]], decided: dict[str, Any]) -> list[dict[str, Any]]:
    """One reason per seat (its category and every item of its points, so that two hands of one category
    can be told apart), then the best and the worst hand and the side bet, as ``score_decisions`` decided.
    Every card in them is shown at the showdown: the fives and the side bets."""
    found = [
        {
            "kind": "showdown",
            "rule": row["category"].replace(" ", "_"),
            "hand_no": state["hand_no"],
            "seat": seat,
            "category": row["category"],
            "five": list(row["five"]),
            "points": dict(row["points"]),
            "total": row["total"],
            "unused_rapscallions": sum(map(is_rapscallion, state["bidding"][seat])),
        }
        for seat, row in enumerate(rows)
    ]
    for end, points in (("best", BEST_HAND_POINTS), ("worst", WORST_HAND_POINTS)):
        seat, other = decided[end], decided["best_over" if end == "best" else "worst_under"]
        found.append(
            {
                "kind": f"{end}_hand",
                "rule": decided[f"{end}_rule"],
                "hand_no": state["hand_no"],
                "seat": seat,
                "category": rows[seat]["category"],
                "five": list(rows[seat]["five"]),
                "other": other,
                "other_five": list(rows[other]["five"]),
                "points": points,
            }
        )
    return [*found, _side_bet_reason(state, decided)]


def _side_bet_reason(state: State, decided: dict[str, Any]) -> dict[str, Any]:
    winner = decided["side_bet_winner"]
    return {
        "kind": "side_bet",
        "rule": decided["side_bet_rule"],
        "hand_no": state["hand_no"],
        "seat": winner,
        "card": None if winner is None else state["side_bet"][winner],
        "bets": list(state["side_bet"]),
        "points": SIDE_BET_POINTS if winner is not None else 0,
    }


def hand_reason(state: State, totals: list[int], scores: list[int]) -> dict[str, Any]:
    """The hand's points per seat (the sum of each seat's items) and the match totals after it."""
    return {
        "kind": "hand",
        "rule": "items_added",
        "hand_no": state["hand_no"],
        "scores": list(totals),
        "totals": list(scores),
        "target": state["options"]["target"],
    }


def match_reason(state: State) -> dict[str, Any]:
    """Someone reached the target: the highest total wins, ties broken by the last hand, then the one before."""
    scores, ranking = state["scores"], places(state)
    tied = sum(1 for total in scores if total == max(scores)) > 1
    return {
        "kind": "match",
        "rule": "last_hands_break_tie" if tied else "highest_total",
        "scores": list(scores),
        "places": ranking,
        "target": state["options"]["target"],
    }


def reasons(before: State, after: State) -> list[dict[str, Any]]:
    """What the one action from ``before`` to ``after`` settled, in order: Rapscallions cancelling, the
    taking order of a round, and at the end of a hand its showdown, its points and perhaps the match.

    Recorded by the rules as they applied (``taking_order``, ``score_decisions``); a state stored before
    reasons existed has none."""
    return json_copy(after.get("settled") or [])


def _showdown(state: State, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The hand's result as the table saw it. Labels, not codes: after the next
    deal these codes name cards that a seat may not see."""
    return {
        "hand_no": state["hand_no"],
        "side_bet_winner": side_bet_winner(state["side_bet"]),
        "seats": [
            {
                "category": row["category"],
                "five": [card_label(c) for c in row["five"]],
                "side_bet": card_label(cast(str, state["side_bet"][s])),  # every seat has bet by now
                "points": row["points"],
                "total": row["total"],
            }
            for s, row in enumerate(rows)
        ],
    }


def places(state: State) -> list[int]:
    """Highest total first; ties go to the last hand's points, then the hand before."""
    history = state["history"]
    keys = [(total, *[hand[s] for hand in reversed(history)]) for s, total in enumerate(state["scores"])]
    return [1 + sum(1 for other in keys if other > mine) for mine in keys]


def outcome(state: State) -> dict[str, Any]:
    if not is_over(state):
        raise ValueError("The match is not over yet.")
    return {
        "scores": list(state["scores"]),
        "places": places(state),
        "hands": [list(hand) for hand in state["history"]],
        "last_hand": json_copy(state["last_hand"]),
    }


def running_scores(view: dict[str, Any]) -> list[float]:
    """The match's scores so far on its outcome's scale, from any view: the table keeps the outcome's points."""
    return view_scores(view)


# --- views ----------------------------------------------------------------------------


def view(state: State, seat: int | None = None) -> dict[str, Any]:
    """What ``seat`` may see (None: a spectator): the public keys, copied, and
    what the seat may know of the private ones."""
    if seat is not None and (not is_whole(seat) or not 0 <= seat < state["players"]):
        raise ValueError(f"There is no seat {seat!r} at this table.")
    over = state["phase"] == "over"
    result = public_part(state, PUBLIC_FIELDS)
    options = state["options"]
    result.update(
        target=options["target"],
        bidding_values=json_copy(options["bidding_values"]),
        to_act=to_act(state),
        round_kind="playing" if PLAN[state["round"]] == "P" else "bidding",
        bids=[card if card is None or s == seat else "sealed" for s, card in enumerate(state["sealed"])],
        side_bets=[card if card is None or s == seat or over else "placed" for s, card in enumerate(state["side_bet"])],
        takes=[_shown_take(take, seat) for take in state["taken"]],
        holding=_holding(state),
        buried=len(state["buried_cards"]),
        buried_bidding=len(state["buried_bidding_cards"]),
        deck=len(state["stock"]),
        bidding_deck=len(state["bidding_stock"]),
    )
    if seat is not None:
        result["seat"] = seat
        result["hand"] = list(state["hands"][seat])
        result["bidding_cards"] = list(state["bidding"][seat])
    if over:
        result["outcome"] = outcome(state)
    return result


def _shown_take(take: list[Any], seat: int | None) -> dict[str, Any]:
    taker, card, face_down = take
    return {"seat": taker, "card": HIDDEN if face_down and taker != seat else card, "face_down": face_down}


def _holding(state: State) -> list[list[int]]:
    """[playing, bidding] cards per seat; a sealed bid still counts, so the count tells nothing about it."""
    result = [[len(hand), len(bidding)] for hand, bidding in zip(state["hands"], state["bidding"], strict=True)]
    for seat, sealed in enumerate(state["sealed"]):
        if sealed is not None:
            result[seat][0 if is_playing(sealed) else 1] += 1
    return result


def state_from_view(view: dict[str, Any], private: dict[str, Any]) -> State:
    """The full state from a seat's view plus ``private`` (exactly ``PRIVATE_FIELDS``, real or sampled)."""
    # A state made up from a view has no last action, so what it settled may be left out (a bot's sampler does).
    private = {"settled": [], **private} if "seed" in private else private
    return cast(State, rebuild(view, private, PUBLIC_FIELDS, PRIVATE_FIELDS))


def describe(state: State, seat: int, action: dict[str, Any]) -> str:
    kind, card = action.get("type"), action.get("card")
    if kind == "side_bet":
        return "placed a side bet"
    if kind == "bid":
        return "placed a sealed bid"
    if kind == "take" and card == HIDDEN:
        return "took the face-down card" if _kind(state) == "P" else "took the face-down bidding card"
    if kind == "take" and isinstance(card, str):
        return f"took {card_label(card)}"
    return "did something unexpected"
