"""Renfield: a trick-taking gambling game; take the fewest bugs, but at least one.

Rules: ``docs/rules/renfield.md`` (digest ``shared/spec/rules-renfield.md``).

A hand runs through these phases (``state["phase"]``); the bracketed ones
belong to a variant::

    deal -> [auction] -> [betting -> discard] -> bidding -> [order] -> play
             Auction      Draw                              not Flatline
    play -> deal of the next hand, or over after ``hands_total`` hands

Whenever only one seat is left in the hand (the others folded, or sit out in
Blaze), the engine plays the rest out for it and scores the hand.

Cards are suit letter then rank: ``T12`` (Tools 12), ``P3``, ``S0`` (the Stones
key card, in the deck only with Flatline's zeroes option).

Actions, by phase:

- ``auction``: ``{"type": "bid", "amount": 3}`` ($1 to $10, $10 buys
  outright), ``{"type": "pass"}``; the buyer then
  ``{"type": "offer", "card": "P4"}`` puts a card of their hand up for resale.
- ``betting``: ``{"type": "check"}``, ``{"type": "bet"}``,
  ``{"type": "call"}``, ``{"type": "raise"}``, ``{"type": "fold"}``; bets
  and raises are the fixed ``draw_bet``.
- ``discard``: ``{"type": "discard", "card": "S9"}`` (up to four, one at a
  time), then ``{"type": "draw"}`` to refill.
- ``bidding``: ``{"type": "bid", "amount": 4}`` (dollars; bugs in Blaze) or
  ``{"type": "pass"}``.
- ``order``: ``{"type": "order", "suits": ["T", "S", "P"]}``, highest first.
- ``play``: ``{"type": "play", "card": "T12"}``; a wild card names what it is
  played as: ``{"type": "play", "card": "P1", "suit": "S", "rank": 17}``.
  ``{"type": "fold"}`` (with a bug taken, or when only a Death card is left
  to lead), ``{"type": "buy"}`` (Buying the Trick: fold with no bugs by
  paying for the cards in the trick).

Amounts and ranks are whole numbers (``int``) and nothing else: ``True`` and
``1.0`` are refused although Python finds them equal to ``1``.

Why it happened: ``reasons(before, after)`` gives what one action settled, as the rules that applied
recorded it (``settled``): ``trick`` (rules ``highest_of_led_suit``, ``higher_suit``,
``equal_card_earlier``, ``highest_rank``, ``equal_rank_later``, ``zero_led``, ``death_card``,
``last_seat_in``), ``bought_out``, ``hand`` (``fewest_bugs``, ``split_pot``, ``no_bugs``,
``blaze_made``, ``blaze_failed``), ``folded``, ``sat_out`` and ``match`` (``hands_played``). Each
finished trick and each history record carries its own ``reason`` too.

The state is plain JSON (``State`` below says which keys are public). ``apply``
never changes its argument: every helper takes a state and returns a new one,
sharing the lists it does not change.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import permutations
from typing import Any, TypedDict, cast

from engine.cards import (
    action_in,
    check_stacked_deck,
    is_whole,
    json_copy,
    places_from_scores,
    public_part,
    rebuild,
    shuffled,
)
from engine.cards import validate_options as check_schema
from engine.errors import IllegalAction

NAME = "renfield"
TITLE = "Renfield"
MIN_PLAYERS = 3
MAX_PLAYERS = 8

SUITS = ("T", "P", "S")
SUIT_NAMES = {"T": "Tools", "P": "Parts", "S": "Stones"}
TOP_RANK = 17
FULL_DECK = [suit + str(rank) for suit in SUITS for rank in range(TOP_RANK + 1)]
KEY_CARDS = [suit + "0" for suit in SUITS]
PLAYING_CARDS = [card for card in FULL_DECK if card not in KEY_CARDS]
DEFAULT_BUGS = [1, 0, 1, 2, 0, 3, 1, 2, 4, 0, 5, 0, 3, 6, 2, 4, 5]
DEFAULT_DOLLARS = [1, 0, 0, 1, 2, 1, 2, 3, 2, 4, 3, 0, 4, 2, 5, 4, 5]
VALUE_LIMIT = 99  # a sanity bound on a club's own printed values
MONEY_DOUBLER = "2"  # rank of the cards that double a trick's price
BUG_DOUBLER = "12"  # rank of the cards that double a hand's bugs
TRICKS = 6
HAND_SIZE, STUD_SIZE, STUD_DOWN, BREATHING_SIZE = 6, 7, 3, 8
AUCTION_PACK, AUCTION_MAX = 7, 10
LEAD_PRICE, FLATLINE_LEAD_PRICE = 5, 2
DRAW_MAX_DISCARDS, DRAW_MAX_RAISES = 4, 3
ORDERS = [list(order) for order in permutations(SUITS)]
VARIANT_LIMITS = {"auction": 7, "stud": 7, "breathing_room": 6}
EXCLUSIVE = [("stud", "breathing_room"), ("stud", "draw")]
SUB_OPTIONS = {"death_all_suits": "death_card", "flatline_zeroes": "flatline"}

OPTIONS: list[dict[str, Any]] = [
    {
        "name": "stake",
        "type": "int",
        "default": 100,
        "min": 1,
        "max": 1_000_000,
        "label": "Stake",
        "help": "Dollars each player starts with.",
    },
    {
        "name": "hands",
        "type": "int",
        "default": 0,
        "min": 0,
        "max": 200,
        "label": "Hands",
        "help": "Hands in the match; 0 means one deal per player.",
    },
    {
        "name": "deck_values",
        "type": "json",
        "default": None,
        "label": "Card values",
        "help": 'The printed deck: {"bugs": [17 numbers], "dollars": [17 numbers]} for ranks 1-17, '
        'or one such table per suit under "T", "P", "S". Empty means the default deck.',
    },
    {"name": "auction", "type": "bool", "default": False, "label": "Auction", "help": "Seven players at most."},
    {"name": "blaze", "type": "bool", "default": False, "label": "Blaze", "help": "Take the most bugs."},
    {"name": "death_card", "type": "bool", "default": False, "label": "The Death Card", "help": ""},
    {
        "name": "death_cards",
        "type": "cards",
        "default": ["S7"],
        "choices": PLAYING_CARDS,
        "label": "Death cards",
        "help": "The cards that are Death (with the Death Card).",
    },
    {
        "name": "death_all_suits",
        "type": "bool",
        "default": False,
        "label": "Death has all suits",
        "help": "The Death card may be played at any time.",
    },
    {"name": "draw", "type": "bool", "default": False, "label": "Draw", "help": "A betting round and a draw."},
    {
        "name": "draw_bet",
        "type": "int",
        "default": 5,
        "min": 1,
        "max": 1000,
        "label": "Draw bet",
        "help": "The fixed size of a bet or raise in Draw.",
    },
    {"name": "flatline", "type": "bool", "default": False, "label": "Flatline", "help": "No key cards."},
    {
        "name": "flatline_zeroes",
        "type": "bool",
        "default": False,
        "label": "Zeroes shuffled in",
        "help": "Flatline: the key cards go into the deck; a led zero makes its suit high.",
    },
    {"name": "stud", "type": "bool", "default": False, "label": "Stud", "help": "Seven cards, four face up."},
    {"name": "wild_cards", "type": "bool", "default": False, "label": "Wild Cards", "help": ""},
    {
        "name": "wilds",
        "type": "cards",
        "default": ["T1", "P1", "S1"],
        "choices": PLAYING_CARDS,
        "label": "Wild cards",
        "help": "The cards that are wild (with Wild Cards).",
    },
    {
        "name": "breathing_room",
        "type": "bool",
        "default": False,
        "label": "Breathing Room",
        "help": "Eight cards, six played; six players at most.",
    },
    {
        "name": "buying_the_trick",
        "type": "bool",
        "default": False,
        "label": "Buying the Trick",
        "help": "Fold with no bugs by paying for the cards in the trick.",
    },
]

Action = dict[str, Any]

# --- card helpers -------------------------------------------------------------

RANK_OF = {code: int(code[1:]) for code in FULL_DECK}
DECK_POSITION = {code: i for i, code in enumerate(FULL_DECK)}
LABELS = {code: f"{SUIT_NAMES[code[0]]} {code[1:]}" for code in FULL_DECK}


def rank_of(card: str) -> int:
    return RANK_OF[card]


def card_label(code: str) -> str:
    """``"T12"`` -> ``"Tools 12"``; text that is not a card code (a label
    already, as the view's Death and wild cards are) comes back unchanged."""
    return LABELS.get(code, code)


def label_code(text: str) -> str:
    """The inverse of ``card_label``: ``"Tools 12"`` -> ``"T12"``."""
    name, rank = text.split(" ")
    return next(s for s, n in SUIT_NAMES.items() if n == name) + rank


def sorted_cards(cards: list[str]) -> list[str]:
    """Suit by suit (T, P, S), then by rank: the order hands are kept in."""
    return sorted(cards, key=DECK_POSITION.__getitem__)


def bugs_of(table: dict[str, Any], card: str) -> int:
    return table[card[0]]["bugs"][RANK_OF[card]]


def dollars_of(table: dict[str, Any], card: str) -> int:
    return table[card[0]]["dollars"][RANK_OF[card]]


def trick_price(table: dict[str, Any], cards: list[str]) -> int:
    """The cards' dollar costs, doubled once per 2 among them."""
    doublers = sum(1 for c in cards if c[1:] == MONEY_DOUBLER)
    return sum(dollars_of(table, c) for c in cards) << doublers


def bug_total(table: dict[str, Any], taken: list[str]) -> int:
    """Bugs of the taken cards, doubled once per 12 among them."""
    doublers = sum(1 for c in taken if c[1:] == BUG_DOUBLER)
    return sum(bugs_of(table, c) for c in taken) << doublers


def match_deck(options: dict[str, Any]) -> list[str]:
    return list(FULL_DECK) if options.get("flatline") and options.get("flatline_zeroes") else list(PLAYING_CARDS)


def hand_size(options: dict[str, Any]) -> int:
    if options.get("stud"):
        return STUD_SIZE
    return BREATHING_SIZE if options.get("breathing_room") else HAND_SIZE


# --- options ------------------------------------------------------------------


def default_table() -> dict[str, Any]:
    row = {"bugs": [0, *DEFAULT_BUGS], "dollars": [0, *DEFAULT_DOLLARS]}
    return {suit: {"bugs": list(row["bugs"]), "dollars": list(row["dollars"])} for suit in SUITS}


def _check_row(row: Any, where: str) -> dict[str, list[int]]:
    if not isinstance(row, dict) or set(row) != {"bugs", "dollars"}:
        raise ValueError(f'The card values{where} need exactly two lists, "bugs" and "dollars".')
    for key in ("bugs", "dollars"):
        values = row[key]
        if not isinstance(values, list) or len(values) != TOP_RANK:
            raise ValueError(f"The {key} list{where} must give one number for each rank 1 to {TOP_RANK}.")
        if any(type(v) is not int or not 0 <= v <= VALUE_LIMIT for v in values):
            raise ValueError(f"The {key}{where} must be whole numbers from 0 to {VALUE_LIMIT}.")
    return {"bugs": [0, *row["bugs"]], "dollars": [0, *row["dollars"]]}


def table_from(deck_values: Any) -> dict[str, Any]:
    """The per-suit value table (index = rank, 0 for the key cards)."""
    if deck_values is None:
        return default_table()
    if isinstance(deck_values, dict) and set(deck_values) == set(SUITS):
        return {s: _check_row(deck_values[s], f" for {SUIT_NAMES[s]}") for s in SUITS}
    row = _check_row(deck_values, "")
    return {s: {"bugs": list(row["bugs"]), "dollars": list(row["dollars"])} for s in SUITS}


def _check_variants(players: int, opts: dict[str, Any]) -> None:
    for variant, limit in VARIANT_LIMITS.items():
        if opts[variant] and players > limit:
            raise ValueError(f"{_title(variant)} allows at most {limit} players, not {players}.")
    for a, b in EXCLUSIVE:
        if opts[a] and opts[b]:
            raise ValueError(f"{_title(a)} and {_title(b)} cannot be played together.")
    for sub, main in SUB_OPTIONS.items():
        if opts[sub] and not opts[main]:
            raise ValueError(f"The option {sub!r} needs the {_title(main)} variant.")
    if opts["death_card"] and not opts["death_cards"]:
        raise ValueError("Name at least one Death card.")
    if opts["wild_cards"] and not opts["wilds"]:
        raise ValueError("Name at least one wild card.")
    if opts["death_card"] and opts["wild_cards"] and set(opts["death_cards"]) & set(opts["wilds"]):
        raise ValueError("A card cannot be both Death and wild.")
    needed = players * hand_size(opts) + (AUCTION_PACK if opts["auction"] else 0)
    available = len(match_deck(opts))
    if needed > available:
        raise ValueError(f"These rules need {needed} cards for {players} players but the deck has only {available}.")


def _title(name: str) -> str:
    return next(entry["label"] for entry in OPTIONS if entry["name"] == name)


def validate_options(players: int, options: dict[str, Any] | None) -> dict[str, Any]:
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Renfield is for {MIN_PLAYERS} to {MAX_PLAYERS} players.")
    opts = check_schema(options, OPTIONS, players)
    table_from(opts["deck_values"])
    _check_variants(players, opts)
    if opts["hands"] == 0:
        opts["hands"] = players
    if "deck" in opts:
        check_stacked_deck(opts["deck"], match_deck(opts))
    return opts


# --- the state ----------------------------------------------------------------
#
# Declared once, in two parts: what lasts the whole match and what each deal
# starts afresh. Every key is marked public (copied into every view) or
# private (never leaves the engine except through a seat's own ``hand``).
# ``PUBLIC_FIELDS`` and ``PRIVATE_FIELDS`` below must list every key between
# them; a test enforces it, so a new key is hidden until someone decides.


class MatchFields(TypedDict):
    players: int  # public: seats at the table
    seed: int  # private: shuffles every deal
    options: dict[str, Any]  # public: validated options (views show Death and wild cards by label)
    table: dict[str, Any]  # public: bugs and dollars per suit and rank
    stake: int  # public: the money each seat started with
    hands_total: int  # public: hands in the match
    max_bid: int  # public: the Blaze bid ceiling, the bugs printed on the whole deck
    money: list[int]  # public: each seat's money now (negative is a debt)
    pot: int  # public
    hand_no: int  # public: hands finished so far
    dealer: int  # public
    out: list[bool]  # public: Blaze seats sitting out until someone wins the pot
    history: list[dict[str, Any]]  # public: one record per finished hand
    over: bool  # public
    # private: the reasons of what the last action settled (``reasons``). Not secret, but one action may
    # finish a hand and play out the next (a Blaze seat dealt in alone), whose tricks no view still holds.
    settled: list[dict[str, Any]]


class Bidding(TypedDict):
    seq: list[int]  # seats in bidding order, the dealer last
    high: int  # the bid to beat
    by: int | None  # who made it
    passed: list[int]


class Auction(TypedDict):
    offer: str | None  # the card on offer, face up
    seller: int | None  # None for a pack card
    high: int
    by: int | None
    active: list[int]  # seats that may still bid on it
    bought: list[int]  # seats that bought in this chain (and may not bid again)
    step: str  # "bid", or "offer" when the buyer puts a card up
    just_bought: str | None  # the buyer may not put this one up again


class Betting(TypedDict):
    bet: int  # what each seat must have put in
    put: list[int]  # what each seat has put in
    raises: int
    to_go: list[int]  # seats still to act, in order


# Functional syntax because one key is ``in``.
HandFields = TypedDict(
    "HandFields",
    {
        "in": list[bool],  # public: seats still in this hand
        "hands": list[list[str]],  # private (a seat sees its own as the view's ``hand``)
        "shown": list[list[str]],  # public: face-up cards in hands (Stud up-cards, bought cards)
        "laid_down": list[list[str]],  # private: folded hands, unseen even by their owner
        "taken": list[list[str]],  # public: cards each seat has taken
        "bugs": list[int],  # public: bugs taken, before doubling
        "keys": list[str],  # public: the key cards on the table
        "deck": list[str],  # private: the undealt cards
        "pack": list[str],  # private: Auction's face-down pack
        "draw_pile": list[str],  # private: Draw's discards, face down
        "discards": list[str],  # public: unsold auction cards, face up
        "removed": list[str],  # public: Death tricks, face up
        "trick": list[dict[str, Any]],  # public: plays so far, {"card", "seat"[, "suit", "rank"]}
        "tricks": list[dict[str, Any]],  # public: finished tricks of this hand
        "queue": list[int],  # public: Draw's seats still to discard
        "discarded": list[int],  # public: how many cards each seat discarded
        "bidding": Bidding | None,  # public
        "auction": Auction | None,  # public
        "betting": Betting | None,  # public
        "bidder": int | None,  # public: who won the lead
        "bid": int,  # public: what they bid
        "order": list[str] | None,  # public: suits, highest first
        "leader": int | None,  # public: who led the current trick
        "turn": int | None,  # public: the seat to act
        "phase": str,  # public: see the diagram at the top
    },
)


class State(MatchFields, HandFields):
    """A whole Renfield state: plain JSON."""


PRIVATE_FIELDS = ("seed", "hands", "laid_down", "deck", "pack", "draw_pile", "settled")
# Copied into every view; those in RELABELLED_FIELDS in another form (``options`` names its cards by label,
# so that a code in a view always means a card that seat sees), which ``state_from_view`` turns back.
RELABELLED_FIELDS = ("options",)
# fmt: off
PUBLIC_FIELDS = (
    "players", "options", "table", "stake", "hands_total", "max_bid", "money", "pot", "hand_no", "dealer", "out",
    "history", "over", "in", "shown", "taken", "bugs", "keys", "discards", "removed", "trick", "tricks", "queue",
    "discarded", "bidding", "auction", "betting", "bidder", "bid", "order", "leader", "turn", "phase",
)
# fmt: on


def _bidding(s: State) -> Bidding:
    return cast(Bidding, s["bidding"])  # set throughout the bidding phase


def _auction(s: State) -> Auction:
    return cast(Auction, s["auction"])  # set throughout the auction phase


def _betting(s: State) -> Betting:
    return cast(Betting, s["betting"])  # set throughout the betting phase


def _replace[T](items: list[T], index: int, value: T) -> list[T]:
    """A copy of ``items`` with one item replaced."""
    copy = list(items)
    copy[index] = value
    return copy


def _seats_after(s: State, seat: int) -> list[int]:
    """Seats still in the hand, clockwise starting after ``seat``."""
    n = s["players"]
    return [(seat + k) % n for k in range(1, n + 1) if s["in"][(seat + k) % n]]


def _count_in(s: State) -> int:
    return sum(s["in"])


def _special(s: State) -> tuple[frozenset[str], frozenset[str]]:
    """(wild cards, Death cards) of this match."""
    o = s["options"]
    wild = frozenset(o["wilds"]) if o["wild_cards"] else frozenset()
    death = frozenset(o["death_cards"]) if o["death_card"] else frozenset()
    return wild, death


def to_act(state: State) -> list[int]:
    return [] if state["over"] or state["turn"] is None else [state["turn"]]


def is_over(state: State) -> bool:
    return state["over"]


def hand_index(state: State) -> int:
    return state["hand_no"]


# --- a new match and each deal ------------------------------------------------


def new_match(players: int, options: dict[str, Any] | None = None, seed: int | None = None) -> State:
    opts = validate_options(players, options)
    stacked = opts.pop("deck", None)
    table = table_from(opts["deck_values"])
    match: MatchFields = {
        "players": players,
        "seed": 0 if seed is None else seed,
        "options": opts,
        "table": table,
        "stake": opts["stake"],
        "hands_total": opts["hands"],
        "max_bid": sum(bugs_of(table, c) for c in match_deck(opts)),
        "money": [opts["stake"]] * players,
        "pot": 0,
        "hand_no": 0,
        "dealer": 0,
        "out": [False] * players,
        "history": [],
        "over": False,
        "settled": [],
    }
    return _begin_hand(match, stacked)


def _begin_hand(s: MatchFields, stacked: list[str] | None = None) -> State:
    """Deal, take Blaze's ante, and open the hand's first phase."""
    deck = list(stacked) if stacked else shuffled(match_deck(s["options"]), s["seed"], "hand", s["hand_no"])
    state: State = {**s, **_deal(s, deck)}
    if s["options"]["blaze"]:
        state = _ante(state)
    if _count_in(state) == 1:
        return _play_out_alone(state)
    if s["options"]["auction"]:
        return _start_auction(state)
    return _after_auction(state)


def _deal(s: MatchFields, deck: list[str]) -> HandFields:
    """A fresh hand: one card at a time from the seat after the dealer; in
    Stud the first three rounds are face down and the rest face up."""
    n, dealer, opts = s["players"], s["dealer"], s["options"]
    seats_in = [not out for out in s["out"]]
    order = [(dealer + k) % n for k in range(1, n + 1) if seats_in[(dealer + k) % n]]
    hands: list[list[str]] = [[] for _ in range(n)]
    shown: list[list[str]] = [[] for _ in range(n)]
    top = 0
    for round_no in range(hand_size(opts)):
        for seat in order:
            hands[seat].append(deck[top])
            if opts["stud"] and round_no >= STUD_DOWN:
                shown[seat].append(deck[top])
            top += 1
    return {
        **_empty_hand(n, seats_in, keys=[] if len(deck) == len(FULL_DECK) else list(KEY_CARDS)),
        "hands": [sorted_cards(h) for h in hands],
        "shown": [sorted_cards(h) for h in shown],
        "deck": deck[top:],
    }


def _empty_hand(n: int, seats_in: list[bool], keys: list[str]) -> HandFields:
    """What every deal starts from, before the cards."""
    return {
        "in": seats_in,
        "hands": [[] for _ in range(n)],
        "shown": [[] for _ in range(n)],
        "laid_down": [[] for _ in range(n)],
        "taken": [[] for _ in range(n)],
        "bugs": [0] * n,
        "keys": keys,
        "deck": [],
        "pack": [],
        "draw_pile": [],
        "discards": [],
        "removed": [],
        "trick": [],
        "tricks": [],
        "queue": [],
        "discarded": [0] * n,
        "bidding": None,
        "auction": None,
        "betting": None,
        "bidder": None,
        "bid": 0,
        "order": None,
        "leader": None,
        "turn": None,
        "phase": "deal",
    }


def _ante(s: State) -> State:
    """Blaze: every seat dealt in puts $1 in the pot."""
    money = [m - 1 if seat_in else m for m, seat_in in zip(s["money"], s["in"], strict=True)]
    return {**s, "money": money, "pot": s["pot"] + _count_in(s)}


def _after_auction(s: State) -> State:
    return _start_betting(s) if s["options"]["draw"] else _start_bidding(s)


# --- legal actions, per phase -------------------------------------------------


def _legal_auction(s: State, seat: int) -> list[Action]:
    a = _auction(s)
    if a["step"] == "offer":
        return [{"type": "offer", "card": c} for c in s["hands"][seat] if c != a["just_bought"]]
    return _bids(*_bid_range(s, seat))


def _legal_betting(s: State, seat: int) -> list[Action]:
    b, unit, money = _betting(s), s["options"]["draw_bet"], s["money"][seat]
    if b["bet"] == 0:
        acts = [{"type": "check"}] + ([{"type": "bet"}] if money >= unit else [])
    else:
        can_raise = b["raises"] < DRAW_MAX_RAISES and money >= b["bet"] - b["put"][seat] + unit
        acts = [{"type": "call"}] + ([{"type": "raise"}] if can_raise else [])
    return acts + [{"type": "fold"}]


def _legal_discard(s: State, seat: int) -> list[Action]:
    acts: list[Action] = [{"type": "draw"}]
    if s["discarded"][seat] < DRAW_MAX_DISCARDS:
        acts += [{"type": "discard", "card": c} for c in s["hands"][seat]]
    return acts


def _legal_bidding(s: State, seat: int) -> list[Action]:
    return _bids(*_bid_range(s, seat))


def _bids(low: int, top: int) -> list[Action]:
    return [{"type": "pass"}] + [{"type": "bid", "amount": x} for x in range(low, top + 1)]


def _bid_range(s: State, seat: int) -> tuple[int, int]:
    """The lowest and highest bid ``seat`` may make now (none when low > top).
    An auction bid is at most $10; a Blaze bid at most the bugs printed on the
    whole deck; any other bid at most the money held."""
    if s["phase"] == "auction":
        return _auction(s)["high"] + 1, min(AUCTION_MAX, s["money"][seat])
    top = s["max_bid"] if s["options"]["blaze"] else s["money"][seat]
    return _bidding(s)["high"] + 1, top


def _legal_order(s: State, seat: int) -> list[Action]:
    return [{"type": "order", "suits": list(order)} for order in ORDERS]


def _legal_play(s: State, seat: int) -> list[Action]:
    hand, trick = s["hands"][seat], s["trick"]
    wild, death = _special(s)
    suits: tuple[str, ...] | list[str]
    if trick:
        led = played_as(trick[0])[0]
        natural = [c for c in hand if c not in wild and c not in death]
        follow = [c for c in natural if c[0] == led]
        if follow:
            cards = follow + ([c for c in hand if c in death] if s["options"]["death_all_suits"] else [])
            suits = [led]
        else:
            cards, suits = natural + [c for c in hand if c in death], SUITS
    else:
        cards, suits = [c for c in hand if c not in wild and c not in death], SUITS
    acts: list[Action] = [{"type": "play", "card": c} for c in cards]
    for card in hand:
        if card in wild:
            acts += _wild_plays(card, suits)
    return acts + _legal_fold(s, seat, only_death=not trick and not acts)


def _wild_plays(card: str, suits: tuple[str, ...] | list[str]) -> list[Action]:
    return [
        {"type": "play", "card": card, "suit": suit, "rank": rank} for suit in suits for rank in range(1, TOP_RANK + 1)
    ]


def _legal_fold(s: State, seat: int, only_death: bool) -> list[Action]:
    if s["bugs"][seat] >= 1 or only_death:
        return [{"type": "fold"}]
    if s["options"]["buying_the_trick"] and s["trick"]:
        return [{"type": "buy"}]
    return []


LEGAL = {
    "auction": _legal_auction,
    "betting": _legal_betting,
    "discard": _legal_discard,
    "bidding": _legal_bidding,
    "order": _legal_order,
    "play": _legal_play,
}


def legal_actions(state: State, seat: int) -> list[Action]:
    if state["over"] or not is_whole(seat) or seat != state["turn"]:
        return []
    return LEGAL[state["phase"]](state, seat)


# --- apply: the one legality check, then the phase's own step -----------------


def apply(state: State, seat: int, action: Action) -> State:
    """The state after ``seat`` takes ``action``. ``action_in`` compares type
    for type: Python finds ``True == 1 == 1.0``, but an amount or a rank is
    a whole number and nothing else."""
    legal = legal_actions(state, seat)
    if not action_in(action, legal):
        raise IllegalAction(_refusal(state, seat, action, legal))
    return APPLY[state["phase"]]({**state, "settled": []}, seat, action)


def _refusal(s: State, seat: Any, action: Any, legal: list[Action]) -> str:
    """A sentence saying why ``action`` is refused."""
    if s["over"]:
        return "The match is over."
    if not is_whole(seat) or seat != s["turn"]:
        return f"It is not your turn; seat {s['turn']} is to act."
    kind = action.get("type") if isinstance(action, dict) else None
    kinds = sorted({a["type"] for a in legal})
    if kind == "fold" and s["phase"] == "play" and kind not in kinds:
        return "You may fold only once you have taken at least one bug."
    if kind == "discard" and s["phase"] == "discard" and kind not in kinds:
        return f"You may discard at most {DRAW_MAX_DISCARDS} cards."
    if kind not in kinds:
        return f"You cannot do that now; you may: {', '.join(kinds)}."
    if kind in ("play", "discard", "offer"):
        return _card_refusal(s, seat, action)
    if kind == "bid":
        amounts = [a["amount"] for a in legal if a["type"] == "bid"]
        unit = "bugs" if s["phase"] == "bidding" and s["options"]["blaze"] else "dollars"
        return f"Bid a whole number of {unit} from {min(amounts)} to {max(amounts)}."
    if kind == "order":
        return "Order the three suits T, P and S, highest first, each once."
    return "That action is not allowed as given."


def _card_refusal(s: State, seat: int, action: Action) -> str:
    card = action.get("card")
    if card not in s["hands"][seat]:
        return "You do not hold that card."
    wild, death = _special(s)
    if action["type"] == "offer":
        return "Put up another card than the one you just bought."
    if action["type"] == "discard":
        return f"You may discard at most {DRAW_MAX_DISCARDS} cards."
    if card in wild:
        return (
            "Say which suit and rank (a whole number from 1 to 17) the wild card is played as; "
            "with the led suit in hand, play it as that suit."
        )
    if not s["trick"]:
        return "A Death card can never be led." if card in death else "That card cannot be led."
    led = played_as(s["trick"][0])[0]
    return f"You must follow suit with a {SUIT_NAMES[led]} card."


def _pay(s: State, seat: int, amount: int) -> State:
    """``seat`` puts ``amount`` in the pot (even into debt)."""
    return {**s, "money": _replace(s["money"], seat, s["money"][seat] - amount), "pot": s["pot"] + amount}


def _without(s: State, seat: int, card: str) -> tuple[list[list[str]], list[list[str]]]:
    """``hands`` and ``shown`` once ``card`` leaves ``seat``'s hand."""
    hands = _replace(s["hands"], seat, [c for c in s["hands"][seat] if c != card])
    shown = s["shown"]
    if card in shown[seat]:
        shown = _replace(shown, seat, [c for c in shown[seat] if c != card])
    return hands, shown


def _next_in_list(s: State, seats: list[int], seat: int) -> int:
    n = s["players"]
    return min(seats, key=lambda p: (p - seat - 1) % n)


def _lay_down(s: State, seat: int) -> State:
    """A fold: the hand goes face down out of play; the taken cards stay up."""
    return {
        **s,
        "in": _replace(s["in"], seat, False),
        "laid_down": _replace(s["laid_down"], seat, s["hands"][seat]),
        "hands": _replace(s["hands"], seat, []),
        "shown": _replace(s["shown"], seat, []),
    }


# --- apply: auction (variant) -------------------------------------------------


def _start_auction(s: State) -> State:
    auction: Auction = {
        "offer": None,
        "seller": None,
        "high": 0,
        "by": None,
        "active": [],
        "bought": [],
        "step": "bid",
        "just_bought": None,
    }
    deck = s["deck"]
    return _reveal_next(
        {**s, "phase": "auction", "pack": deck[:AUCTION_PACK], "deck": deck[AUCTION_PACK:], "auction": auction}
    )


def _reveal_next(s: State) -> State:
    if not s["pack"]:
        return _after_auction({**s, "auction": None})
    auction: Auction = {**_auction(s), "offer": s["pack"][0], "seller": None, "bought": []}
    return _open_auction({**s, "pack": s["pack"][1:], "auction": auction}, s["dealer"])


def _open_auction(s: State, start: int) -> State:
    """Bidding on the card on offer, clockwise after ``start``; a seat that
    has bought in this chain may not bid again, so every chain ends."""
    a = _auction(s)
    active = [p for p in _seats_after(s, start) if p not in a["bought"]]
    s = {**s, "auction": {**a, "step": "bid", "high": 0, "by": None, "just_bought": None, "active": active}}
    return {**s, "turn": active[0]} if active else _unsold(s)


def _apply_auction(s: State, seat: int, action: Action) -> State:
    a = _auction(s)
    if action["type"] == "offer":
        hands, shown = _without(s, seat, action["card"])
        auction: Auction = {**a, "offer": action["card"], "seller": seat}
        return _open_auction({**s, "hands": hands, "shown": shown, "auction": auction}, seat)
    if action["type"] == "pass":
        a = {**a, "active": [p for p in a["active"] if p != seat]}
    else:
        a = {**a, "high": action["amount"], "by": seat}
    s = {**s, "auction": a}
    if a["by"] is not None and (a["high"] == AUCTION_MAX or a["active"] == [a["by"]]):
        return _sell(s, a["by"])
    if not a["active"]:
        return _unsold(s)
    return {**s, "turn": _next_in_list(s, a["active"], seat)}


def _sell(s: State, buyer: int) -> State:
    """Full price to the pot for a pack card; a resale's proceeds are split
    between the seller and the pot, the odd dollar to the pot."""
    a = _auction(s)
    price, card, seller = a["high"], cast(str, a["offer"]), a["seller"]
    money = _replace(s["money"], buyer, s["money"][buyer] - price)
    to_seller = 0 if seller is None else price // 2
    if seller is not None:
        money[seller] += to_seller  # a fresh list, ours to change
    auction: Auction = {
        **a,
        "bought": [*a["bought"], buyer],
        "offer": None,
        "step": "offer",
        "just_bought": card,
        "active": [],
        "high": 0,
        "by": None,
    }
    return {
        **s,
        "money": money,
        "pot": s["pot"] + price - to_seller,
        "hands": _replace(s["hands"], buyer, sorted_cards([*s["hands"][buyer], card])),
        "shown": _replace(s["shown"], buyer, sorted_cards([*s["shown"][buyer], card])),
        "auction": auction,
        "turn": buyer,
    }


def _unsold(s: State) -> State:
    a = _auction(s)
    discards = [*s["discards"], cast(str, a["offer"])]
    return _reveal_next({**s, "discards": discards, "auction": {**a, "offer": None}})


# --- apply: draw (variant), a betting round and then the draw -----------------


def _start_betting(s: State) -> State:
    to_go = _seats_after(s, s["dealer"])
    betting: Betting = {"bet": 0, "put": [0] * s["players"], "raises": 0, "to_go": to_go}
    return {**s, "phase": "betting", "betting": betting, "turn": to_go[0]}


def _apply_betting(s: State, seat: int, action: Action) -> State:
    b, kind = _betting(s), action["type"]
    bet, put, raises = b["bet"], b["put"], b["raises"]
    to_go = [p for p in b["to_go"] if p != seat]
    if kind in ("bet", "raise"):
        bet, raises = bet + s["options"]["draw_bet"], raises + (kind == "raise")
        to_go = [p for p in _seats_after(s, seat) if p != seat]
    if kind in ("bet", "raise", "call"):
        s, put = _pay(s, seat, bet - put[seat]), _replace(put, seat, bet)
    s = {**s, "betting": {"bet": bet, "put": put, "raises": raises, "to_go": to_go}}
    if kind == "fold":
        s = _lay_down(s, seat)
    if _count_in(s) == 1:
        return _play_out_alone(s)
    return {**s, "turn": to_go[0]} if to_go else _start_discard(s)


def _start_discard(s: State) -> State:
    queue = _seats_after(s, s["dealer"])
    return {**s, "phase": "discard", "betting": None, "queue": queue, "turn": queue[0]}


def _apply_discard(s: State, seat: int, action: Action) -> State:
    if action["type"] == "discard":
        hands, shown = _without(s, seat, action["card"])
        discarded = _replace(s["discarded"], seat, s["discarded"][seat] + 1)
        pile = [*s["draw_pile"], action["card"]]
        return {**s, "hands": hands, "shown": shown, "draw_pile": pile, "discarded": discarded}
    queue = s["queue"][1:]
    if queue:
        return {**s, "queue": queue, "turn": queue[0]}
    return _start_bidding(_refill({**s, "queue": queue}))


def _refill(s: State) -> State:
    """All discards are shuffled back into the deck, then every hand is
    refilled in turn order."""
    stock = shuffled(s["deck"] + s["draw_pile"], s["seed"], "draw", s["hand_no"])
    size, hands = hand_size(s["options"]), list(s["hands"])
    for seat in _seats_after(s, s["dealer"]):
        need = size - len(hands[seat])
        hands[seat] = sorted_cards(hands[seat] + stock[:need])
        stock = stock[need:]
    return {**s, "draw_pile": [], "deck": stock, "hands": hands}


# --- apply: bidding for the lead, and the suit order --------------------------


def _start_bidding(s: State) -> State:
    seq = _seats_after(s, s["dealer"])
    bidding: Bidding = {"seq": seq, "high": 0, "by": None, "passed": []}
    return {**s, "phase": "bidding", "bidding": bidding, "turn": seq[0]}


def _apply_bidding(s: State, seat: int, action: Action) -> State:
    b = _bidding(s)
    if action["type"] == "pass":
        b = {**b, "passed": [*b["passed"], seat]}
    else:
        b = {**b, "high": action["amount"], "by": seat}
    s = {**s, "bidding": b}
    if s["options"]["blaze"]:
        return _blaze_next(s, seat)
    following = b["seq"].index(seat) + 1
    if following == len(b["seq"]):
        return _end_bidding(s)
    return {**s, "turn": b["seq"][following]}


def _blaze_next(s: State, seat: int) -> State:
    """Blaze bids go round until all but the high bidder have passed; a pass
    is final."""
    b = _bidding(s)
    active = [p for p in b["seq"] if p not in b["passed"]]
    if not active or active == [b["by"]]:
        return _end_bidding(s)
    return {**s, "turn": _next_in_list(s, active, seat)}


def _end_bidding(s: State) -> State:
    """Nobody bid: the last in turn (the dealer) leads at the house price,
    $5 ($2 in Flatline, a bid of one bug in Blaze)."""
    b, opts = _bidding(s), s["options"]
    if b["by"] is not None:
        bidder, bid = b["by"], b["high"]
    else:
        bidder = b["seq"][-1]
        bid = 1 if opts["blaze"] else FLATLINE_LEAD_PRICE if opts["flatline"] else LEAD_PRICE
    s = {**s, "bidder": bidder, "bid": bid}
    if not opts["blaze"]:
        s = _pay(s, bidder, bid)
    if opts["flatline"]:
        return _start_play(s)
    return {**s, "phase": "order", "turn": bidder}


def _apply_order(s: State, seat: int, action: Action) -> State:
    return _start_play({**s, "order": list(action["suits"])})


# --- apply: the tricks --------------------------------------------------------


def _start_play(s: State) -> State:
    return {**s, "phase": "play", "bidding": None, "leader": s["bidder"], "turn": s["bidder"]}


def played_as(play: dict[str, Any]) -> tuple[str, int]:
    """The suit and rank a card counts as in the trick (a wild's declaration)."""
    card = play["card"]
    return play.get("suit", card[0]), play.get("rank", RANK_OF[card])


def _apply_play(s: State, seat: int, action: Action) -> State:
    if action["type"] == "play":
        hands, shown = _without(s, seat, action["card"])
        play = {k: v for k, v in action.items() if k != "type"} | {"seat": seat}
        s = {**s, "hands": hands, "shown": shown, "trick": [*s["trick"], play]}
    else:
        if action["type"] == "buy":
            s = _buy_out(s, seat)
        s = _lay_down(s, seat)
        if _count_in(s) == 1:
            return _play_out_alone(s)
    if s["trick"] and len(s["trick"]) == _count_in(s):
        return _after_trick(_complete_trick(s))
    nxt = _seats_after(s, seat)[0]
    return {**s, "turn": nxt} if s["trick"] else {**s, "leader": nxt, "turn": nxt}


def _buy_out(s: State, seat: int) -> State:
    """Buying the Trick: a seat with no bugs folds by paying for the cards in the trick."""
    cards = [p["card"] for p in s["trick"]]
    price = trick_price(s["table"], cards)
    reason = {"kind": "bought_out", "rule": "buying_the_trick", "seat": seat, "cards": cards, "price": price}
    return {**_pay(s, seat, price), "settled": [*s["settled"], reason]}


def winner_of(trick: list[dict[str, Any]], order: list[str] | None, options: dict[str, Any]) -> int:
    """The seat whose card takes ``trick`` (``trick_decision`` without its rule). Public so that the bots
    judge tricks exactly as the engine."""
    return trick_decision(trick, order, options)[0]


def trick_decision(trick: list[dict[str, Any]], order: list[str] | None, options: dict[str, Any]) -> tuple[int, str]:
    """The seat whose card takes ``trick`` and the rule that made it: highest suit in the bidder's
    order, then highest rank (an equal declared card loses to the earlier one); in Flatline rank alone,
    a tie going to the later card, and a led zero makes its suit high. Death cards take part in nothing,
    and a trick holding one is taken by nobody (the seat returned leads next)."""
    death = options["death_cards"] if options["death_card"] else ()
    order = order or list(SUITS)
    flat = options["flatline"]
    led_suit, led_rank = played_as(trick[0])
    zero_led = flat and led_rank == 0
    best, best_key, tie = trick[0], None, False
    for play in trick:
        if play["card"] in death:
            continue
        suit, rank = played_as(play)
        key = (zero_led and suit == led_suit, rank) if flat else (-order.index(suit), rank)
        if best_key is None or key > best_key:
            best, best_key, tie = play, key, False
        elif key == best_key:
            best, tie = (play if flat else best), True
    return best["seat"], _trick_rule(trick, best, tie=tie, death=death, flat=flat, zero_led=zero_led)


def _trick_rule(
    trick: list[dict[str, Any]], best: dict[str, Any], *, tie: bool, death: Any, flat: bool, zero_led: bool
) -> str:
    """The id of the rule that gave ``best`` the trick (see ``trick_decision``)."""
    if any(p["card"] in death for p in trick):
        return "death_card"
    if len(trick) == 1:
        return "last_seat_in"
    if flat:
        return "zero_led" if zero_led else "equal_rank_later" if tie else "highest_rank"
    if tie:
        return "equal_card_earlier"
    return "higher_suit" if played_as(best)[0] != played_as(trick[0])[0] else "highest_of_led_suit"


def _complete_trick(s: State) -> State:
    """The taker pays for the trick and leads next; a trick with a Death card
    is taken by nobody and leaves the game face up."""
    trick, table = s["trick"], s["table"]
    winner, rule = trick_decision(trick, s["order"], s["options"])
    cards = [p["card"] for p in trick]
    killed = rule == "death_card"
    price = 0 if killed else trick_price(table, cards)
    reason = trick_reason(s, rule, winner, price)
    record = {
        "leader": trick[0]["seat"],
        "plays": trick,
        "taker": None if killed else winner,
        "winner": winner,
        "reason": reason,
    }
    s = {
        **s,
        "tricks": [*s["tricks"], record],
        "trick": [],
        "leader": winner,
        "turn": winner,
        "settled": [*s["settled"], reason],
    }
    if killed:
        return {**s, "removed": s["removed"] + cards}
    taken = s["taken"][winner] + cards
    bugs = s["bugs"][winner] + sum(bugs_of(table, c) for c in cards)
    return {
        **s,
        "taken": _replace(s["taken"], winner, taken),
        "bugs": _replace(s["bugs"], winner, bugs),
        "money": _replace(s["money"], winner, s["money"][winner] - price),
        "pot": s["pot"] + price,
    }


def trick_reason(s: State, rule: str, winner: int, price: int) -> dict[str, Any]:
    """Why the trick on the table went as it did: the winning play, the rule (``trick_decision``'s) and
    what its taker pays. Every card in it was played face up."""
    trick, table = s["trick"], s["table"]
    play = next(p for p in trick if p["seat"] == winner)
    cards = [p["card"] for p in trick]
    reason: dict[str, Any] = {
        "kind": "trick",
        "rule": rule,
        "hand_no": s["hand_no"],
        "trick_no": len(s["tricks"]) + 1,
        "seat": winner,
        "card": play["card"],
        "led": trick[0]["card"],
        "led_suit": played_as(trick[0])[0],
        "order": list(s["order"] or []),
        "cards": cards,
        "taker": None if rule == "death_card" else winner,
        "price": price,
        "doublers": sum(1 for c in cards if c[1:] == MONEY_DOUBLER) if price else 0,
        "bugs": 0 if rule == "death_card" else sum(bugs_of(table, c) for c in cards),
    }
    if "suit" in play:
        reason["as_suit"], reason["as_rank"] = played_as(play)
    if "suit" in trick[0]:
        reason["led_as"] = list(played_as(trick[0]))
    if rule == "death_card":
        reason["death"] = [c for c in cards if c in _special(s)[1]]
    return reason


def _after_trick(s: State) -> State:
    return _finish_hand(s) if len(s["tricks"]) == TRICKS else s


def _play_out_alone(s: State) -> State:
    """The last seat in takes the rest without decisions, leading its cards
    in hand order; a Death card is never led."""
    seat = s["in"].index(True)
    death = _special(s)[1]
    s = {**s, "phase": "play"}
    if s["trick"]:
        s = _complete_trick(s)
    while len(s["tricks"]) < TRICKS:
        card = next((c for c in s["hands"][seat] if c not in death), None)
        if card is None:
            break
        hands, shown = _without(s, seat, card)
        s = _complete_trick({**s, "hands": hands, "shown": shown, "trick": [{"card": card, "seat": seat}]})
    return _finish_hand(s)


APPLY = {
    "auction": _apply_auction,
    "betting": _apply_betting,
    "discard": _apply_discard,
    "bidding": _apply_bidding,
    "order": _apply_order,
    "play": _apply_play,
}


# --- scoring ------------------------------------------------------------------


def _finish_hand(s: State) -> State:
    """Score the hand, record it, and deal the next one (or end the match)."""
    n, table = s["players"], s["table"]
    totals = [bug_total(table, s["taken"][p]) for p in range(n)]
    record: dict[str, Any] = {
        "hand": s["hand_no"],
        "dealer": s["dealer"],
        "pot": s["pot"],
        "bugs": totals,
        "folded": [p for p in range(n) if not s["in"][p] and not s["out"][p]],
        "sat_out": [p for p in range(n) if s["out"][p]],
        "bidder": s["bidder"],
        "bid": s["bid"],
        "order": s["order"],
    }
    pot = s["pot"]
    s, result, decided = _score_blaze(s, totals) if s["options"]["blaze"] else _score_pot(s, totals)
    record |= result | {"money": list(s["money"])}
    record["reason"] = hand_reason(s, record, decided, pot)
    settled = [*s["settled"], record["reason"], *_seat_reasons(s, record)]
    hand_no = s["hand_no"] + 1
    s = {
        **s,
        "settled": settled,
        "history": [*s["history"], record],
        "hand_no": hand_no,
        "turn": None,
        "bidding": None,
        "auction": None,
        "betting": None,
    }
    if hand_no >= s["hands_total"]:
        return {**s, "phase": "over", "over": True, "settled": [*settled, match_reason(s)]}
    next_deal: State = {**s, "dealer": (s["dealer"] + 1) % n}
    return _begin_hand(next_deal)


def _score_pot(s: State, totals: list[int]) -> tuple[State, dict[str, Any], dict[str, Any]]:
    """Fewest bugs (at least one) among the seats still in wins; ties split,
    the odd dollars stay in the pot. Also returns what decided it: the rule's id."""
    eligible = [p for p in range(s["players"]) if s["in"][p] and totals[p] >= 1]
    if not eligible:
        return s, {"winners": [], "share": 0}, {"rule": "no_bugs"}
    low = min(totals[p] for p in eligible)
    winners = [p for p in eligible if totals[p] == low]
    share = s["pot"] // len(winners)
    money = [m + share if p in winners else m for p, m in enumerate(s["money"])]
    decided = {"rule": "split_pot" if len(winners) > 1 else "fewest_bugs"}
    return {**s, "money": money, "pot": s["pot"] - share * len(winners)}, {"winners": winners, "share": share}, decided


def _score_blaze(s: State, totals: list[int]) -> tuple[State, dict[str, Any], dict[str, Any]]:
    """The bidder who takes at least the bid wins the pot and everyone comes
    back in; otherwise the bidder matches the pot and who folded sits out.
    Also returns what decided it: the rule's id, the bidder and the bid (one bug for a seat dealt in alone)."""
    bidder = s["bidder"] if s["bidder"] is not None else s["in"].index(True)
    bid = s["bid"] or 1
    if s["in"][bidder] and totals[bidder] >= bid:
        money = _replace(s["money"], bidder, s["money"][bidder] + s["pot"])
        won: State = {**s, "money": money, "pot": 0, "out": [False] * s["players"]}
        return won, {"winners": [bidder], "share": s["pot"], "made": True}, _blaze_decided(True, bidder, bid)
    lost = _pay(s, bidder, s["pot"])
    out = [was_out or not seat_in for was_out, seat_in in zip(s["out"], s["in"], strict=True)]
    return {**lost, "out": out}, {"winners": [], "share": 0, "made": False}, _blaze_decided(False, bidder, bid)


def _blaze_decided(made: bool, bidder: int, bid: int) -> dict[str, Any]:
    return {"rule": "blaze_made" if made else "blaze_failed", "bidder": bidder, "bid": bid}


# --- reasons: why a trick, a hand, the match went as they did ---------------------------


def hand_scores(s: State, money: list[int]) -> list[int] | None:
    """What each seat won or lost in the hand just scored: its money now against the last hand's end (the
    stake before the first). None for a state stored before the history recorded the money."""
    if not s["history"]:
        return [m - s["stake"] for m in money]
    before = s["history"][-1].get("money")
    return [m - b for m, b in zip(money, before, strict=True)] if before else None


def hand_reason(s: State, record: dict[str, Any], decided: dict[str, Any], pot: int) -> dict[str, Any]:
    """Why the hand just scored paid what it did (``decided`` by ``_score_pot`` or ``_score_blaze``): bugs
    after doubling, the 12s that doubled them, the pot, the winners and each seat's result. No cards."""
    n = s["players"]
    return {
        "kind": "hand",
        "hand_no": s["hand_no"],
        "winners": list(record["winners"]),
        "share": record["share"],
        "pot": pot,
        "left_in_pot": s["pot"],
        "bugs": list(record["bugs"]),
        "doubled": [sum(1 for c in s["taken"][p] if c[1:] == BUG_DOUBLER) for p in range(n)],
        "in": list(s["in"]),
        "folded": list(record["folded"]),
        "sat_out": list(record["sat_out"]),
        "bidder": record["bidder"],
        "bid": record["bid"],
        "blaze": bool(s["options"]["blaze"]),
        "scores": hand_scores(s, record["money"]),
    } | decided


def _seat_reasons(s: State, record: dict[str, Any]) -> list[dict[str, Any]]:
    """A reason of its own for every seat that folded (it could not win the pot) and, in Blaze, for every
    seat that sat the hand out (it folded in a failed hand before) or will sit the next one out."""
    hand = record["reason"]
    scores = hand["scores"] or [None] * s["players"]
    found: list[dict[str, Any]] = []
    for seat in hand["folded"]:
        base = {"kind": "folded", "seat": seat, "hand_no": hand["hand_no"], "bugs": hand["bugs"][seat]}
        found.append(base | {"rule": "folded_out_of_pot", "score": scores[seat], "sits_out_next": s["out"][seat]})
    for seat in hand["sat_out"]:
        found.append({"kind": "sat_out", "rule": "blaze_out", "seat": seat, "hand_no": hand["hand_no"]})
    return found


def match_reason(s: State) -> dict[str, Any]:
    """The match ends after its hands: places by money, the score is money minus the stake."""
    money = s["money"]
    return {
        "kind": "match",
        "rule": "hands_played",
        "hands": s["hands_total"],
        "money": list(money),
        "scores": [m - s["stake"] for m in money],
        "places": places_from_scores(money),
    }


def reasons(before: State, after: State) -> list[dict[str, Any]]:
    """What the one action from ``before`` to ``after`` settled, in order: tricks (several when the last
    seat in plays out), a seat buying out, hands with their folded and sitting-out seats, the match.

    Recorded by the rules as they applied (``trick_decision``, ``_score_pot``, ``_score_blaze``); a state
    stored before reasons existed has none."""
    return json_copy(after.get("settled") or [])


def outcome(state: State) -> dict[str, Any]:
    """The result, only once the match is over; a copy throughout, since a
    view carries it and a caller editing a view must not reach the state."""
    if not is_over(state):
        raise ValueError("The match is not over yet.")
    money = state["money"]
    return {
        "scores": [m - state["stake"] for m in money],
        "places": places_from_scores(money),
        "money": list(money),
        "pot": state["pot"],
        "hands": json_copy(state["history"]),
    }


def running_scores(view: Mapping[str, Any]) -> list[float]:
    """The match's scores so far on its outcome's scale, from any view: the table shows the money each seat
    holds, the outcome the money won (held less the ``stake`` each seat sat down with)."""
    return [float(m) - float(view["stake"]) for m in view["scores"]]


# --- views and the match log --------------------------------------------------


def public_options(options: dict[str, Any]) -> dict[str, Any]:
    """Options with the named cards as labels: a card code in a view would
    look like a sighting of that card."""
    death, wilds = options["death_cards"], options["wilds"]
    return {**options, "death_cards": [LABELS[c] for c in death], "wilds": [LABELS[c] for c in wilds]}


def options_from_view(options: dict[str, Any]) -> dict[str, Any]:
    """The inverse of ``public_options``: the named cards back as codes."""
    death, wilds = options["death_cards"], options["wilds"]
    return {**options, "death_cards": [label_code(x) for x in death], "wilds": [label_code(x) for x in wilds]}


def view(state: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may see: copies of the public fields, counts of the
    private piles, and a seat's own hand."""
    n = state["players"]
    if seat is not None and (not is_whole(seat) or not 0 <= seat < n):
        raise ValueError(f"There is no seat {seat!r} at this table; the seats are 0 to {n - 1}.")
    v = public_part(state, PUBLIC_FIELDS)
    v.update(
        options=public_options(v["options"]),  # a copy already
        to_act=to_act(state),
        scores=list(state["money"]),
        hand_sizes=[len(h) for h in state["hands"]],
        laid_down_counts=[len(x) for x in state["laid_down"]],
        deck_count=len(state["deck"]),
        pack_count=len(state["pack"]),
        draw_pile_count=len(state["draw_pile"]),
    )
    if seat is not None:
        v["seat"], v["hand"] = seat, list(state["hands"][seat])
    if state["over"]:
        v["outcome"] = outcome(state)
    return v


def state_from_view(view: Mapping[str, Any], private: Mapping[str, Any]) -> State:
    """The whole state again from a seat's view and the private fields
    (exactly the keys of ``PRIVATE_FIELDS``, else a KeyError): how a bot
    builds the states it samples, so that a new key cannot be forgotten there."""
    # A state made up from a view has no last action, so what it settled may be left out (a bot's sampler does).
    private = {"settled": [], **private} if "seed" in private else private
    state = rebuild(view, private, PUBLIC_FIELDS, PRIVATE_FIELDS)
    state["options"] = options_from_view(view["options"])
    return cast(State, state)


def describe(state: State, seat: int, action: Action) -> str:
    """One line for the match log; it names no hidden card and echoes no
    number that is not a whole number."""
    kind = action.get("type") if isinstance(action, dict) else None
    if kind == "play":
        if "suit" not in action:
            return f"played {card_label(action['card'])}"
        if (
            type(action.get("rank")) is not int
            or not isinstance(action["suit"], str)
            or action["suit"] not in SUIT_NAMES
        ):
            return "played a wild card"
        return f"played {card_label(action['card'])} as {SUIT_NAMES[action['suit']]} {action['rank']}"
    if kind == "bid":
        return _describe_bid(state, action)
    if kind == "order":
        return "ordered the suits " + ", ".join(SUIT_NAMES[x] for x in action["suits"]) + " (highest first)"
    if kind == "offer":
        return f"put {card_label(action['card'])} up for auction"
    if kind == "buy":
        price = trick_price(state["table"], [p["card"] for p in state["trick"]])
        return f"bought out of the trick for ${price} and folded"
    if kind == "discard":
        return "discarded a card"
    if kind == "draw":
        count = state["discarded"][seat]
        return "kept the hand as dealt" if count == 0 else f"drew {count} card{'s' if count != 1 else ''}"
    if kind in ("bet", "raise"):
        b = _betting(state)
        return f"{'bet' if kind == 'bet' else 'raised to'} ${b['bet'] + state['options']['draw_bet']}"
    return {"pass": "passed", "fold": "folded", "check": "checked", "call": "called"}.get(str(kind), "acted")


def _describe_bid(state: State, action: Action) -> str:
    amount = action.get("amount")
    if type(amount) is not int:
        return "made a bid that is not a whole number"
    if state["phase"] == "auction":
        return f"bid ${amount} for {card_label(str(_auction(state)['offer']))}"
    blaze_bid = state["phase"] == "bidding" and state["options"]["blaze"]
    return f"bid {amount} bugs" if blaze_bid else f"bid ${amount}"
