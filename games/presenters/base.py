"""The shared presenter: a game's view turned into plain data (dicts, lists, strings) for the templates.

Nothing here builds markup: a card becomes ``{"code", "text", "cls"}`` and
``templates/games/_card.html`` draws it; a move becomes a value and a label and
the turn panel in ``templates/games/match.html`` draws the form. A game with a
presenter of its own (``games/presenters/<game>.py``) overrides the few hooks
below; any other game is shown by this one with the generic table.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, ClassVar

from engine import get_game

# Above this many choices an action type becomes a select, not a row of buttons.
MAX_BUTTONS = 14
# Moves that put a card of the reader's own hand somewhere: shown as the hand itself.
HAND_MOVES = ("play", "discard", "offer")
SUFFIXES = {1: "st", 2: "nd", 3: "rd"}
GROUP_LABELS = {
    "play": "Play",
    "discard": "Discard",
    "offer": "Offer",
    "bid": "Bid",
    "take": "Take",
}
# The move kinds a reader other than the mover must not learn: a forced move tells
# the table that its player held one legal card, in a follow-suit game one card of the led suit.
PRIVATE_KINDS = frozenset({"forced"})
# Log lines that are not moves (``games.services.VACATION_DAY_KIND``): numbered with the move before them.
NOTE_KINDS = frozenset({"vacation"})
BACK: dict[str, Any] = {"back": True, "code": "", "text": "?", "cls": "back", "name": "", "mark": "", "rank": ""}
# Where each seat sits on the drawn table (cells of a 3 x 3 grid: "s" the bottom middle, "nw" the top left), going
# round from the reader at the bottom to the left, as the play goes: ``seat_places``.
PLACES = {
    1: ("s",),
    2: ("s", "n"),
    3: ("s", "nw", "ne"),
    4: ("s", "w", "n", "e"),
    5: ("s", "w", "nw", "ne", "e"),
    6: ("s", "w", "nw", "n", "ne", "e"),
    7: ("s", "sw", "w", "nw", "ne", "e", "se"),
    8: ("s", "sw", "w", "nw", "n", "ne", "e", "se"),
}
# A French card's rank and suit as a screen reader should say them ("queen of diamonds", not "Q black diamond").
RANK_WORDS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "10"}
SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
# One encoder for every action's hidden value: ``json.dumps`` with options builds a new one per call.
_ACTION_JSON = json.JSONEncoder(sort_keys=True, separators=(",", ":"))


def ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else SUFFIXES.get(place % 10, "th")
    return f"{place}{suffix}"


def money_text(amount: int) -> str:
    """Dollars with the sign in front: a debt reads ``-$5``."""
    return f"-${-amount}" if amount < 0 else f"${amount}"


def seat_name(number: Any, names: list[str]) -> str:
    if isinstance(number, int) and not isinstance(number, bool) and 0 <= number < len(names):
        return names[number]
    return "" if number is None else str(number)


def seat_places(players: int, reader: int | None) -> list[str]:
    """Each seat's place round the drawn table: the reader (a spectator: the first seat) at the bottom."""
    places = PLACES.get(players)
    if places is None:
        return ["s"] * max(players, 0)
    first = reader if isinstance(reader, int) and 0 <= reader < players else 0
    return [places[(seat - first) % players] for seat in range(players)]


def card_words(code: str) -> str:
    """A French card as words ("queen of diamonds"); empty when its label already reads as words ("Tools 5")."""
    if len(code) == 2 and code[1] in SUIT_WORDS and (code[0].isdigit() or code[0] in RANK_WORDS):
        return f"{RANK_WORDS.get(code[0], code[0])} of {SUIT_WORDS[code[1]]}"
    return ""


def card_parts(text: str) -> tuple[str, str]:
    """A label of a word and a number ("Tools 5") as its suit mark and rank, drawn apart; else two empty strings."""
    mark, _, rank = text.rpartition(" ")
    return (mark, rank) if mark.isalpha() and rank.isdigit() else ("", "")


def log_kind(kind: str, *, mover: int | None, reader: int | None, over: bool) -> str:
    """The kind of a logged move as this reader may see it: a private kind reads as a plain move to the others."""
    if kind in PRIVATE_KINDS and not over and (reader is None or reader != mover):
        return "player"
    return kind


def log_line(move: Mapping[str, Any], names: list[str], *, reader: int | None, over: bool) -> dict[str, Any]:
    """One line of the log: ``{"number", "key", "name", "text", "kind"}``, the kind as the reader may see it.

    A note (``NOTE_KINDS``: not a move, e.g. a vacation day spent on a timeout) carries the number of the
    move before it, and a key of its own between that move's and the next one's (``12.2``: the second note
    after move 12), which ``static/js/parlour.js`` reads to keep the reader's place and to announce it.
    """
    seat = move.get("seat")
    raw_kind = str(move.get("kind", ""))
    kind = log_kind(raw_kind, mover=seat, reader=reader, over=over)
    ply = move.get("ply")
    number = ply + 1 if isinstance(ply, int) else ""
    note = move.get("note") if raw_kind in NOTE_KINDS and number != "" else None
    return {
        "number": number,
        "key": f"{number}.{note}" if isinstance(note, int) and 0 < note < 10 else number,
        "name": seat_name(seat, names),
        "text": move.get("text", ""),
        "kind": kind,
    }


class Presenter:
    """Any game's view as plain data; the generic default for a game without a presenter of its own."""

    board_template: ClassVar[str] = "games/tables/_generic.html#board"
    details_template: ClassVar[str] = "games/tables/_generic.html#details"
    # Reference material that never changes during a match (Renfield's card values): shown when the reader
    # asks for it (``?values=1`` on the table), from ``reference(view)``, not rendered on every refresh.
    reference_template: ClassVar[str | None] = None
    # Scores are dollars (Renfield): the seat list shows them as money, a debt marked.
    scores_are_money: ClassVar[bool] = False
    # View keys the generic table leaves out: shown elsewhere on the page, or meaningless to a reader.
    generic_skip: ClassVar[frozenset[str]] = frozenset(
        {"hand", "scores", "to_act", "seat", "players", "outcome", "options"}
    )
    # View keys whose seat numbers read as the player's name in the generic table.
    seat_keys: ClassVar[frozenset[str]] = frozenset({"seat", "winner", "taker", "leader", "bidder"})
    # The reader's cards beside their hand, by view key, with the heading they are shown under: in the turn
    # panel and the turn mail (Rapscallion's bidding cards). Like the hand, a card there may be drawn on a button.
    own_card_sets: ClassVar[dict[str, str]] = {}

    def __init__(self, game_name: str) -> None:
        self.game_name = game_name
        self.engine: Any = get_game(game_name)  # each game module has constants of its own
        self._faces: dict[str, dict[str, Any]] = {}
        self._texts: dict[str, str | None] = {}
        # A logged move's why lines, by the move's reasons and the seats' names (see log_reasons).
        self._why_lines: dict[tuple[str, tuple[str, ...]], list[dict[str, str]]] = {}

    # --- cards ----------------------------------------------------------------

    def card_text(self, code: Any) -> str | None:
        """The card's label, or None when ``code`` is not a card of this game."""
        if not isinstance(code, str) or not code or len(code) > 16:
            return None
        if code not in self._texts:
            try:
                text = self.engine.card_label(code)
            except Exception:
                text = None
            # Some games hand back what is not a card code unchanged rather than failing.
            self._texts[code] = text if isinstance(text, str) and text and text != code else None
        return self._texts[code]

    def short_text(self, code: str) -> str:
        """The label as a card face shows it."""
        return self.card_text(code) or code

    def card_class(self, code: str) -> str:
        """The face's colour class: French suits by name, other codes by their first letter."""
        suits = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
        if len(code) == 2 and code[1] in suits:
            return "suit-" + suits[code[1]]
        return "suit-" + code[0].lower() if code[:1].isalpha() else ""

    def is_back(self, code: str) -> bool:
        """A face-down card: drawn as a card back, its code never written into the page."""
        return False

    def card(self, code: Any) -> dict[str, Any]:
        """A card as ``templates/games/_card.html`` draws it."""
        code = "" if code is None else str(code)
        face = self._faces.get(code)
        if face is None:
            if self.is_back(code):
                face = BACK
            else:
                text = self.short_text(code)
                mark, rank = card_parts(text)
                face = {"back": False, "code": code, "text": text, "cls": self.card_class(code)}
                face.update(name=card_words(code), mark=mark, rank=rank)
            if len(self._faces) < 4096:
                self._faces[code] = face
        return face

    def cards(self, codes: Any) -> list[dict[str, Any]]:
        return [self.card(c) for c in codes or []]

    def card_sets(self, view: dict[str, Any]) -> list[dict[str, Any]]:
        """The reader's other cards (``own_card_sets``) that the view holds: each with its heading and its faces."""
        return [
            {"heading": heading, "cards": self.cards(view[key])}
            for key, heading in self.own_card_sets.items()
            if key in view
        ]

    def _in_view(self, card: str, view: dict[str, Any]) -> bool:
        """A card may be drawn as a card only where the reader's view holds it (the hand, the centre, the
        reader's other cards); else it is named in words."""
        if not view:
            return True
        return any(card in (view.get(key) or []) for key in ("hand", "centre", *self.own_card_sets))

    def hand_title(self, view: dict[str, Any]) -> str:
        """What the current hand is, in a few words, where a match's hands differ (Rentz's five games); else empty."""
        return ""

    def suit_name(self, suit: str) -> str:
        symbols = {"C": "♣ clubs", "D": "♦ diamonds", "H": "♥ hearts", "S": "♠ spades"}
        return symbols.get(suit, suit)

    # --- the seats and the result ---------------------------------------------------

    def score_text(self, score: Any) -> str:
        if self.scores_are_money and isinstance(score, int):
            return money_text(score)
        return "" if score is None else str(score)

    def result_line(self, view: dict[str, Any], seat: int | None, names: list[str]) -> str:
        """One sentence for the end of the match, from the reader's side of the table."""
        outcome = view.get("outcome") or {}
        places = outcome.get("places") or []
        if not places:
            return ""
        if seat is None or seat >= len(places):
            winners = [names[n] if n < len(names) else str(n) for n, p in enumerate(places) if p == 1]
            return ("Won by " if len(winners) == 1 else "Shared win: ") + " & ".join(winners) + "."
        place = places[seat]
        shared = places.count(place) > 1
        if place == 1:
            return f"You won{' (shared)' if shared else ''} (1st of {len(places)})."
        return f"You came {ordinal(place)}{' (shared)' if shared else ''} of {len(places)}."

    # Above the scores column of the result table: what the score counts in this game.
    score_heading: ClassVar[str] = "Score"

    def team_names(self, outcome: dict[str, Any], names: list[str]) -> list[str]:
        """Each seat's team as its players' names; empty strings in a game without teams."""
        return ["" for _ in names]

    def result_table(
        self, outcome: dict[str, Any] | None, names: list[str], reader: int | None
    ) -> list[dict[str, Any]]:
        """The final standings, best place first: place ("1st", "2nd (shared)"), player, score, team."""
        outcome = outcome or {}
        places, scores = outcome.get("places") or [], outcome.get("scores") or []
        teams = self.team_names(outcome, names)
        rows = []
        for seat, place in enumerate(places):
            if not isinstance(place, int) or seat >= len(names):
                continue
            shared = places.count(place) > 1
            rows.append(
                {
                    "place": place,
                    "place_text": ordinal(place) + (" (shared)" if shared else ""),
                    "name": names[seat],
                    "score": self.score_text(scores[seat]) if seat < len(scores) else "",
                    "team": teams[seat] if seat < len(teams) else "",
                    "me": seat == reader,
                }
            )
        return sorted(rows, key=lambda row: row["place"])

    def result_summary(self, outcome: dict[str, Any] | None, names: list[str], reader: int | None) -> dict[str, str]:
        """For a list of matches: the reader's place ("2nd of 4") and who won ("Dora & Bot 3")."""
        rows = self.result_table(outcome, names, reader)
        mine = next((row for row in rows if row["me"]), None)
        winners = [row["name"] for row in rows if row["place"] == 1]
        return {"place": f"{mine['place_text']} of {len(rows)}" if mine else "", "winners": " & ".join(winners)}

    # A game's own part of the result, under the standings (Rapscallion's last showdown): the template
    # (a partial of the game's templates) and its data (``result_details``), both None for most games.
    result_template: ClassVar[str | None] = None

    def result_details(self, outcome: dict[str, Any] | None, names: list[str]) -> dict[str, Any] | None:
        """The data for ``result_template`` at the end of a match; None for a game without one."""
        return None

    # --- moves ----------------------------------------------------------------

    def action_label(self, action: dict[str, Any], view: dict[str, Any] | None = None) -> str:
        """A short label for a button or an option: 'Play 10♥', 'Bid $4'."""
        kind = str(action.get("type", "move"))
        special = self.special_label(kind, action, view or {})
        if special:
            return special
        words = [kind.replace("_", " ").capitalize()]
        words += [self._param_text(v) for k, v in action.items() if k != "type"]
        return " ".join(words)

    def special_label(self, kind: str, action: dict[str, Any], view: dict[str, Any]) -> str:
        """A game's own wording for a move; empty for the generic 'Kind value value'."""
        card = action.get("card")
        if kind == "bid" and isinstance(card, str):
            return f"Bid {self.short_text(card)}"
        return ""

    def _param_text(self, value: Any) -> str:
        if isinstance(value, str):
            return self.card_text(value) or value
        if isinstance(value, list):
            return ", ".join(self._param_text(v) for v in value)
        if isinstance(value, dict):
            return ", ".join(f"{k} {self._param_text(v)}" for k, v in value.items())
        return str(value)

    def group_key(self, action: dict[str, Any]) -> str:
        """Which group a legal action is offered in: by default its type."""
        return str(action.get("type", "move"))

    def group_label(self, kind: str) -> str:
        return GROUP_LABELS.get(kind, kind.replace("_", " ").capitalize())

    def group_widget(self, kind: str, choices: list[dict[str, Any]]) -> str:
        return "select" if len(choices) > MAX_BUTTONS else "buttons"

    def action_groups(self, legal: list[dict[str, Any]], view: dict[str, Any]) -> list[dict[str, Any]]:
        """Legal actions grouped: the hand, card buttons, plain buttons, or one select for long lists.

        Choices that read the same (Rapscallion's two red Rapscallions) are shown once: either may be sent.
        """
        grouped: dict[str, list[dict[str, Any]]] = {}
        for action in legal:
            grouped.setdefault(self.group_key(action), []).append(action)
        hand = set(view.get("hand") or [])
        return [self._group(kind, actions, view, hand) for kind, actions in grouped.items()]

    def _group(self, kind: str, actions: list[dict[str, Any]], view: dict[str, Any], hand: set[str]) -> dict[str, Any]:
        choices = _unique(self._choice(a, view) for a in actions)
        cards = [a.get("card") for a in actions]
        group: dict[str, Any] = {
            "type": kind,
            "label": self.group_label(kind),
            "choices": choices,
            "card": None,
            "cards": {c: ch for c, ch in zip(cards, choices, strict=False) if isinstance(c, str)},
        }
        plain_cards = all(set(a) == {"type", "card"} for a in actions)
        if kind in HAND_MOVES and hand and plain_cards and all(c in hand for c in cards):
            group["widget"] = "hand"
        elif plain_cards and all(c["card"] for c in choices):
            group["widget"] = "cards"
        else:
            group["widget"] = self.group_widget(kind, choices)
        group["heading"] = group["widget"] == "buttons" and self.group_heading(kind, choices)
        group["button"] = self.select_button(kind, group["label"])
        return group

    def group_heading(self, kind: str, choices: list[dict[str, Any]]) -> bool:
        """Whether a row of buttons gets its group's label in front ("Bid:")."""
        return kind == "bid" and not (choices and choices[0]["card"])

    def select_button(self, kind: str, label: str) -> str:
        """The words on a select's submit button."""
        return label

    def _choice(self, action: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
        card = action.get("card")
        visible = isinstance(card, str) and self.card_text(card) is not None and self._in_view(card, view)
        label = self.action_label(action, view)
        return {
            "value": _ACTION_JSON.encode(action),
            "label": label,
            "card": self.card(card) if visible else None,
            # The words around the card on its button: "Take" K♠, "Side bet:" 13.
            "verb": label.removesuffix(self.short_text(str(card))).strip() if visible else label,
        }

    def turn(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        """The turn panel: the reader's hand (as a form when a card of it is the move) and every other move."""
        groups = self.action_groups(legal, view)
        hand_group = next((g for g in groups if g["widget"] == "hand"), None)
        wilds = {g["card"] for g in groups if g.get("card")}
        hand = None
        if "hand" in view:
            chosen = hand_group["cards"] if hand_group else {}
            hand = [
                {"card": self.card(code), "choice": chosen.get(code), "wild": code in wilds}
                for code in view.get("hand") or []
            ]
        return {
            "moves": bool(legal),
            "hand": hand,
            "hand_group": hand_group,
            "card_sets": self.card_sets(view),
            "groups": [g for g in groups if g["widget"] != "hand"],
        }

    # --- the whole table ------------------------------------------------------------

    def seats(self, table: Any, *, viewer_id: int | None) -> list[dict[str, Any]]:
        """The seat list: names, each seat's kind apart from its name, scores, who is to play.

        An open invitation shows its address to the match's creator only, and never the name of an
        account the address may belong to.
        """
        view, mine = table.view, table.seat.number if table.seat is not None else None
        to_act, scores = view.get("to_act") or (), view.get("scores") or []
        creator = viewer_id is not None and table.match.created_by_id == viewer_id
        rows = []
        for seat, seat_name_ in zip(table.seats, table.names, strict=True):
            score = scores[seat.number] if isinstance(scores, list) and seat.number < len(scores) else ""
            name = f"Invited: {seat.invite_email}" if creator and not seat.joined and seat.invite_email else seat_name_
            rows.append(
                {
                    "number": seat.number,
                    "name": name,
                    "bot": seat.is_bot,
                    "acting": seat.number in to_act,
                    "me": seat.number == mine,
                    "score": self.score_text(score),
                    "money": self.scores_are_money and isinstance(score, int),
                    "debt": isinstance(score, int) and score < 0,
                }
            )
        return rows

    def table_context(self, table: Any, *, viewer_id: int | None) -> dict[str, Any]:
        """Everything ``templates/games/match.html`` shows, as plain data beside the view itself."""
        match, view, names = table.match, table.view, table.names
        reader = table.seat.number if table.seat is not None else None
        over = match.is_over
        return {
            "seats": self.seats(table, viewer_id=viewer_id),
            "log": [self.log_entry(m, names, reader=reader, over=over) for m in table.moves],
            "turn": self.turn(view, table.legal),
            "result": self.result_line(view, reader, names) if over else "",
            "result_table": self.result_table(match.outcome or view.get("outcome"), names, reader) if over else [],
            "score_heading": self.score_heading,
            "result_details": self.result_details(match.outcome or view.get("outcome"), names) if over else None,
            "result_template": self.result_template,
            "board": self.board(view, names),
            "why": self.table_reasons(view, names),
            "board_template": self.board_template,
            "details_template": self.details_template,
            **(self.waiting_context(table, viewer_id=viewer_id) if match.status == "waiting" else {}),
        }

    def log_entry(self, move: Mapping[str, Any], names: list[str], *, reader: int | None, over: bool) -> dict[str, Any]:
        """A line of the table's log: ``log_line`` with what the page adds to it, ready to print.

        "mine": the reader's own clicks, which parlour.js does not read out to them again; "aside": the kind
        in brackets after a line that is not a player's move ("bot", "forced"), empty for a player's move;
        "why": ``log_reasons``; "summaries": the hand summaries among them (``templates/games/_log_why.html``).
        """
        line = log_line(move, names, reader=reader, over=over)
        line["mine"] = reader is not None and move.get("seat") == reader
        line["aside"] = "" if line["kind"] == "player" else line["kind"]
        why = self.log_reasons(move.get("reasons"), names)
        # The hand summaries apart, so that the template loops over them only under a line that ends a hand.
        # A line without reasons holds no list at all (None): a flat dict, kept by ``{% logline %}`` cheaply.
        line["why"] = why or None
        line["summaries"] = [w["summary"] for w in why if w["summary"]] if why else None
        return line

    # --- why it happened: the engine's reasons in a player's words ------------------------

    def reason_text(self, reason: dict[str, Any], names: list[str]) -> str:
        """One plain sentence for one reason (``engine.<game>.reasons``); a game's presenter says it in its own
        words, this is what any game gets."""
        kind, rule = str(reason.get("kind", "")), str(reason.get("rule", "")).replace("_", " ")
        who = seat_name(reason.get("seat"), names)
        card = self.card_text(reason.get("card"))
        if kind == "trick" and who:
            return f"{who} took the trick{' with ' + card if card else ''}{' (' + rule + ')' if rule else ''}."
        subject = f"The {kind.replace('_', ' ')}" if kind.replace("_", "").isalpha() else "This"
        return f"{subject} was decided by the rule: {rule}." if rule else f"{subject} is settled."

    def hand_summary(self, reason: dict[str, Any], names: list[str]) -> str:
        """The line under a finished hand in the log: its number and each seat's score of that hand."""
        number = reason.get("hand_no")
        scores = reason.get("scores")
        head = f"Hand {number + 1} is over" if isinstance(number, int) else "The hand is over"
        if not isinstance(scores, list) or len(scores) != len(names):
            return head + "."
        parts = ", ".join(f"{name} {self.score_text(score)}" for name, score in zip(names, scores, strict=True))
        return f"{head}: {parts}."

    def log_reasons(self, reasons: Any, names: list[str]) -> list[dict[str, str]]:
        """The why lines under a logged move, one per reason: ``{"text", "summary"}``, the summary (after a
        hand separator) only under a reason of kind "hand". A line stored before reasons existed has none.

        The words depend on nothing but the reasons and the names, and the table words its whole log again on
        every refresh: so they are kept (per game, up to 4,096 moves' worth), keyed by the reasons' JSON and the
        names (a substitute's name words the line afresh). The lists are shared: the templates only read them.
        """
        if not isinstance(reasons, list) or not reasons:
            return []
        key = (json.dumps(reasons, sort_keys=True, default=str), tuple(names))
        lines = self._why_lines.get(key)
        if lines is None:
            if len(self._why_lines) >= 4096:
                self._why_lines.clear()
            lines = self._why_lines[key] = self.worded_reasons(reasons, names)
        return lines

    def worded_reasons(self, reasons: list[Any], names: list[str]) -> list[dict[str, str]]:
        """``log_reasons`` worded afresh."""
        result = []
        for reason in reasons:
            if isinstance(reason, dict):
                summary = self.hand_summary(reason, names) if reason.get("kind") == "hand" else ""
                result.append({"text": self.reason_text(reason, names), "summary": summary})
        return result

    def table_reasons(self, view: dict[str, Any], names: list[str]) -> list[str]:
        """The sentences for the latest settled trick, hand or showdown as the view shows them (``tables/_why.html``)."""
        return []

    def reference(self, view: dict[str, Any]) -> dict[str, Any] | None:
        """The data for ``reference_template``; None for a game without one."""
        return None

    def waiting_context(self, table: Any, *, viewer_id: int | None) -> dict[str, Any]:
        """A match waiting for players shows no cards: the deal exists, but nothing of it is shown until all sit.

        The seats instead, with the creator's controls for those not taken (the seat list shows the creator, and only
        the creator, the invited address).
        """
        creator = viewer_id is not None and table.match.created_by_id == viewer_id
        seats = [
            {
                "number": seat.number,
                "name": seat.name,
                "joined": seat.joined,
                "invited": bool(seat.invite_token),
            }
            for seat in table.seats
        ]
        return {
            "turn": {"moves": False, "hand": None, "hand_group": None, "card_sets": [], "groups": []},
            "seats": [{**row, "acting": False, "score": ""} for row in self.seats(table, viewer_id=viewer_id)],
            "board": {},
            "board_template": "games/_waiting.html#board",
            "details_template": "games/_waiting.html#details",
            "waiting_seats": seats,
            "may_manage": creator,
        }

    # --- the board -------------------------------------------------------------

    def board(self, view: dict[str, Any], names: list[str]) -> dict[str, Any]:
        """What the game's board and details templates show beyond the view itself: by default every view key."""
        rows = [
            (str(k).replace("_", " ").capitalize(), self.value(v, names))
            for k, v in view.items()
            if k not in self.generic_skip
        ]
        return {"rows": rows}

    def value(self, value: Any, names: list[str] | None = None, key: str = "") -> dict[str, Any]:
        """Any view value as a small tree that the generic table's ``value`` partial draws."""
        if key in self.seat_keys and type(value) is int and names and 0 <= value < len(names):
            return {"kind": "text", "text": names[value]}
        if isinstance(value, str):
            return (
                {"kind": "card", "card": self.card(value)} if self.card_text(value) else {"kind": "text", "text": value}
            )
        if isinstance(value, bool) or value is None:
            return {"kind": "text", "text": {True: "yes", False: "no", None: "—"}[value]}
        if isinstance(value, list):
            return {"kind": "list", "items": [self.value(v, names) for v in value]}
        if isinstance(value, dict):
            items = [(str(k).replace("_", " "), self.value(v, names, str(k))) for k, v in value.items()]
            return {"kind": "dict", "items": items}
        return {"kind": "text", "text": str(value)}

    def plays(self, plays: Any, names: list[str]) -> list[dict[str, Any]]:
        """A trick's plays: who played which card, and what a card stood for where the game says."""
        result = []
        for play in plays or []:
            play = play if isinstance(play, dict) else {}  # a malformed play shows as nothing
            result.append(
                {
                    "name": seat_name(play.get("seat", ""), names),
                    "card": self.card(play.get("card", "")),
                    "note": self.play_note(play),
                }
            )
        return result

    def play_note(self, play: dict[str, Any]) -> str:
        """Words after a played card (Renfield's wild cards say what they were played as)."""
        return ""

    def trick_plays(self, trick: dict[str, Any], players: int) -> list[dict[str, Any]]:
        """A finished trick's plays as ``{"seat", "card", ...}``, whichever shape the game stores it in."""
        plays = trick.get("plays") or trick.get("cards") or []
        if plays and isinstance(plays[0], str):  # bare codes, in order from the leader
            leader = trick.get("leader") or 0
            return [{"seat": (leader + i) % max(players, 1), "card": c} for i, c in enumerate(plays)]
        return list(plays)

    def trick_board(self, view: dict[str, Any], names: list[str]) -> dict[str, Any]:
        """The trick in progress, the last trick and the tricks of the hand, for ``tables/_trick.html``."""
        players = view.get("players") or 0
        tricks = []
        for trick in view.get("tricks") or []:
            taker = trick.get("taker")
            taker = trick.get("winner") if taker is None else taker
            plays = self.trick_plays(trick, players)
            tricks.append(
                {"taker": seat_name(taker, names), "cards": self.cards(p.get("card") for p in plays), "plays": plays}
            )
        last = None
        if tricks:
            last = {"taker": tricks[-1]["taker"], "plays": self.plays(tricks[-1]["plays"], names)}
        leader = view.get("leader")
        plays = self.plays(view.get("trick"), names)
        return {
            "number": len(tricks) + 1,
            "plays": plays,
            "spots": self.trick_spots(view, plays, names),
            "last": last,
            "tricks": tricks,
            "leader": seat_name(leader, names) if leader is not None else "",
        }

    def trick_spots(self, view: dict[str, Any], plays: list[dict[str, Any]], names: list[str]) -> list[dict[str, Any]]:
        """Every seat round the trick (``tables/_trick.html``): its place, its card if it played one (``plays``,
        in play order), whether it is to play; those who played first, in play order, then the others."""
        players, reader = len(names), view.get("seat")
        places, to_act = seat_places(players, reader), view.get("to_act") or ()
        raw = [p if isinstance(p, dict) else {} for p in view.get("trick") or []]
        spots: list[dict[str, Any]] = []
        seen: set[int] = set()
        for number, play in zip((p.get("seat") for p in raw), plays, strict=True):
            if isinstance(number, int) and 0 <= number < players and number not in seen:
                seen.add(number)
                spots.append({"number": number, "name": names[number], "play": play, "led": not spots})
        spots += [{"number": n, "name": names[n], "play": None, "led": False} for n in range(players) if n not in seen]
        for spot in spots:
            number = spot["number"]
            spot.update(place=places[number], me=number == reader, acting=number in to_act)
            # The spot's classes in one string: a class attribute of one variable renders faster than two ifs.
            spot["cls"] = (
                f"play spot at-{spot['place']}{' me' if spot['me'] else ''}{' acting' if spot['acting'] else ''}"
            )
        return spots


def _unique(choices: Any) -> list[dict[str, Any]]:
    seen: set[str] = set()
    result = []
    for choice in choices:
        if choice["label"] not in seen:
            seen.add(choice["label"])
            result.append(choice)
    return result
