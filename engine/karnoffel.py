"""Karnoffel: four players in two teams, five-card hands, a strange trump order.

Rules: ``docs/rules/karnoffel.md`` (digest ``shared/spec/rules-karnoffel.md``).

Seats 0 and 2 play against seats 1 and 3 (team = seat % 2). Each hand begins
with a face-up round that fixes trump; the first team to take three tricks
wins the hand, and the first team to win ``target`` hands wins the match.

Action types (the only one)::

    {"type": "play", "card": "QS"}   # play that card from your hand to the trick

Any card in hand may be played: there is no duty to follow suit. A hand ends
the moment a team has three tricks; the next hand is dealt at once, so there
is never a step without a seat to act until the match is over.
"""

from __future__ import annotations

from typing import Any

from engine import cards
from engine.errors import IllegalAction

NAME = "karnoffel"
TITLE = "Karnoffel"
MIN_PLAYERS = 4
MAX_PLAYERS = 4
SEATS = 4
HAND_SIZE = 5
TRICKS_TO_WIN = 3
TEAMS = ([0, 2], [1, 3])

OPTIONS: list[dict[str, Any]] = [
    {
        "name": "target",
        "type": "int",
        "default": 12,
        "min": 1,
        "max": 50,
        "label": "Hands to win the match",
        "help": "The first team to win this many hands wins the match.",
    },
]

RANKS = "23456789TJQK"
DECK: list[str] = cards.french_deck(RANKS)
# Plain order: K high ... 2 low. Used for plain cards and to find trump.
PLAIN_POWER = {rank: i for i, rank in enumerate(RANKS)}
# Trump order, highest first. The 7 is trump only when led, and then only the
# Jack is above it; the led-card exceptions for 3, 4, 5, K, Q, J are below.
TRUMP_ORDER = "J762K3Q45T98"
TRUMP_POWER = {rank: len(TRUMP_ORDER) - i for i, rank in enumerate(TRUMP_ORDER)}
# Led-card exceptions: a led card of this rank keeps the trick against these
# trump ranks played after it (led 3/4/5 only when they are trump themselves).
LED_TRUMP_HOLDS = {"3": "K", "4": "KQ", "5": "KQ"}
LED_ANY_SUIT_HOLDS = {"K": "345", "Q": "45", "J": "5"}


def card_label(code: str) -> str:
    return cards.label(code)


def team_of(seat: int) -> int:
    return seat % 2


# --- who takes a trick -----------------------------------------------------


def _is_trump(card: str, led: str, trump: str) -> bool:
    # The 7 of trump is trump only as the led card.
    return card[1] == trump and (card[0] != "7" or card == led)


def _led_holds(card: str, led: str, trump: str) -> bool:
    """Whether the led card keeps the trick against ``card`` by an exception."""
    if led[1] == trump:
        if led[0] == "7":
            return card != "J" + trump
        if card[1] == trump and card[0] in LED_TRUMP_HOLDS.get(led[0], ""):
            return True
    return card[1] == trump and card[0] != "7" and card[0] in LED_ANY_SUIT_HOLDS.get(led[0], "")


def beats(card: str, best: str, led: str, trump: str) -> bool:
    """Whether ``card``, played later, takes over from ``best``, the card winning so far."""
    if best == led and _led_holds(card, led, trump):
        return False
    card_trump, best_trump = _is_trump(card, led, trump), _is_trump(best, led, trump)
    if card_trump and best_trump:
        return TRUMP_POWER[card[0]] > TRUMP_POWER[best[0]]
    if card_trump != best_trump:
        return card_trump
    # Both plain: only the led suit counts, and a 7 of trump played later is a
    # 7 of the led suit. Equal ranks (two 7s) leave the first one winning.
    in_led_suit = card[1] == led[1] or (card[0] == "7" and card[1] == trump)
    return in_led_suit and PLAIN_POWER[card[0]] > PLAIN_POWER[best[0]]


def winning_index(played: list[str], trump: str) -> int:
    """Index of the card that takes the trick so far, walking it in play order."""
    best = 0
    for i in range(1, len(played)):
        if beats(played[i], played[best], played[0], trump):
            best = i
    return best


def trump_from(face_up_in_deal_order: list[str]) -> str:
    """The suit of the lowest face-up card; on a tie the first of them dealt."""
    lowest = min(face_up_in_deal_order, key=lambda c: PLAIN_POWER[c[0]])
    return lowest[1]


# --- the state -------------------------------------------------------------


def validate_options(players: int, options: dict[str, Any] | None) -> dict[str, Any]:
    if players != SEATS:
        raise ValueError(f"Karnoffel is played by exactly 4 players, not {players}.")
    result = cards.validate_options(options, OPTIONS, players)
    if "deck" in result:
        result["deck"] = cards.check_stacked_deck(result["deck"], DECK)
    return result


def _deal(seed: int | str, hand_no: int, dealer: int, deck: list[str] | None = None) -> dict[str, Any]:
    """The fields of a fresh hand: face-up round, four more rounds, the rest set aside."""
    if deck is None:
        deck = cards.shuffled(DECK, seed, NAME, "hand", hand_no)
    order = [(dealer + 1 + i) % SEATS for i in range(SEATS)]
    hands: list[list[str]] = [[] for _ in range(SEATS)]
    face_up = [""] * SEATS
    for i, seat in enumerate(order):
        face_up[seat] = deck[i]
    for i, code in enumerate(deck[: SEATS * HAND_SIZE]):
        hands[order[i % SEATS]].append(code)
    leader = order[0]
    return {
        "dealer": dealer,
        "face_up": face_up,
        "trump": trump_from(deck[:SEATS]),
        "hands": hands,
        "set_aside": deck[SEATS * HAND_SIZE :],
        "trick": [],
        "leader": leader,
        "turn": leader,
        "tricks": [],
        "taken": [0, 0],
    }


def new_match(players: int, options: dict[str, Any] | None = None, seed: int | str | None = None) -> dict[str, Any]:
    opts = validate_options(players, options)
    seed = 0 if seed is None else seed
    state = {
        "players": SEATS,
        "seed": seed,
        "target": opts["target"],
        "hand_no": 0,
        "hands_won": [0, 0],
        "last_hand": None,
        "winner_team": None,
    }
    state.update(_deal(seed, 0, 0, opts.get("deck")))
    return state


def to_act(state: dict[str, Any]) -> list[int]:
    return [] if state["winner_team"] is not None else [state["turn"]]


def is_over(state: dict[str, Any]) -> bool:
    return state["winner_team"] is not None


def hand_index(state: dict[str, Any]) -> int:
    return state["hand_no"]


# --- legal actions ---------------------------------------------------------


def _legal_play(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    return [{"type": "play", "card": code} for code in state["hands"][seat]]


def legal_actions(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    if state["winner_team"] is not None or seat != state["turn"]:
        return []
    return _legal_play(state, seat)


def _check_play(state: dict[str, Any], seat: int, action: Any) -> str:
    """The card to play, or IllegalAction saying what is wrong."""
    if state["winner_team"] is not None:
        raise IllegalAction("The match is over; no more cards can be played.")
    if seat != state["turn"]:
        raise IllegalAction("It is not your turn to play.")
    if not isinstance(action, dict) or action.get("type") != "play":
        raise IllegalAction('The only move in Karnoffel is to play a card: {"type": "play", "card": ...}.')
    if set(action) != {"type", "card"}:
        raise IllegalAction("A play names exactly one card and nothing else.")
    code = action["card"]
    if not isinstance(code, str) or code not in state["hands"][seat]:
        raise IllegalAction(f"You do not hold the card {code!r}.")
    return code


# --- apply -----------------------------------------------------------------


def apply(state: dict[str, Any], seat: int, action: dict[str, Any]) -> dict[str, Any]:
    code = _check_play(state, seat, action)
    return _apply_play(state, seat, code)


def _apply_play(state: dict[str, Any], seat: int, code: str) -> dict[str, Any]:
    hands = list(state["hands"])
    hands[seat] = [c for c in hands[seat] if c != code]
    trick = [*state["trick"], {"seat": seat, "card": code}]
    new = {**state, "hands": hands, "trick": trick, "turn": (seat + 1) % SEATS}
    if len(trick) == SEATS:
        return _apply_trick_end(new)
    return new


def _apply_trick_end(state: dict[str, Any]) -> dict[str, Any]:
    trick = state["trick"]
    winner = trick[winning_index([p["card"] for p in trick], state["trump"])]["seat"]
    taken = list(state["taken"])
    taken[team_of(winner)] += 1
    done = {"leader": state["leader"], "cards": trick, "winner": winner}
    new = {**state, "trick": [], "tricks": [*state["tricks"], done], "taken": taken, "leader": winner, "turn": winner}
    if taken[team_of(winner)] == TRICKS_TO_WIN:
        return _apply_hand_end(new, team_of(winner))
    return new


def _apply_hand_end(state: dict[str, Any], team: int) -> dict[str, Any]:
    hands_won = list(state["hands_won"])
    hands_won[team] += 1
    # Only counts and seats: the cards of this hand are shuffled into the
    # next deal, where most of them are hidden again.
    last = {
        "hand_no": state["hand_no"],
        "dealer": state["dealer"],
        "winner_team": team,
        "taken": state["taken"],
        "trick_winners": [t["winner"] for t in state["tricks"]],
    }
    new = {**state, "hands_won": hands_won, "last_hand": last}
    if hands_won[team] >= state["target"]:
        new["winner_team"] = team
        return new
    hand_no = state["hand_no"] + 1
    new["hand_no"] = hand_no
    new.update(_deal(state["seed"], hand_no, (state["dealer"] + 1) % SEATS))
    return new


# --- scoring ---------------------------------------------------------------


def _scores(state: dict[str, Any]) -> list[int]:
    won = state["hands_won"]
    return [won[0], won[1], won[0], won[1]]


def outcome(state: dict[str, Any]) -> dict[str, Any]:
    if not is_over(state):
        raise ValueError("The match is not over yet.")
    scores = _scores(state)
    team_places = cards.places_from_scores(state["hands_won"])
    return {
        "scores": scores,
        "places": [team_places[team_of(seat)] for seat in range(SEATS)],
        "winner_team": state["winner_team"],
        "winners": list(TEAMS[state["winner_team"]]),
        "hands_won": list(state["hands_won"]),
        "hands_played": state["hand_no"] + 1,
    }


# --- view ------------------------------------------------------------------


def view(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """Public table plus the seat's own hand; see the rules page for the list."""
    if seat is not None and seat not in range(SEATS):
        raise ValueError(f"There is no seat {seat!r} at this table; the seats are 0 to 3.")
    result: dict[str, Any] = {
        "players": SEATS,
        "hand_no": state["hand_no"],
        "dealer": state["dealer"],
        "to_act": to_act(state),
        "scores": _scores(state),
        "hands_won": list(state["hands_won"]),
        "target": state["target"],
        "teams": [list(t) for t in TEAMS],
        "face_up": list(state["face_up"]),
        "trump": state["trump"],
        "hand_sizes": [len(h) for h in state["hands"]],
        "leader": state["leader"],
        "trick": [dict(p) for p in state["trick"]],
        "tricks": [{**t, "cards": [dict(p) for p in t["cards"]]} for t in state["tricks"]],
        "taken": list(state["taken"]),
        "last_hand": _last_hand_view(state["last_hand"]),
    }
    if seat is not None:
        result["seat"] = seat
        result["hand"] = list(state["hands"][seat])
    if state["winner_team"] is not None:
        result["outcome"] = outcome(state)
    return result


def _last_hand_view(last: dict[str, Any] | None) -> dict[str, Any] | None:
    if last is None:
        return None
    return {**last, "taken": list(last["taken"]), "trick_winners": list(last["trick_winners"])}


def describe(state: dict[str, Any], seat: int, action: dict[str, Any]) -> str:
    """A played card is public the moment it lands, so the log may name it."""
    code = action.get("card") if isinstance(action, dict) else None
    if not isinstance(code, str) or code not in DECK:
        return "made a move that is not a card"
    verb = "led" if not state["trick"] else "played"
    return f"{verb} {card_label(code)}"
