"""Karnoffel: four players in two teams, five-card hands, a strange trump order.

Rules: ``docs/rules/karnoffel.md`` (digest ``shared/spec/rules-karnoffel.md``).

Seats 0 and 2 play against seats 1 and 3 (team = seat % 2). Each hand begins
with a face-up round that fixes trump; the first team to take three tricks
wins the hand, and the first team to win ``target`` hands wins the match.

Phases (one kind of step, so the state has no phase key)::

    deal: face-up round fixes trump, 5 cards each
      |
      v
    play: the seat after the dealer leads; a trick's winner leads the next
      |  (a team with 3 tricks wins the hand at once)
      v
    hand end --(a team has won `target` hands)--> over
      |
      +--> deal (the next seat deals)

Action types (the only one)::

    {"type": "play", "card": "QS"}   # play that card from your hand to the trick

Any card in hand may be played: there is no duty to follow suit. A hand ends
the moment a team has three tricks; the next hand is dealt at once, so there
is never a step without a seat to act until the match is over.
"""

from __future__ import annotations

from typing import Any, TypedDict, cast

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
LED_TRUMP_RULES = {"3": "led_three", "4": "led_four_or_five", "5": "led_four_or_five"}
LED_ANY_SUIT_RULES = {"K": "led_king", "Q": "led_queen", "J": "led_jack"}
# Every rule that can decide a trick (the ``rule`` of a trick's reason), the strongest first: when the led card
# keeps the trick, the reason names the strongest rule it kept it by (an exception above a plain trump).
TRICK_RULES = (
    "led_seven", "led_three", "led_four_or_five", "led_king", "led_queen", "led_jack",
    "trump_order", "trump", "first_seven", "seven_as_led_suit", "highest_of_led_suit",
)  # fmt: skip
RULE_WEIGHT = {rule: len(TRICK_RULES) - i for i, rule in enumerate(TRICK_RULES)}


def card_label(code: str) -> str:
    return cards.label(code)


def team_of(seat: int) -> int:
    return seat % 2


# --- card helpers: who takes a trick ------------------------------------


def _is_trump(card: str, led: str, trump: str) -> bool:
    # The 7 of trump is trump only as the led card.
    return card[1] == trump and (card[0] != "7" or card == led)


def _led_holds(card: str, led: str, trump: str) -> str:
    """The rule by which the led card keeps the trick against ``card`` by an exception; empty when none does."""
    if led[1] == trump:
        if led[0] == "7":
            return "led_seven" if card != "J" + trump else ""
        if card[1] == trump and card[0] in LED_TRUMP_HOLDS.get(led[0], ""):
            return LED_TRUMP_RULES[led[0]]
    if card[1] == trump and card[0] != "7" and card[0] in LED_ANY_SUIT_HOLDS.get(led[0], ""):
        return LED_ANY_SUIT_RULES[led[0]]
    return ""


def contest(card: str, best: str, led: str, trump: str) -> tuple[bool, str]:
    """Whether ``card``, played later, takes over from ``best``, the card winning so far, and the rule that decides it.

    The rule is one of ``TRICK_RULES``: it names why the winner of the two wins.
    """
    held = _led_holds(card, led, trump) if best == led else ""
    if held:
        return False, held
    card_trump, best_trump = _is_trump(card, led, trump), _is_trump(best, led, trump)
    if card_trump and best_trump:
        return TRUMP_POWER[card[0]] > TRUMP_POWER[best[0]], "trump_order"
    if card_trump != best_trump:
        return card_trump, "trump"
    # Both plain: only the led suit counts, and a 7 of trump played later is a
    # 7 of the led suit. Equal ranks (two 7s) leave the first one winning.
    in_led_suit = card[1] == led[1] or (card[0] == "7" and card[1] == trump)
    if in_led_suit and card[0] == best[0] == "7":
        return False, "first_seven"
    wins = in_led_suit and PLAIN_POWER[card[0]] > PLAIN_POWER[best[0]]
    sevens = "7" + trump in (card, best) and trump != led[1]
    return wins, "seven_as_led_suit" if sevens and (card if wins else best)[0] == "7" else "highest_of_led_suit"


def beats(card: str, best: str, led: str, trump: str) -> bool:
    """Whether ``card``, played later, takes over from ``best``, the card winning so far."""
    return contest(card, best, led, trump)[0]


def trick_decision(played: list[str], trump: str) -> tuple[int, str, int]:
    """The walk in play order: the index of the card that takes the trick, the rule that made it win, and the
    index of the card that rule beat.

    The rule reported is the one a player asks about: a led-card exception the winner held against a later card
    (a led Queen against the 4 of trump), else the contest by which the winner took over, else the strongest
    rule by which the led card kept the trick.
    """
    best, rule, over = 0, "", 0
    for i in range(1, len(played)):
        takes_over, why = contest(played[i], played[best], played[0], trump)
        if takes_over:
            best, rule, over = i, why, best
        elif not rule or (best == 0 and RULE_WEIGHT[why] > RULE_WEIGHT[rule]):
            rule, over = why, i
    return best, rule, over


def winning_index(played: list[str], trump: str) -> int:
    """Index of the card that takes the trick so far, walking it in play order."""
    return trick_decision(played, trump)[0] if len(played) > 1 else 0


def trump_from(face_up_in_deal_order: list[str]) -> str:
    """The suit of the lowest face-up card; on a tie the first of them dealt."""
    lowest = min(face_up_in_deal_order, key=lambda c: PLAIN_POWER[c[0]])
    return lowest[1]


# --- the state -------------------------------------------------------------


class Played(TypedDict):
    seat: int
    card: str


class Trick(TypedDict):
    leader: int
    cards: list[Played]
    winner: int


class LastHand(TypedDict):
    hand_no: int
    dealer: int
    winner_team: int
    taken: list[int]
    trick_winners: list[int]


class State(TypedDict):
    players: int  # public: always 4
    seed: int | str  # private: deals every later hand
    target: int  # public: hands a team needs to win the match
    hand_no: int  # public: 0-based number of the current hand
    hands_won: list[int]  # public: per team
    last_hand: LastHand | None  # public: counts and seats only, no cards
    winner_team: int | None  # public: set when the match is over
    dealer: int  # public
    face_up: list[str]  # public: each seat's face-up card, by seat
    trump: str  # public: the suit fixed by the face-up round
    hands: list[list[str]]  # private: each seat sees only its own
    set_aside: list[str]  # private: the undealt rest, never seen
    trick: list[Played]  # public: the trick on the table
    leader: int  # public: who led the current trick
    turn: int  # public: whose card is awaited
    tricks: list[Trick]  # public: this hand's finished tricks
    taken: list[int]  # public: tricks per team this hand
    # private: the reasons of what the last action settled (``reasons``). Not secret, but the trick that ends a
    # hand names cards that are reshuffled into the next deal at once, so no view may carry it.
    settled: list[dict[str, Any]]


# Views are allow-lists: these keys are copied into every view as they are...
PUBLIC_FIELDS: tuple[str, ...] = (
    "players", "target", "hand_no", "hands_won", "last_hand", "winner_team", "dealer",
    "face_up", "trump", "trick", "leader", "turn", "tricks", "taken",
)  # fmt: skip
# ...and these never are (a seat's own hand is added to its view apart).
PRIVATE_FIELDS: tuple[str, ...] = ("seed", "hands", "set_aside", "settled")


def validate_options(players: int, options: dict[str, Any] | None) -> dict[str, Any]:
    if not cards.is_whole(players) or players != SEATS:
        raise ValueError(f"Karnoffel is played by exactly 4 players, not {players}.")
    result = cards.validate_options(options, OPTIONS, players)
    if "deck" in result:
        result["deck"] = cards.check_stacked_deck(result["deck"], DECK)
    return result


def new_match(players: int, options: dict[str, Any] | None = None, seed: int | str | None = None) -> State:
    opts = validate_options(players, options)
    seed = 0 if seed is None else seed
    state: State = {
        "players": SEATS,
        "seed": seed,
        "target": opts["target"],
        "hand_no": 0,
        "hands_won": [0, 0],
        "last_hand": None,
        "winner_team": None,
        # The deal below fills in the hand's own keys.
        "dealer": 0, "face_up": [], "trump": "", "hands": [], "set_aside": [],
        "trick": [], "leader": 0, "turn": 0, "tricks": [], "taken": [0, 0], "settled": [],
    }  # fmt: skip
    return _deal(state, 0, 0, opts.get("deck"))


def _deal(state: State, hand_no: int, dealer: int, deck: list[str] | None = None) -> State:
    """A fresh hand: face-up round, four more rounds, the rest set aside."""
    if deck is None:
        deck = cards.shuffled(DECK, state["seed"], NAME, "hand", hand_no)
    order = [(dealer + 1 + i) % SEATS for i in range(SEATS)]
    hands: list[list[str]] = [[] for _ in range(SEATS)]
    face_up = [""] * SEATS
    for i, seat in enumerate(order):
        face_up[seat] = deck[i]
    for i, code in enumerate(deck[: SEATS * HAND_SIZE]):
        hands[order[i % SEATS]].append(code)
    leader = order[0]
    return {
        **state,
        "hand_no": hand_no,
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


def to_act(state: State) -> list[int]:
    return [] if state["winner_team"] is not None else [state["turn"]]


def is_over(state: State) -> bool:
    return state["winner_team"] is not None


def hand_index(state: State) -> int:
    return state["hand_no"]


# --- legal actions ---------------------------------------------------------


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    if state["winner_team"] is not None or not cards.is_whole(seat) or seat != state["turn"]:
        return []
    return _legal_play(state, seat)


def _legal_play(state: State, seat: int) -> list[dict[str, Any]]:
    return [{"type": "play", "card": code} for code in state["hands"][seat]]


# --- apply -----------------------------------------------------------------


def apply(state: State, seat: int, action: dict[str, Any]) -> State:
    if not cards.action_in(action, legal_actions(state, seat)):
        raise IllegalAction(_refusal(state, seat, action))
    return _apply_play(state, seat, action["card"])


def _refusal(state: State, seat: Any, action: Any) -> str:
    """Why an action that is not in ``legal_actions`` was refused, for the player."""
    if state["winner_team"] is not None:
        return "The match is over; no more cards can be played."
    if seat != state["turn"] or not cards.is_whole(seat):
        return "It is not your turn to play."
    if not isinstance(action, dict) or action.get("type") != "play":
        return 'The only move in Karnoffel is to play a card: {"type": "play", "card": ...}.'
    if set(action) != {"type", "card"}:
        return "A play names exactly one card and nothing else."
    return f"You do not hold the card {action['card']!r}."


def _apply_play(state: State, seat: int, code: str) -> State:
    hands = list(state["hands"])
    hands[seat] = [c for c in hands[seat] if c != code]
    trick: list[Played] = [*state["trick"], {"seat": seat, "card": code}]
    new: State = {**state, "hands": hands, "trick": trick, "turn": (seat + 1) % SEATS, "settled": []}
    if len(trick) == SEATS:
        return _apply_trick_end(new)
    return new


def _apply_trick_end(state: State) -> State:
    trick = state["trick"]
    reason = trick_reason(trick, state["trump"], len(state["tricks"]) + 1)
    winner = reason["seat"]
    taken = list(state["taken"])
    taken[team_of(winner)] += 1
    done: Trick = {"leader": state["leader"], "cards": trick, "winner": winner}
    new: State = {
        **state, "trick": [], "tricks": [*state["tricks"], done], "taken": taken, "leader": winner, "turn": winner,
        "settled": [reason],
    }  # fmt: skip
    if taken[team_of(winner)] == TRICKS_TO_WIN:
        return _apply_hand_end(new, team_of(winner))
    return new


def _apply_hand_end(state: State, team: int) -> State:
    hands_won = list(state["hands_won"])
    hands_won[team] += 1
    # Only counts and seats: the cards of this hand are shuffled into the
    # next deal, where most of them are hidden again.
    reason = hand_reason(state["hand_no"], team, state["taken"], hands_won)
    last: LastHand = {
        "hand_no": state["hand_no"],
        "dealer": state["dealer"],
        "winner_team": team,
        "taken": state["taken"],
        "trick_winners": [t["winner"] for t in state["tricks"]],
    }
    settled = [*state["settled"], reason]
    new: State = {**state, "hands_won": hands_won, "last_hand": last, "settled": settled}
    if hands_won[team] >= state["target"]:
        return {**new, "winner_team": team, "settled": [*settled, match_reason(team, hands_won, state["target"])]}
    return _deal(new, state["hand_no"] + 1, (state["dealer"] + 1) % SEATS)


# --- reasons: why a trick, a hand, the match went as it did ------------------------


def trick_reason(trick: list[Played], trump: str, number: int) -> dict[str, Any]:
    """Who took a finished trick, with which card, and by which rule (``trick_decision``, the rule itself)."""
    played = [p["card"] for p in trick]
    best, rule, over = trick_decision(played, trump)
    return {
        "kind": "trick",
        "rule": rule,
        "trick_no": number,
        "seat": trick[best]["seat"],
        "card": played[best],
        "over": played[over],
        "over_seat": trick[over]["seat"],
        "led": played[0],
        "trump": trump,
        "cards": played,
    }


def hand_reason(hand_no: int, team: int, taken: list[int], hands_won: list[int]) -> dict[str, Any]:
    """A hand is won by the first team to three tricks: seats and counts, no cards (they are dealt again)."""
    return {
        "kind": "hand",
        "rule": "three_tricks",
        "hand_no": hand_no,
        "team": team,
        "seats": list(TEAMS[team]),
        "taken": list(taken),
        "scores": [1 if team_of(seat) == team else 0 for seat in range(SEATS)],
        "hands_won": list(hands_won),
    }


def match_reason(team: int, hands_won: list[int], target: int) -> dict[str, Any]:
    return {
        "kind": "match",
        "rule": "target_reached",
        "team": team,
        "seats": list(TEAMS[team]),
        "hands_won": list(hands_won),
        "target": target,
    }


def reasons(before: State, after: State) -> list[dict[str, Any]]:
    """What the one action from ``before`` to ``after`` settled: a trick, then perhaps the hand and the match.

    Recorded by the rules as they applied (``_apply_trick_end``, ``_apply_hand_end``); a state stored before
    reasons existed has none.
    """
    return [dict(r) for r in after.get("settled") or []]


# --- scoring ---------------------------------------------------------------


def _scores(state: State) -> list[int]:
    won = state["hands_won"]
    return [won[0], won[1], won[0], won[1]]


def outcome(state: State) -> dict[str, Any]:
    if not is_over(state):
        raise ValueError("The match is not over yet.")
    scores, winner = _scores(state), state["winner_team"]
    assert winner is not None
    team_places = cards.places_from_scores(state["hands_won"])
    return {
        "scores": scores,
        "places": [team_places[team_of(seat)] for seat in range(SEATS)],
        "winner_team": winner,
        "winners": list(TEAMS[winner]),
        "hands_won": list(state["hands_won"]),
        "hands_played": state["hand_no"] + 1,
    }


def running_scores(view: dict[str, Any]) -> list[float]:
    """The match's scores so far on its outcome's scale, from any view: the table keeps the outcome's score."""
    return cards.view_scores(view)


# --- view ------------------------------------------------------------------


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The public keys, what follows from them, and the seat's own hand."""
    if seat is not None and (not cards.is_whole(seat) or seat not in range(SEATS)):
        raise ValueError(f"There is no seat {seat!r} at this table; the seats are 0 to 3.")
    result = cards.public_part(state, PUBLIC_FIELDS)
    result.update(
        to_act=to_act(state),
        scores=_scores(state),
        teams=[list(t) for t in TEAMS],
        hand_sizes=[len(h) for h in state["hands"]],
    )
    if seat is not None:
        result["seat"] = seat
        result["hand"] = list(state["hands"][seat])
    if state["winner_team"] is not None:
        result["outcome"] = outcome(state)
    return result


def state_from_view(view: dict[str, Any], private: dict[str, Any]) -> State:
    """The full state from a seat's view plus ``private`` (exactly ``PRIVATE_FIELDS``, real or sampled)."""
    # A state made up from a view has no last action, so what it settled may be left out (a bot's sampler does).
    private = {"settled": [], **private} if "seed" in private else private
    return cast(State, cards.rebuild(view, private, PUBLIC_FIELDS, PRIVATE_FIELDS))


def describe(state: State, seat: int, action: dict[str, Any]) -> str:
    """A played card is public the moment it lands, so the log may name it."""
    code = action.get("card") if isinstance(action, dict) else None
    if not isinstance(code, str) or code not in DECK:
        return "made a move that is not a card"
    verb = "led" if not state["trick"] else "played"
    return f"{verb} {card_label(code)}"
