"""Rentz: four dealers each deal five hands, one of each mini-game.

Rules: ``docs/rules/rentz.md`` (digest ``shared/spec/rules-rentz.md``).

Actions:

- ``{"type": "choose", "game": NAME}``: the dealer, after the deal, picks one
  of ``acool``, ``diamonds``, ``king_of_hearts``, ``queens``, ``rentz`` that
  they have not yet dealt.
- ``{"type": "play", "card": "QS"}``: play a card to the trick, or to the
  layout in the rentz mini-game.
- ``{"type": "pass"}``: rentz mini-game only, and only when no card of the
  hand can be played to the layout.

Phases (``state["phase"]``); play goes to the next seat, ``(seat + 1) % 4``::

    deal --> choose --(acool, diamonds, king_of_hearts, queens)--> tricks --+
               |                                                            |
               +--(rentz)--> layout --(three seats out)--------------------+
                                                                            |
    hand end: the next hand is dealt (choose again) ... after 20 hands: over
"""

from __future__ import annotations

from typing import Any, TypedDict, cast

from engine.cards import (
    RANKS,
    SUIT_NAMES,
    SUITS,
    action_in,
    check_stacked_deck,
    french_deck,
    is_whole,
    json_copy,
    label,
    places_from_scores,
    public_part,
    rebuild,
    shuffled,
    view_scores,
)
from engine.cards import validate_options as check_schema
from engine.errors import IllegalAction

NAME = "rentz"
TITLE = "Rentz"
MIN_PLAYERS = 4
MAX_PLAYERS = 4

SEATS = 4
HAND_SIZE = 13
HANDS_PER_DEALER = 5
TOTAL_HANDS = SEATS * HANDS_PER_DEALER
MINI_GAMES = ("acool", "diamonds", "king_of_hearts", "queens", "rentz")
MINI_TITLES = {
    "acool": "Acool",
    "diamonds": "Diamonds",
    "king_of_hearts": "King of Hearts",
    "queens": "Queens",
    "rentz": "Rentz",
}
DEFAULT_POINTS: dict[str, Any] = {
    "acool": -10,
    "diamonds": -15,
    "queens": -25,
    "king_of_hearts": -75,
    "rentz": [200, 150, 100, 50],
}
POINT_LIMIT = 10_000  # a sanity bound on overridden values, far above any real table's

OPTIONS: list[dict[str, Any]] = [
    {
        "name": "points",
        "type": "json",
        "default": DEFAULT_POINTS,
        "label": "Point values",
        "help": "Override any of: acool (per trick), diamonds (per diamond), queens (per queen), "
        "king_of_hearts, each zero or negative; rentz, four bonuses from first out to last.",
    },
    {
        "name": "end_when_decided",
        "type": "bool",
        "default": True,
        "label": "End Diamonds and Queens early",
        "help": "Stop the hand as soon as every diamond (or every queen) has been taken.",
    },
]

DECK = french_deck()
ORDER = {card: i for i, card in enumerate(DECK)}  # suit by suit, 2 up to A: the order hands are sorted in
RANK_INDEX = {rank: i for i, rank in enumerate(RANKS)}
JACK = RANK_INDEX["J"]
PENALTY_TOTAL = {"diamonds": 13, "queens": 4, "king_of_hearts": 1}


# --- card helpers -------------------------------------------------------------


def card_label(code: str) -> str:
    return label(code)


def is_penalty(game: str | None, card: str) -> bool:
    """Whether taking ``card`` in a trick costs points in mini-game ``game``."""
    if game == "diamonds":
        return card[1] == "D"
    if game == "queens":
        return card[0] == "Q"
    if game == "king_of_hearts":
        return card == "KH"
    return False


def trick_reason(leader: int, cards: list[str], number: int = 0) -> dict[str, Any]:
    """Who takes a trick and why: the highest card of the led suit (no trumps, ace high); the others did not
    follow or followed lower."""
    led = cards[0][1]
    best = 0
    for i in range(1, len(cards)):
        if cards[i][1] == led and RANK_INDEX[cards[i][0]] > RANK_INDEX[cards[best][0]]:
            best = i
    return {
        "kind": "trick",
        "rule": "highest_of_led_suit",
        "trick_no": number,
        "seat": (leader + best) % SEATS,
        "card": cards[best],
        "led": cards[0],
        "cards": list(cards),
        "off_suit": [c for c in cards if c[1] != led],
    }


def trick_winner(leader: int, cards: list[str]) -> int:
    """The seat whose card is the highest of the led suit (no trumps, ace high)."""
    seat: int = trick_reason(leader, cards)["seat"]
    return seat


def layout_playable(layout: dict[str, list[int] | None], card: str) -> bool:
    """A Jack opens its suit; then the row grows one rank at a time at either end."""
    row = layout[card[1]]
    rank = RANK_INDEX[card[0]]
    if row is None:
        return rank == JACK
    return rank == row[0] - 1 or rank == row[1] + 1


def layout_ends(layout: dict[str, list[int] | None]) -> dict[str, str]:
    """The ranks a seat must lack to pass: each suit's Jack or the two cards beside its row."""
    ends = {}
    for suit, row in layout.items():
        if row is None:
            ends[suit] = "J"
        else:
            ends[suit] = "".join(RANKS[r] for r in (row[0] - 1, row[1] + 1) if 0 <= r < len(RANKS))
    return ends


def layout_cards(layout: dict[str, list[int] | None]) -> list[str]:
    """Every card on the layout: each row is a run of ranks around its Jack."""
    return [RANKS[r] + suit for suit, row in layout.items() if row for r in range(row[0], row[1] + 1)]


def _sorted_hand(cards: list[str]) -> list[str]:
    return sorted(cards, key=ORDER.__getitem__)


def _merge_ranks(old: str, new: str) -> str:
    return "".join(sorted(set(old + new), key=RANK_INDEX.__getitem__))


# --- options and the state -----------------------------------------------------


def validate_options(players: int, options: dict[str, Any] | None) -> dict[str, Any]:
    """The full options (defaults filled in); ValueError with a sentence otherwise."""
    if not is_whole(players) or players != SEATS:
        raise ValueError(f"Rentz is played by exactly {SEATS} players, not {players!r}.")
    result = check_schema(options, OPTIONS, players)
    result["points"] = _check_points(options.get("points", {}) if options else {})
    if "deck" in result:
        result["deck"] = check_stacked_deck(result["deck"], DECK)
    return result


def _check_points(points: Any) -> dict[str, Any]:
    if not isinstance(points, dict):
        raise ValueError("Option 'points' must be a dictionary of mini-game names to point values.")
    unknown = sorted(set(points) - set(DEFAULT_POINTS))
    if unknown:
        raise ValueError(
            f"Option 'points' names {unknown[0]!r}, which is not a mini-game; the mini-games are: {', '.join(MINI_GAMES)}."
        )
    full = {**DEFAULT_POINTS, "rentz": list(DEFAULT_POINTS["rentz"])}
    for game, value in points.items():
        if game == "rentz":
            full[game] = _check_rentz_points(value)
        elif not _is_int(value) or not -POINT_LIMIT <= value <= 0:
            raise ValueError(f"The {MINI_TITLES[game]} penalty must be a whole number from -{POINT_LIMIT} to 0.")
        else:
            full[game] = value
    return full


def _check_rentz_points(value: Any) -> list[int]:
    if not isinstance(value, list) or len(value) != SEATS or not all(_is_int(v) for v in value):
        raise ValueError("The Rentz bonuses must be a list of four whole numbers, first out to last.")
    if not all(0 <= v <= POINT_LIMIT for v in value):
        raise ValueError(f"Each Rentz bonus must be from 0 to {POINT_LIMIT}.")
    if any(value[i] < value[i + 1] for i in range(SEATS - 1)):
        raise ValueError("The Rentz bonuses must not grow: going out earlier never scores less.")
    return list(value)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Trick(TypedDict):
    leader: int
    winner: int
    cards: list[str]


class State(TypedDict):
    players: int  # public: always 4
    seed: int | str  # private: deals every later hand
    options: dict[str, Any]  # public: points and end_when_decided (never the stacked deck)
    scores: list[int]  # public: match totals per seat
    history: list[dict[str, Any]]  # public: each finished hand's game and points
    remaining: list[str]  # public: the mini-games this dealer has still to choose
    hand_no: int  # public: 0..19
    dealer: int  # public
    phase: str  # public: choose, tricks, layout or over
    game: str | None  # public: this hand's mini-game once chosen
    turn: int | None  # public: whose action is awaited (None when over)
    leader: int  # public: who led the current trick
    hands: list[list[str]]  # private: each seat sees only its own
    trick_cards: list[str]  # public: the current trick's cards, from the leader on
    tricks: list[Trick]  # public: this hand's finished tricks
    rows: dict[str, list[int] | None]  # public: the layout, [low, high] rank indexes per suit
    out: list[int]  # public: seats out of cards in the layout game, in order
    lacks: list[dict[str, str]]  # public: ranks per suit each seat has shown it lacks
    tricks_taken: list[int]  # public: per seat, this hand
    penalties: list[list[str]]  # public: penalty cards each seat has taken this hand
    last_hand_reason: dict[str, Any] | None  # public: why the last finished hand scored as it did (no cards)
    # private: the reasons of what the last action settled (``reasons``). Not secret, but the trick that ends a
    # hand names cards that are dealt again at once, so no view may carry it.
    settled: list[dict[str, Any]]


# Views are allow-lists: these keys are copied into every view as they are...
PUBLIC_FIELDS: tuple[str, ...] = (
    "players", "options", "scores", "history", "remaining", "hand_no", "dealer", "phase", "game",
    "turn", "leader", "trick_cards", "tricks", "rows", "out", "lacks", "tricks_taken", "penalties",
    "last_hand_reason",
)  # fmt: skip
# ...and these never are (a seat's own hand is added to its view apart).
PRIVATE_FIELDS: tuple[str, ...] = ("seed", "hands", "settled")


def new_match(players: int, options: dict[str, Any] | None = None, seed: int | str | None = None) -> State:
    opts = validate_options(players, options)
    seed = 0 if seed is None else seed
    state: State = {
        "players": SEATS,
        "seed": seed,
        # The stacked deck is the first hand's secret, so it never enters the state.
        "options": {"points": opts["points"], "end_when_decided": opts["end_when_decided"]},
        "scores": [0] * SEATS,
        "history": [],
        "remaining": list(MINI_GAMES),
        # The deal below fills in the hand's own keys.
        "hand_no": 0, "dealer": 0, "phase": "choose", "game": None, "turn": 0, "leader": 0,
        "hands": [], "trick_cards": [], "tricks": [], "rows": {}, "out": [], "lacks": [],
        "tricks_taken": [], "penalties": [], "last_hand_reason": None, "settled": [],
    }  # fmt: skip
    return _deal(state, 0, opts.get("deck"))


def _deal(state: State, hand_no: int, deck: list[str] | None = None) -> State:
    """A fresh hand: the dealer's ``hand_no % 5``-th deal; cards go one at a time from the dealer's left."""
    dealer = hand_no // HANDS_PER_DEALER
    cards = deck if deck is not None else shuffled(DECK, state["seed"], "hand", hand_no)
    fresh_dealer = hand_no % HANDS_PER_DEALER == 0
    return {
        **state,
        "hand_no": hand_no,
        "dealer": dealer,
        "phase": "choose",
        "game": None,
        "turn": dealer,
        "leader": dealer,
        "hands": [_sorted_hand(cards[(seat - dealer - 1) % SEATS :: SEATS]) for seat in range(SEATS)],
        "trick_cards": [],
        "tricks": [],
        "rows": dict.fromkeys(SUITS),
        "out": [],
        "lacks": [{} for _ in range(SEATS)],
        "tricks_taken": [0] * SEATS,
        "penalties": [[] for _ in range(SEATS)],
        "remaining": list(MINI_GAMES) if fresh_dealer else state["remaining"],
    }


def to_act(state: State) -> list[int]:
    turn = state["turn"]
    return [] if turn is None else [turn]


def is_over(state: State) -> bool:
    return state["phase"] == "over"


def hand_index(state: State) -> int:
    return state["hand_no"]


# --- legal actions -------------------------------------------------------------


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    if state["phase"] == "over" or not is_whole(seat) or seat != state["turn"]:
        return []
    return _LEGAL[state["phase"]](state, seat)


def _legal_choose(state: State, seat: int) -> list[dict[str, Any]]:
    return [{"type": "choose", "game": game} for game in state["remaining"]]


def _legal_tricks(state: State, seat: int) -> list[dict[str, Any]]:
    hand = state["hands"][seat]
    trick = state["trick_cards"]
    if trick:
        led = trick[0][1]
        follow = [card for card in hand if card[1] == led]
        if follow:
            hand = follow
    return [{"type": "play", "card": card} for card in hand]


def _legal_layout(state: State, seat: int) -> list[dict[str, Any]]:
    rows = state["rows"]
    plays = [{"type": "play", "card": card} for card in state["hands"][seat] if layout_playable(rows, card)]
    return plays or [{"type": "pass"}]


_LEGAL = {"choose": _legal_choose, "tricks": _legal_tricks, "layout": _legal_layout}


# --- apply -----------------------------------------------------------------------


def apply(state: State, seat: int, action: dict[str, Any]) -> State:
    """The state after ``seat`` takes ``action``; IllegalAction (state untouched) otherwise."""
    if not action_in(action, legal_actions(state, seat)):
        raise IllegalAction(_why_illegal(state, seat, action))
    # What this action settles is recorded where the rules apply (``_complete_trick``, ``_end_hand``).
    return _APPLY[state["phase"]](cast(State, {**state, "settled": []}), seat, action)


def _why_illegal(state: State, seat: Any, action: Any) -> str:
    """Why an action that is not in ``legal_actions`` was refused, for the player."""
    if state["phase"] == "over":
        return "The match is over."
    if seat != state["turn"] or not is_whole(seat):
        return f"It is not your turn: seat {state['turn']} is to act."
    if not isinstance(action, dict) or action.get("type") not in ("choose", "play", "pass"):
        return "That is not a Rentz action: the actions are choose, play and pass."
    kind = action["type"]
    expected = {"choose": {"type", "game"}, "play": {"type", "card"}, "pass": {"type"}}[kind]
    if set(action) != expected:
        return f"A {kind} action has exactly the fields: {', '.join(sorted(expected))}."
    if state["phase"] == "choose":
        return _why_not_choose(state, action)
    if kind == "choose":
        return "The mini-game of this hand has already been chosen."
    if state["phase"] == "tricks":
        return _why_not_trick(state, seat, action)
    return _why_not_layout(state, seat, action)


def _why_not_choose(state: State, action: dict[str, Any]) -> str:
    if action["type"] != "choose":
        return "The dealer must first choose the mini-game for this hand."
    game = action["game"]
    if game not in MINI_GAMES:
        return f"There is no mini-game {game!r}; the mini-games are: {', '.join(MINI_GAMES)}."
    return f"You have already dealt {MINI_TITLES[game]}; choose one of: {', '.join(state['remaining'])}."


def _why_not_trick(state: State, seat: int, action: dict[str, Any]) -> str:
    if action["type"] == "pass":
        return "You cannot pass in a trick-taking game: play a card."
    if action["card"] not in state["hands"][seat]:
        return "You do not hold that card."
    led = state["trick_cards"][0][1]
    return f"You must follow suit: you hold {SUIT_NAMES[led]}."


def _why_not_layout(state: State, seat: int, action: dict[str, Any]) -> str:
    if action["type"] == "pass":
        return "You may pass only when you cannot play; you have a card that fits the layout."
    if action["card"] not in state["hands"][seat]:
        return "You do not hold that card."
    return f"{label(action['card'])} does not fit the layout: play a Jack or a card next to the end of its suit's row."


def _apply_choose(state: State, seat: int, action: dict[str, Any]) -> State:
    game = action["game"]
    return {
        **state,
        "game": game,
        "remaining": [g for g in state["remaining"] if g != game],
        "phase": "layout" if game == "rentz" else "tricks",
    }


def _without(state: State, seat: int, card: str) -> list[list[str]]:
    hands = list(state["hands"])
    hands[seat] = [c for c in hands[seat] if c != card]
    return hands


def _with_lacks(state: State, seat: int, ranks_by_suit: dict[str, str]) -> list[dict[str, str]]:
    """Record public knowledge: ``seat`` holds none of these ranks (a revoke-free void or a pass)."""
    lacks = list(state["lacks"])
    mine = dict(lacks[seat])
    for suit, ranks in ranks_by_suit.items():
        if ranks:  # a finished row asks for nothing, so a pass proves nothing about it
            mine[suit] = _merge_ranks(mine.get(suit, ""), ranks)
    lacks[seat] = mine
    return lacks


def _apply_tricks(state: State, seat: int, action: dict[str, Any]) -> State:
    card = action["card"]
    trick = [*state["trick_cards"], card]
    new: State = {**state, "hands": _without(state, seat, card), "trick_cards": trick, "turn": (seat + 1) % SEATS}
    if card[1] != trick[0][1]:
        new["lacks"] = _with_lacks(state, seat, {trick[0][1]: RANKS})
    if len(trick) < SEATS:
        return new
    return _complete_trick(new)


def _complete_trick(state: State) -> State:
    trick = state["trick_cards"]
    reason = trick_reason(state["leader"], trick, len(state["tricks"]) + 1)
    winner = reason["seat"]
    record: Trick = {"leader": state["leader"], "winner": winner, "cards": trick}
    taken = list(state["tricks_taken"])
    taken[winner] += 1
    penalties = list(state["penalties"])
    caught = [c for c in trick if is_penalty(state["game"], c)]
    if caught:
        penalties[winner] = penalties[winner] + caught
    new: State = {
        **state,
        "tricks": [*state["tricks"], record],
        "trick_cards": [],
        "leader": winner,
        "turn": winner,
        "tricks_taken": taken,
        "penalties": penalties,
        "settled": [reason],
    }
    ended = _trick_hand_over(new)
    if ended:
        game = cast(str, new["game"])
        return _end_hand(new, score_tricks(game, taken, penalties, new["options"]["points"], ended))
    return new


def _trick_hand_over(state: State) -> str:
    """Why the hand ends with this trick (``HAND_ENDS``), or empty when it goes on."""
    tricks, game = state["tricks"], state["game"]
    if game == "king_of_hearts" and "KH" in tricks[-1]["cards"]:
        return "king_taken"
    if len(tricks) == HAND_SIZE:
        return "all_tricks"
    if game in ("diamonds", "queens") and state["options"]["end_when_decided"]:
        return "all_penalties" if sum(len(p) for p in state["penalties"]) == PENALTY_TOTAL[game] else ""
    return ""


def _apply_layout(state: State, seat: int, action: dict[str, Any]) -> State:
    if action["type"] == "pass":
        lacks = _with_lacks(state, seat, layout_ends(state["rows"]))
        return {**state, "lacks": lacks, "turn": _next_in(seat, state["out"])}
    card = action["card"]
    hands = _without(state, seat, card)
    rows = dict(state["rows"])
    rank, row = RANK_INDEX[card[0]], rows[card[1]]
    rows[card[1]] = [rank, rank] if row is None else [min(row[0], rank), max(row[1], rank)]
    out = state["out"] if hands[seat] else [*state["out"], seat]
    new: State = {**state, "hands": hands, "rows": rows, "out": out, "turn": _next_in(seat, out)}
    if len(out) == SEATS - 1:
        return _end_hand(new, score_layout(out, new["options"]["points"]))
    return new


def _next_in(seat: int, out: list[int]) -> int:
    """The next seat in play order that still holds cards (a seat that is out is skipped)."""
    nxt = (seat + 1) % SEATS
    while nxt in out:
        nxt = (nxt + 1) % SEATS
    return nxt


_APPLY = {"choose": _apply_choose, "tricks": _apply_tricks, "layout": _apply_layout}


# --- scoring -------------------------------------------------------------------------


# Every way a hand scores (the ``rule`` of a hand's reason: the mini-game's own rule) and why a trick-taking hand
# ended: all 13 tricks played, the K of hearts taken, or every penalty card taken (``end_when_decided``).
HAND_RULES = MINI_GAMES
HAND_ENDS = ("all_tricks", "king_taken", "all_penalties", "three_out")


def score_tricks(
    game: str, taken: list[int], penalties: list[list[str]], points: dict[str, Any], ended: str = "all_tricks"
) -> tuple[list[int], dict[str, Any]]:
    """Each seat's points for a trick-taking hand, per trick in Acool, else per penalty card, and the reason."""
    counts = list(taken) if game == "acool" else [len(cards) for cards in penalties]
    result = [points[game] * n for n in counts]
    reason = {"kind": "hand", "rule": game, "game": game, "unit": points[game], "counts": counts, "ended": ended}
    return result, {**reason, "scores": result}


def trick_points(game: str, taken: list[int], penalties: list[list[str]], points: dict[str, Any]) -> list[int]:
    """Each seat's points for a trick-taking hand: per trick in Acool, else per penalty card."""
    return score_tricks(game, taken, penalties, points)[0]


def finishing_order(out: list[int]) -> list[int]:
    """The seats in the order they went out; the one left holding cards is last."""
    return out + [seat for seat in range(SEATS) if seat not in out]


def score_layout(out: list[int], points: dict[str, Any]) -> tuple[list[int], dict[str, Any]]:
    """Each seat's bonus for its place in the order of going out, and the reason."""
    result = [0] * SEATS
    order = finishing_order(out)
    for place, seat in enumerate(order):
        result[seat] = points["rentz"][place]
    reason = {"kind": "hand", "rule": "rentz", "game": "rentz", "unit": list(points["rentz"]), "order": order}
    return result, {**reason, "ended": "three_out", "scores": result}


def layout_points(out: list[int], points: dict[str, Any]) -> list[int]:
    return score_layout(out, points)[0]


def match_reason(scores: list[int]) -> dict[str, Any]:
    """After the twentieth hand the highest total wins; ties share a place."""
    return {"kind": "match", "rule": "highest_total", "scores": list(scores), "places": places_from_scores(scores)}


def reasons(before: State, after: State) -> list[dict[str, Any]]:
    """What the one action from ``before`` to ``after`` settled: a trick, a hand's points, the match.

    Recorded by the rules as they applied (``_complete_trick``, ``_end_hand``); a state stored before reasons
    existed has none.
    """
    return [dict(r) for r in after.get("settled") or []]


def _end_hand(state: State, scored: tuple[list[int], dict[str, Any]]) -> State:
    points, why = scored
    reason = {**why, "hand_no": state["hand_no"], "dealer": state["dealer"]}
    record: dict[str, Any] = {
        "hand_no": state["hand_no"],
        "dealer": state["dealer"],
        "game": state["game"],
        "points": points,
    }
    if state["game"] == "rentz":
        record["order"] = finishing_order(state["out"])
    new: State = {
        **state,
        "scores": [s + p for s, p in zip(state["scores"], points, strict=True)],
        "history": [*state["history"], record],
        "last_hand_reason": reason,
        "settled": [*state["settled"], reason],
    }
    if state["hand_no"] + 1 == TOTAL_HANDS:
        # The last hand's cards stay where they lie, so the final table can still be shown.
        return {**new, "phase": "over", "turn": None, "settled": [*new["settled"], match_reason(new["scores"])]}
    return _deal(new, state["hand_no"] + 1)


def outcome(state: State) -> dict[str, Any]:
    if not is_over(state):
        raise ValueError("The match is not over yet.")
    scores = list(state["scores"])
    return {"scores": scores, "places": places_from_scores(scores), "hands": json_copy(state["history"])}


def running_scores(view: dict[str, Any]) -> list[float]:
    """The match's scores so far on its outcome's scale, from any view: the table keeps the outcome's points."""
    return view_scores(view)


# --- view and log ------------------------------------------------------------------------


def view(state: State, seat: int | None = None) -> dict[str, Any]:
    """What ``seat`` may see: the public keys, own hand, other hands only as counts."""
    if seat is not None and (not is_whole(seat) or seat not in range(SEATS)):
        raise ValueError(f"There is no seat {seat!r} at this table; the seats are 0 to {SEATS - 1}.")
    if "last_hand_reason" not in state:  # a state stored before the key existed
        state = cast(State, {**state, "last_hand_reason": None})
    result = public_part(state, PUBLIC_FIELDS)
    leader = state["leader"]
    result.update(
        to_act=to_act(state),
        hand_sizes=[len(h) for h in state["hands"]],
        trick=[{"seat": (leader + i) % SEATS, "card": c} for i, c in enumerate(state["trick_cards"])],
        layout={
            s: None if r is None else {"low": RANKS[r[0]] + s, "high": RANKS[r[1]] + s}
            for s, r in state["rows"].items()
        },
    )
    if seat is not None:
        result["seat"] = seat
        result["hand"] = list(state["hands"][seat])
    if state["phase"] == "over":
        result["outcome"] = outcome(state)
    return result


def state_from_view(view: dict[str, Any], private: dict[str, Any]) -> State:
    """The full state from a seat's view plus ``private`` (exactly ``PRIVATE_FIELDS``, real or sampled)."""
    # A state made up from a view has no last action, so what it settled may be left out (a bot's sampler does).
    private = {"settled": [], **private} if "seed" in private else private
    view = {"last_hand_reason": None, **view}  # a view of a state stored before the key existed
    return cast(State, rebuild(view, private, PUBLIC_FIELDS, PRIVATE_FIELDS))


def describe(state: State, seat: int, action: dict[str, Any]) -> str:
    kind = action.get("type")
    if kind == "choose":
        return f"chose {MINI_TITLES.get(action['game'], action['game'])}"
    if kind == "play":
        return f"played {label(action['card'])}"
    return "passed" if kind == "pass" else f"took the action {kind!r}"
