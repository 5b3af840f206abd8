"""Renfield: a trick-taking gambling game; take the fewest bugs, but at least one.

Rules: ``docs/rules/renfield.md`` (digest ``shared/spec/rules-renfield.md``).

Cards are suit letter then rank: ``T12`` (Tools 12), ``P3``, ``S0`` (the Stones
key card, in the deck only with Flatline's zeroes option).

Actions, by phase:

- ``auction`` (variant): ``{"type": "bid", "amount": 3}`` ($1 to $10, $10
  buys outright), ``{"type": "pass"}``; the buyer then
  ``{"type": "offer", "card": "P4"}`` puts a card of their hand up for resale.
- ``betting`` (Draw): ``{"type": "check"}``, ``{"type": "bet"}``,
  ``{"type": "call"}``, ``{"type": "raise"}``, ``{"type": "fold"}``; bets
  and raises are the fixed ``draw_bet``.
- ``discard`` (Draw): ``{"type": "discard", "card": "S9"}`` (up to four, one
  at a time), then ``{"type": "draw"}`` to refill.
- ``bidding``: ``{"type": "bid", "amount": 4}`` (dollars; bugs in Blaze) or
  ``{"type": "pass"}``.
- ``order``: ``{"type": "order", "suits": ["T", "S", "P"]}``, highest first.
- ``play``: ``{"type": "play", "card": "T12"}``; a wild card names what it is
  played as: ``{"type": "play", "card": "P1", "suit": "S", "rank": 17}``.
  ``{"type": "fold"}`` (with a bug taken, or when only a Death card is left
  to lead), ``{"type": "buy"}`` (Buying the Trick: fold with no bugs by
  paying for the cards in the trick).

The state is plain JSON. Hidden parts are ``hands`` (except ``shown`` cards),
``deck``, ``pack``, ``draw_pile``, ``laid_down`` and ``seed``; everything else
is public and is copied into every view.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

from engine.cards import check_stacked_deck, places_from_scores, shuffled
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
    {"name": "stake", "type": "int", "default": 100, "min": 1, "max": 1_000_000, "label": "Stake",
     "help": "Dollars each player starts with."},
    {"name": "hands", "type": "int", "default": 0, "min": 0, "max": 200, "label": "Hands",
     "help": "Hands in the match; 0 means one deal per player."},
    {"name": "deck_values", "type": "json", "default": None, "label": "Card values",
     "help": 'The printed deck: {"bugs": [17 numbers], "dollars": [17 numbers]} for ranks 1-17, '
             'or one such table per suit under "T", "P", "S". Empty means the default deck.'},
    {"name": "auction", "type": "bool", "default": False, "label": "Auction", "help": "Seven players at most."},
    {"name": "blaze", "type": "bool", "default": False, "label": "Blaze", "help": "Take the most bugs."},
    {"name": "death_card", "type": "bool", "default": False, "label": "The Death Card", "help": ""},
    {"name": "death_cards", "type": "cards", "default": ["S7"], "choices": PLAYING_CARDS,
     "label": "Death cards", "help": "The cards that are Death (with the Death Card)."},
    {"name": "death_all_suits", "type": "bool", "default": False, "label": "Death has all suits",
     "help": "The Death card may be played at any time."},
    {"name": "draw", "type": "bool", "default": False, "label": "Draw", "help": "A betting round and a draw."},
    {"name": "draw_bet", "type": "int", "default": 5, "min": 1, "max": 1000, "label": "Draw bet",
     "help": "The fixed size of a bet or raise in Draw."},
    {"name": "flatline", "type": "bool", "default": False, "label": "Flatline", "help": "No key cards."},
    {"name": "flatline_zeroes", "type": "bool", "default": False, "label": "Zeroes shuffled in",
     "help": "Flatline: the key cards go into the deck; a led zero makes its suit high."},
    {"name": "stud", "type": "bool", "default": False, "label": "Stud", "help": "Seven cards, four face up."},
    {"name": "wild_cards", "type": "bool", "default": False, "label": "Wild Cards", "help": ""},
    {"name": "wilds", "type": "cards", "default": ["T1", "P1", "S1"], "choices": PLAYING_CARDS,
     "label": "Wild cards", "help": "The cards that are wild (with Wild Cards)."},
    {"name": "breathing_room", "type": "bool", "default": False, "label": "Breathing Room",
     "help": "Eight cards, six played; six players at most."},
    {"name": "buying_the_trick", "type": "bool", "default": False, "label": "Buying the Trick",
     "help": "Fold with no bugs by paying for the cards in the trick."},
]

Action = dict[str, Any]
State = dict[str, Any]

# --- card helpers -------------------------------------------------------------


RANK_OF = {code: int(code[1:]) for code in FULL_DECK}
DECK_POSITION = {code: i for i, code in enumerate(FULL_DECK)}


def rank_of(card: str) -> int:
    return RANK_OF[card]


LABELS = {code: f"{SUIT_NAMES[code[0]]} {code[1:]}" for code in FULL_DECK}


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


_sorted = sorted_cards


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
        raise ValueError(f"The card values{where} need exactly two lists, \"bugs\" and \"dollars\".")
    for key in ("bugs", "dollars"):
        values = row[key]
        if not isinstance(values, list) or len(values) != TOP_RANK:
            raise ValueError(f"The {key} list{where} must give one number for each rank 1 to {TOP_RANK}.")
        if any(isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= VALUE_LIMIT for v in values):
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
        raise ValueError(
            f"These rules need {needed} cards for {players} players but the deck has only {available}."
        )


def _title(name: str) -> str:
    return next(entry["label"] for entry in OPTIONS if entry["name"] == name)


def validate_options(players: int, options: dict[str, Any] | None) -> dict[str, Any]:
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
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


def new_match(players: int, options: dict[str, Any] | None = None, seed: int | None = None) -> State:
    opts = validate_options(players, options)
    stacked = opts.pop("deck", None)
    state: State = {
        "players": players, "seed": 0 if seed is None else seed, "options": opts,
        "table": table_from(opts["deck_values"]), "stake": opts["stake"], "hands_total": opts["hands"],
        "money": [opts["stake"]] * players, "pot": 0, "hand_no": 0, "dealer": 0,
        "out": [False] * players, "history": [], "over": False,
    }
    state["max_bid"] = sum(bugs_of(state["table"], c) for c in match_deck(opts))
    _begin_hand(state, stacked)
    return state


DICT_FIELDS = ("bidding", "auction", "betting")


def _clone(state: State) -> State:
    """A copy that ``apply`` may change: ``money`` and the phase records are
    copied; every other list is shared and only ever replaced, never changed
    in place (``_set``, ``+``), which keeps an action cheap."""
    s = dict(state)
    s["money"] = list(state["money"])
    for key in DICT_FIELDS:
        if state[key] is not None:
            s[key] = {k: list(v) if isinstance(v, list) else v for k, v in state[key].items()}
    return s


def _set(s: State, key: str, index: int, value: Any) -> None:
    """``s[key][index] = value`` on a fresh copy of the list."""
    items = list(s[key])
    items[index] = value
    s[key] = items


def _seats_after(s: State, seat: int) -> list[int]:
    """Seats still in the hand, clockwise starting after ``seat``."""
    n = s["players"]
    return [(seat + k) % n for k in range(1, n + 1) if s["in"][(seat + k) % n]]


def _count_in(s: State) -> int:
    return sum(s["in"])


def _pay(s: State, seat: int, amount: int) -> None:
    s["money"][seat] -= amount
    s["pot"] += amount


def _begin_hand(s: State, stacked: list[str] | None = None) -> None:
    n, opts = s["players"], s["options"]
    deck = list(stacked) if stacked else shuffled(match_deck(opts), s["seed"], "hand", s["hand_no"])
    s.update({
        "in": [not out for out in s["out"]], "hands": [[] for _ in range(n)], "shown": [[] for _ in range(n)],
        "laid_down": [[] for _ in range(n)], "taken": [[] for _ in range(n)], "bugs": [0] * n,
        "keys": [] if len(deck) == len(FULL_DECK) else list(KEY_CARDS), "pack": [], "draw_pile": [],
        "discards": [], "removed": [], "trick": [], "tricks": [], "queue": [], "discarded": [0] * n,
        "bidding": None, "auction": None, "betting": None, "bidder": None, "bid": 0, "order": None,
        "leader": None, "turn": None, "phase": "deal",
    })
    if opts["blaze"]:
        for seat in _seats_after(s, s["dealer"]):
            _pay(s, seat, 1)
    s["deck"] = _deal(s, deck)
    if _count_in(s) == 1:
        return _play_out_alone(s)
    if opts["auction"]:
        return _start_auction(s)
    _after_auction(s)


def _deal(s: State, deck: list[str]) -> list[str]:
    """One card at a time from the seat after the dealer; in Stud the first
    three rounds are face down and the rest face up. Returns the rest."""
    order, size = _seats_after(s, s["dealer"]), hand_size(s["options"])
    top = 0
    for round_no in range(size):
        for seat in order:
            s["hands"][seat].append(deck[top])
            if s["options"]["stud"] and round_no >= STUD_DOWN:
                s["shown"][seat].append(deck[top])
            top += 1
    for seat in order:
        s["hands"][seat] = _sorted(s["hands"][seat])
        s["shown"][seat] = _sorted(s["shown"][seat])
    return deck[top:]


def _after_auction(s: State) -> None:
    if s["options"]["draw"]:
        return _start_betting(s)
    _start_bidding(s)


def to_act(state: State) -> list[int]:
    return [] if state["over"] else [state["turn"]]


def is_over(state: State) -> bool:
    return state["over"]


def hand_index(state: State) -> int:
    return state["hand_no"]


# --- auction (variant) --------------------------------------------------------


def _start_auction(s: State) -> None:
    s["phase"] = "auction"
    s["pack"], s["deck"] = s["deck"][:AUCTION_PACK], s["deck"][AUCTION_PACK:]
    s["auction"] = {"offer": None, "seller": None, "high": 0, "by": None, "active": [], "bought": [],
                    "step": "bid", "just_bought": None}
    _reveal_next(s)


def _reveal_next(s: State) -> None:
    if not s["pack"]:
        s["auction"] = None
        return _after_auction(s)
    a = s["auction"]
    a["offer"], s["pack"] = s["pack"][0], s["pack"][1:]
    a["seller"], a["bought"] = None, []
    _open_auction(s, s["dealer"])


def _open_auction(s: State, start: int) -> None:
    """Bidding on the card on offer, clockwise after ``start``; a seat that
    has bought in this chain may not bid again, so every chain ends."""
    a = s["auction"]
    a.update(step="bid", high=0, by=None, just_bought=None)
    a["active"] = [p for p in _seats_after(s, start) if p not in a["bought"]]
    if not a["active"]:
        return _unsold(s)
    s["turn"] = a["active"][0]


def _legal_auction(s: State, seat: int) -> list[Action]:
    a = s["auction"]
    if a["step"] == "offer":
        return [{"type": "offer", "card": c} for c in s["hands"][seat] if c != a["just_bought"]]
    return _bids(*_bid_range(s, seat))


def _apply_auction(s: State, seat: int, action: Action) -> None:
    a = s["auction"]
    if action["type"] == "offer":
        _take_from_hand(s, seat, action["card"])
        a["offer"], a["seller"] = action["card"], seat
        return _open_auction(s, seat)
    if action["type"] == "pass":
        a["active"].remove(seat)
    else:
        a["high"], a["by"] = action["amount"], seat
    if a["high"] == AUCTION_MAX or (a["by"] is not None and a["active"] == [a["by"]]):
        return _sell(s)
    if not a["active"]:
        return _unsold(s)
    s["turn"] = _next_in_list(s, a["active"], seat)


def _next_in_list(s: State, seats: list[int], seat: int) -> int:
    n = s["players"]
    return min(seats, key=lambda p: (p - seat - 1) % n)


def _take_from_hand(s: State, seat: int, card: str) -> None:
    _set(s, "hands", seat, [c for c in s["hands"][seat] if c != card])
    if card in s["shown"][seat]:
        _set(s, "shown", seat, [c for c in s["shown"][seat] if c != card])


def _sell(s: State) -> None:
    """Full price to the pot for a pack card; a resale's proceeds are split
    between the seller and the pot, the odd dollar to the pot."""
    a = s["auction"]
    buyer, price, card = a["by"], a["high"], a["offer"]
    s["money"][buyer] -= price
    to_seller = price // 2 if a["seller"] is not None else 0
    if a["seller"] is not None:
        s["money"][a["seller"]] += to_seller
    s["pot"] += price - to_seller
    _set(s, "hands", buyer, _sorted(s["hands"][buyer] + [card]))
    _set(s, "shown", buyer, _sorted(s["shown"][buyer] + [card]))
    a["bought"].append(buyer)
    a.update(offer=None, step="offer", just_bought=card, active=[], high=0, by=None)
    s["turn"] = buyer


def _unsold(s: State) -> None:
    s["discards"] = s["discards"] + [s["auction"]["offer"]]
    s["auction"]["offer"] = None
    _reveal_next(s)


# --- draw (variant): a betting round, then the draw -------------------------


def _start_betting(s: State) -> None:
    s["phase"] = "betting"
    to_go = _seats_after(s, s["dealer"])
    s["betting"] = {"bet": 0, "put": [0] * s["players"], "raises": 0, "to_go": to_go}
    s["turn"] = to_go[0]


def _legal_betting(s: State, seat: int) -> list[Action]:
    b, unit, money = s["betting"], s["options"]["draw_bet"], s["money"][seat]
    if b["bet"] == 0:
        acts = [{"type": "check"}] + ([{"type": "bet"}] if money >= unit else [])
    else:
        can_raise = b["raises"] < DRAW_MAX_RAISES and money >= b["bet"] - b["put"][seat] + unit
        acts = [{"type": "call"}] + ([{"type": "raise"}] if can_raise else [])
    return acts + [{"type": "fold"}]


def _apply_betting(s: State, seat: int, action: Action) -> None:
    b, kind = s["betting"], action["type"]
    b["to_go"].remove(seat)
    if kind in ("bet", "raise"):
        b["bet"] += s["options"]["draw_bet"]
        b["raises"] += kind == "raise"
        b["to_go"] = [p for p in _seats_after(s, seat) if p != seat]
    if kind in ("bet", "raise", "call"):
        _pay(s, seat, b["bet"] - b["put"][seat])
        b["put"][seat] = b["bet"]
    if kind == "fold":
        _lay_down(s, seat)
    if _count_in(s) == 1:
        return _play_out_alone(s)
    if b["to_go"]:
        s["turn"] = b["to_go"][0]
        return
    _start_discard(s)


def _start_discard(s: State) -> None:
    s["phase"], s["betting"] = "discard", None
    s["queue"] = _seats_after(s, s["dealer"])
    s["turn"] = s["queue"][0]


def _legal_discard(s: State, seat: int) -> list[Action]:
    acts = [{"type": "draw"}]
    if s["discarded"][seat] < DRAW_MAX_DISCARDS:
        acts += [{"type": "discard", "card": c} for c in s["hands"][seat]]
    return acts


def _apply_discard(s: State, seat: int, action: Action) -> None:
    if action["type"] == "discard":
        _take_from_hand(s, seat, action["card"])
        s["draw_pile"] = s["draw_pile"] + [action["card"]]
        _set(s, "discarded", seat, s["discarded"][seat] + 1)
        return
    s["queue"] = s["queue"][1:]
    if s["queue"]:
        s["turn"] = s["queue"][0]
        return
    _refill(s)
    _start_bidding(s)


def _refill(s: State) -> None:
    """All discards are shuffled back into the deck, then every hand is
    refilled in turn order."""
    stock = shuffled(s["deck"] + s["draw_pile"], s["seed"], "draw", s["hand_no"])
    s["draw_pile"], size, hands = [], hand_size(s["options"]), list(s["hands"])
    for seat in _seats_after(s, s["dealer"]):
        need = size - len(hands[seat])
        hands[seat] = _sorted(hands[seat] + stock[:need])
        stock = stock[need:]
    s["deck"], s["hands"] = stock, hands


# --- bidding for the lead -----------------------------------------------------


def _start_bidding(s: State) -> None:
    s["phase"] = "bidding"
    seq = _seats_after(s, s["dealer"])
    s["bidding"] = {"seq": seq, "high": 0, "by": None, "passed": []}
    s["turn"] = seq[0]


def _legal_bidding(s: State, seat: int) -> list[Action]:
    return _bids(*_bid_range(s, seat))


def _bids(low: int, top: int) -> list[Action]:
    return [{"type": "pass"}] + [{"type": "bid", "amount": x} for x in range(low, top + 1)]


def _bid_range(s: State, seat: int) -> tuple[int, int]:
    """The lowest and highest bid ``seat`` may make now (none when low > top).
    An auction bid is at most $10; a Blaze bid at most the bugs printed on the
    whole deck; any other bid at most the money held."""
    if s["phase"] == "auction":
        return s["auction"]["high"] + 1, min(AUCTION_MAX, s["money"][seat])
    top = s["max_bid"] if s["options"]["blaze"] else s["money"][seat]
    return s["bidding"]["high"] + 1, top


def _apply_bidding(s: State, seat: int, action: Action) -> None:
    b = s["bidding"]
    if action["type"] == "pass":
        b["passed"].append(seat)
    else:
        b["high"], b["by"] = action["amount"], seat
    if s["options"]["blaze"]:
        return _blaze_next(s, seat)
    following = b["seq"].index(seat) + 1
    if following == len(b["seq"]):
        return _end_bidding(s)
    s["turn"] = b["seq"][following]


def _blaze_next(s: State, seat: int) -> None:
    """Blaze bids go round until all but the high bidder have passed; a pass
    is final."""
    b = s["bidding"]
    active = [p for p in b["seq"] if p not in b["passed"]]
    if not active or active == [b["by"]]:
        return _end_bidding(s)
    s["turn"] = _next_in_list(s, active, seat)


def _end_bidding(s: State) -> None:
    """Nobody bid: the last in turn (the dealer) leads at the house price,
    $5 ($2 in Flatline, a bid of one bug in Blaze)."""
    b, opts = s["bidding"], s["options"]
    if b["by"] is not None:
        s["bidder"], s["bid"] = b["by"], b["high"]
    else:
        s["bidder"] = b["seq"][-1]
        s["bid"] = 1 if opts["blaze"] else FLATLINE_LEAD_PRICE if opts["flatline"] else LEAD_PRICE
    if not opts["blaze"]:
        _pay(s, s["bidder"], s["bid"])
    if opts["flatline"]:
        return _start_play(s)
    s["phase"], s["turn"] = "order", s["bidder"]


def _legal_order(s: State, seat: int) -> list[Action]:
    return [{"type": "order", "suits": list(order)} for order in ORDERS]


def _apply_order(s: State, seat: int, action: Action) -> None:
    s["order"] = list(action["suits"])
    _start_play(s)


# --- the tricks ---------------------------------------------------------------


def _start_play(s: State) -> None:
    s["phase"], s["bidding"] = "play", None
    s["leader"] = s["turn"] = s["bidder"]


def _special(s: State) -> tuple[frozenset[str], frozenset[str]]:
    """(wild cards, Death cards) of this match."""
    o = s["options"]
    wild = frozenset(o["wilds"]) if o["wild_cards"] else frozenset()
    death = frozenset(o["death_cards"]) if o["death_card"] else frozenset()
    return wild, death


def played_as(play: dict[str, Any]) -> tuple[str, int]:
    """The suit and rank a card counts as in the trick (a wild's declaration)."""
    card = play["card"]
    return play.get("suit", card[0]), play.get("rank", RANK_OF[card])


def _wild_plays(card: str, suits: tuple[str, ...] | list[str]) -> list[Action]:
    return [{"type": "play", "card": card, "suit": suit, "rank": rank}
            for suit in suits for rank in range(1, TOP_RANK + 1)]


def _legal_play(s: State, seat: int) -> list[Action]:
    hand, trick = s["hands"][seat], s["trick"]
    wild, death = _special(s)
    if trick:
        led = played_as(trick[0])[0]
        natural = [c for c in hand if c not in wild and c not in death]
        follow = [c for c in natural if c[0] == led]
        if follow:
            cards = follow + ([c for c in hand if c in death] if s["options"]["death_all_suits"] else [])
            suits: tuple[str, ...] | list[str] = [led]
        else:
            cards, suits = natural + [c for c in hand if c in death], SUITS
    else:
        cards, suits = [c for c in hand if c not in wild and c not in death], SUITS
    acts = [{"type": "play", "card": c} for c in cards]
    for card in hand:
        if card in wild:
            acts += _wild_plays(card, suits)
    return acts + _legal_fold(s, seat, only_death=not trick and not acts)


def _legal_fold(s: State, seat: int, only_death: bool) -> list[Action]:
    if s["bugs"][seat] >= 1 or only_death:
        return [{"type": "fold"}]
    if s["options"]["buying_the_trick"] and s["trick"]:
        return [{"type": "buy"}]
    return []


def _apply_play(s: State, seat: int, action: Action) -> None:
    if action["type"] == "play":
        _take_from_hand(s, seat, action["card"])
        s["trick"] = s["trick"] + [{k: v for k, v in action.items() if k != "type"} | {"seat": seat}]
    else:
        if action["type"] == "buy":
            _pay(s, seat, trick_price(s["table"], [p["card"] for p in s["trick"]]))
        _lay_down(s, seat)
        if _count_in(s) == 1:
            return _play_out_alone(s)
    if s["trick"] and len(s["trick"]) == _count_in(s):
        _complete_trick(s)
        return _after_trick(s)
    nxt = _seats_after(s, seat)[0]
    if not s["trick"]:
        s["leader"] = nxt
    s["turn"] = nxt


def _lay_down(s: State, seat: int) -> None:
    """A fold: the hand goes face down out of play; the taken cards stay up."""
    _set(s, "in", seat, False)
    _set(s, "laid_down", seat, s["hands"][seat])
    _set(s, "hands", seat, [])
    _set(s, "shown", seat, [])


def _trick_winner(s: State, trick: list[dict[str, Any]]) -> int:
    return winner_of(trick, s["order"], s["options"])


def winner_of(trick: list[dict[str, Any]], order: list[str] | None, options: dict[str, Any]) -> int:
    """The seat whose card takes ``trick``: highest suit in the bidder's
    order, then highest rank; in Flatline rank alone, a tie going to the
    later card, and a led zero makes its suit high. Death cards take part in
    nothing. (Public so that the bots judge tricks exactly as the engine.)"""
    death = options["death_cards"] if options["death_card"] else ()
    order = order or list(SUITS)
    flat = options["flatline"]
    led_suit, led_rank = played_as(trick[0])
    zero_led = flat and led_rank == 0
    best, best_key = trick[0]["seat"], None
    for play in trick:
        if play["card"] in death:
            continue
        suit, rank = played_as(play)
        key = (zero_led and suit == led_suit, rank) if flat else (-order.index(suit), rank)
        if best_key is None or key > best_key or (flat and key == best_key):
            best, best_key = play["seat"], key
    return best


def _complete_trick(s: State) -> None:
    trick, death = s["trick"], _special(s)[1]
    winner = _trick_winner(s, trick)
    cards = [p["card"] for p in trick]
    killed = any(c in death for c in cards)
    if killed:
        s["removed"] = s["removed"] + cards
    else:
        _set(s, "taken", winner, s["taken"][winner] + cards)
        _set(s, "bugs", winner, s["bugs"][winner] + sum(bugs_of(s["table"], c) for c in cards))
        _pay(s, winner, trick_price(s["table"], cards))
    s["tricks"] = s["tricks"] + [{"leader": trick[0]["seat"], "plays": trick,
                                  "taker": None if killed else winner, "winner": winner}]
    s["trick"], s["leader"], s["turn"] = [], winner, winner


def _after_trick(s: State) -> None:
    if len(s["tricks"]) == TRICKS:
        _finish_hand(s)


def _play_out_alone(s: State) -> None:
    """The last seat in takes the rest without decisions, leading its cards
    in hand order; a Death card is never led."""
    seat = s["in"].index(True)
    death = _special(s)[1]
    s["phase"] = "play"
    if s["trick"]:
        _complete_trick(s)
    while len(s["tricks"]) < TRICKS:
        card = next((c for c in s["hands"][seat] if c not in death), None)
        if card is None:
            break
        _take_from_hand(s, seat, card)
        s["trick"] = [{"card": card, "seat": seat}]
        _complete_trick(s)
    _finish_hand(s)


# --- scoring ------------------------------------------------------------------


def _finish_hand(s: State) -> None:
    n, table = s["players"], s["table"]
    totals = [bug_total(table, s["taken"][p]) for p in range(n)]
    pot = s["pot"]
    record = {"hand": s["hand_no"], "dealer": s["dealer"], "pot": pot, "bugs": totals,
              "folded": [p for p in range(n) if not s["in"][p] and not s["out"][p]],
              "bidder": s["bidder"], "bid": s["bid"], "order": s["order"]}
    if s["options"]["blaze"]:
        record.update(_score_blaze(s, totals))
    else:
        record.update(_score_pot(s, totals))
    s["history"] = s["history"] + [record]
    s["hand_no"] += 1
    s["turn"], s["bidding"], s["auction"], s["betting"] = None, None, None, None
    if s["hand_no"] >= s["hands_total"]:
        s["phase"], s["over"] = "over", True
        return
    s["dealer"] = (s["dealer"] + 1) % n
    _begin_hand(s)


def _score_pot(s: State, totals: list[int]) -> dict[str, Any]:
    """Fewest bugs (at least one) among the seats still in wins; ties split,
    the odd dollars stay in the pot."""
    eligible = [p for p in range(s["players"]) if s["in"][p] and totals[p] >= 1]
    if not eligible:
        return {"winners": [], "share": 0}
    low = min(totals[p] for p in eligible)
    winners = [p for p in eligible if totals[p] == low]
    share = s["pot"] // len(winners)
    for p in winners:
        s["money"][p] += share
    s["pot"] -= share * len(winners)
    return {"winners": winners, "share": share}


def _score_blaze(s: State, totals: list[int]) -> dict[str, Any]:
    """The bidder who takes at least the bid wins the pot and everyone comes
    back in; otherwise the bidder matches the pot and who folded sits out."""
    bidder = s["bidder"] if s["bidder"] is not None else s["in"].index(True)
    bid = s["bid"] or 1
    if s["in"][bidder] and totals[bidder] >= bid:
        won, s["money"][bidder], s["pot"] = s["pot"], s["money"][bidder] + s["pot"], 0
        s["out"] = [False] * s["players"]
        return {"winners": [bidder], "share": won, "made": True}
    _pay(s, bidder, s["pot"])
    s["out"] = [s["out"][p] or not s["in"][p] for p in range(s["players"])]
    return {"winners": [], "share": 0, "made": False}


def outcome(state: State) -> dict[str, Any]:
    money = state["money"]
    return {"scores": [m - state["stake"] for m in money], "places": places_from_scores(money),
            "money": list(money), "pot": state["pot"], "hands": list(state["history"])}


# --- legal actions and apply ---------------------------------------------------

LEGAL = {"auction": _legal_auction, "betting": _legal_betting, "discard": _legal_discard,
         "bidding": _legal_bidding, "order": _legal_order, "play": _legal_play}
APPLY = {"auction": _apply_auction, "betting": _apply_betting, "discard": _apply_discard,
         "bidding": _apply_bidding, "order": _apply_order, "play": _apply_play}


def legal_actions(state: State, seat: int) -> list[Action]:
    if state["over"] or seat != state["turn"]:
        return []
    return LEGAL[state["phase"]](state, seat)


def apply(state: State, seat: int, action: Action) -> State:
    if _is_plain_bid(state, seat, action):
        action = {"type": "bid", "amount": int(action["amount"])}
    else:
        legal = legal_actions(state, seat)
        if action not in legal:
            raise IllegalAction(_refusal(state, seat, action, legal))
        action = legal[legal.index(action)]  # the engine's own copy: no stray types or aliases
    s = _clone(state)
    APPLY[s["phase"]](s, seat, action)
    return s


def _is_plain_bid(s: State, seat: int, action: Any) -> bool:
    """A bid in range, checked without listing every possible bid (the same
    test as membership in ``legal_actions``)."""
    if s["over"] or seat != s["turn"] or s["phase"] not in ("bidding", "auction"):
        return False
    if s["phase"] == "auction" and s["auction"]["step"] != "bid":
        return False
    if not isinstance(action, dict) or action.keys() != {"type", "amount"} or action["type"] != "bid":
        return False
    amount = action["amount"]
    if not isinstance(amount, int):
        return False
    low, top = _bid_range(s, seat)
    return low <= amount <= top


def _refusal(s: State, seat: Any, action: Any, legal: list[Action]) -> str:
    """A sentence saying why ``action`` is refused."""
    if s["over"]:
        return "The match is over."
    if seat != s["turn"]:
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
        top = max(a["amount"] for a in legal if a["type"] == "bid")
        low = min(a["amount"] for a in legal if a["type"] == "bid")
        unit = "bugs" if s["phase"] == "bidding" and s["options"]["blaze"] else "dollars"
        return f"Bid a whole number of {unit} from {low} to {top}."
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
        return ("Say which suit and rank (1-17) the wild card is played as; "
                "with the led suit in hand, play it as that suit.")
    if not s["trick"]:
        return "A Death card can never be led." if card in death else "That card cannot be led."
    led = played_as(s["trick"][0])[0]
    return f"You must follow suit with a {SUIT_NAMES[led]} card."


# --- views and the match log ----------------------------------------------------

HIDDEN_FIELDS = ("hands", "deck", "pack", "draw_pile", "laid_down", "seed")


_PUBLIC_OPTIONS: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}


def _public_options(options: dict[str, Any]) -> dict[str, Any]:
    """Options with the named cards as labels: a card code in a view would
    look like a sighting of that card. Every state of a match shares one
    options dict, so the answer is kept per dict (the cache holds the dict,
    so its id is not reused while cached)."""
    cached = _PUBLIC_OPTIONS.get(id(options))
    if cached is not None and cached[0] is options:
        return cached[1]
    if len(_PUBLIC_OPTIONS) > 256:
        _PUBLIC_OPTIONS.clear()
    _PUBLIC_OPTIONS[id(options)] = (options, _labelled(options))
    return _PUBLIC_OPTIONS[id(options)][1]


def _labelled(options: dict[str, Any]) -> dict[str, Any]:
    opts = dict(options)
    opts["death_cards"] = [LABELS[c] for c in options["death_cards"]]
    opts["wilds"] = [LABELS[c] for c in options["wilds"]]
    return opts


def view(state: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may see. For speed the view shares the state's public
    lists (states are never changed in place): treat it as read-only."""
    v = dict(state)
    for key in HIDDEN_FIELDS:
        del v[key]
    v["options"] = _public_options(state["options"])
    v.update(
        to_act=to_act(state), scores=list(state["money"]), hand_sizes=[len(h) for h in state["hands"]],
        laid_down_counts=[len(x) for x in state["laid_down"]], deck_count=len(state["deck"]),
        pack_count=len(state["pack"]), draw_pile_count=len(state["draw_pile"]),
    )
    if seat is not None:
        v["seat"], v["hand"] = seat, list(state["hands"][seat])
    if state["over"]:
        v["outcome"] = outcome(state)
    return v


def describe(state: State, seat: int, action: Action) -> str:
    kind = action.get("type")
    if kind == "play":
        text = f"played {card_label(action['card'])}"
        return text + (f" as {SUIT_NAMES[action['suit']]} {action['rank']}" if "suit" in action else "")
    if kind == "bid":
        blaze_bid = state["phase"] == "bidding" and state["options"]["blaze"]
        if state["phase"] == "auction":
            return f"bid ${action['amount']} for {card_label(state['auction']['offer'])}"
        return f"bid {action['amount']} bugs" if blaze_bid else f"bid ${action['amount']}"
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
        b = state["betting"]
        return f"{'bet' if kind == 'bet' else 'raised to'} ${b['bet'] + state['options']['draw_bet']}"
    return {"pass": "passed", "fold": "folded", "check": "checked", "call": "called"}.get(kind, "acted")
