"""Rapscallion's table: bidding cards by number, Rapscallions in their set's colour, the face-down card."""

from __future__ import annotations

from typing import Any, ClassVar

from games.presenters.base import Presenter, seat_name, seat_places


class RapscallionPresenter(Presenter):
    board_template = "games/tables/rapscallion.html#board"
    details_template = "games/tables/rapscallion.html#details"
    score_heading = "Points"
    result_template = "games/tables/rapscallion.html#showdown"
    own_card_sets: ClassVar[dict[str, str]] = {"bidding_cards": "Your bidding cards"}

    def result_details(self, outcome: dict[str, Any] | None, names: list[str]) -> dict[str, Any] | None:
        """The last hand's showdown: each player's best five, its category, the side bet and the points."""
        last = (outcome or {}).get("last_hand")
        if not isinstance(last, dict):
            return None
        winner = last.get("side_bet_winner")
        rows = [
            {
                "name": names[n] if n < len(names) else str(n),
                "five": list(s.get("five") or []),
                "category": s.get("category", ""),
                "side_bet": s.get("side_bet", ""),
                "side_bet_won": n == winner,
                "total": s.get("total", 0),
            }
            for n, s in enumerate(last.get("seats") or [])
            if isinstance(s, dict)
        ]
        hand = last.get("hand_no")
        return {"hand": hand + 1 if isinstance(hand, int) else "", "rows": rows}

    def is_back(self, code: str) -> bool:
        return code == self.engine.HIDDEN

    def short_text(self, code: str) -> str:
        """A bidding card's face is just its number."""
        return super().short_text(code).removesuffix(" (bidding card)")

    def card_class(self, code: str) -> str:
        if self.engine.is_rapscallion(code):  # a Rapscallion wears its set's colour
            return "colour-" + code.split("-")[1]
        return super().card_class(code)

    def special_label(self, kind: str, action: dict[str, Any], view: dict[str, Any]) -> str:
        card = action.get("card")
        text = self.short_text(card) if isinstance(card, str) else ""
        if kind == "side_bet":
            return f"Side bet: {text}"
        if kind == "take":
            return "Take the face-down card" if card == self.engine.HIDDEN else f"Take {text}"
        return super().special_label(kind, action, view)

    def group_label(self, kind: str) -> str:
        return "Side bet" if kind == "side_bet" else super().group_label(kind)

    def board(self, view: dict[str, Any], names: list[str]) -> dict[str, Any]:
        """Its templates read the view itself; the board adds each seat's place round the centre."""
        return {"places": seat_places(len(names), view.get("seat"))}

    # --- why it happened: the engine's reasons in a player's words ---------------------

    def reason_text(self, reason: dict[str, Any], names: list[str]) -> str:
        words = {
            "showdown": self.showdown_text,
            "best_hand": self.extreme_text,
            "worst_hand": self.extreme_text,
            "side_bet": self.side_bet_text,
            "bids": self.bids_text,
            "hand": self.hand_text,
            "match": self.match_text,
        }.get(str(reason.get("kind")))
        return words(reason, names) if words else super().reason_text(reason, names)

    def face(self, card: Any) -> str:
        """A card code as its label; a label already (a stored showdown keeps labels) as it is."""
        if isinstance(card, str) and self.card_text(card):
            return self.short_text(card)
        return str(card).removesuffix(" (bidding card)")

    def five_text(self, five: Any) -> str:
        return " ".join(self.face(c) for c in five or [])

    def showdown_text(self, reason: dict[str, Any], names: list[str]) -> str:
        """A hand's category and every item of its points: why two hands of one category score differently."""
        points, category = reason.get("points") or {}, str(reason.get("category", ""))
        items = [f"{points.get('hand', 0)} for {self.article(category)}"]
        if points.get("best"):
            items.append(f"+{points['best']} for the best hand")
        if points.get("worst"):
            items.append(f"{points['worst']} for the worst hand")
        if points.get("side_bet"):
            items.append(f"+{points['side_bet']} for winning the side bet")
        unused = reason.get("unused_rapscallions") or 0
        if points.get("rapscallions"):
            each = f" ({points['rapscallions'] // unused} each)" if unused > 1 else ""
            never = f"{unused} Rapscallion{'s' if unused != 1 else ''} never played"
            items.append(f"+{points['rapscallions']} for {never}{each}")
        who = seat_name(reason.get("seat"), names)
        five = self.five_text(reason.get("five"))
        return f"{who}'s {category} ({five}) scores {reason.get('total', 0)}: {', '.join(items)}."

    def article(self, category: str) -> str:
        if category in ("one pair", "two pair", "three of a kind", "four of a kind"):
            return category
        return ("an " if category[:1] in "aeiou" else "a ") + category

    def extreme_text(self, reason: dict[str, Any], names: list[str]) -> str:
        best = reason.get("kind") == "best_hand"
        who, other = seat_name(reason.get("seat"), names), seat_name(reason.get("other"), names)
        category, points = reason.get("category", ""), reason.get("points", 0)
        sign = "+" if isinstance(points, int) and points > 0 else ""
        if reason.get("rule") == "suit_tiebreak":
            why = (
                f"it ties {other}'s in rank and {'wins' if best else 'loses'} on the suits, highest card first "
                "(spades, hearts, diamonds, clubs)"
            )
        else:
            why = f"it ranks {'above' if best else 'below'} every other hand, {other}'s the nearest"
        five = self.five_text(reason.get("five"))
        return f"{who} had the {'best' if best else 'worst'} hand, {category} ({five}): {why}; {sign}{points}."

    def side_bet_text(self, reason: dict[str, Any], names: list[str]) -> str:
        who, card = seat_name(reason.get("seat"), names), self.face(reason.get("card"))
        text = {
            "lone_rapscallion": f"{who} won the side bet with a lone Rapscallion, which beats every number",
            "highest_number": f"{who}'s {card} was the highest card in the side bet",
            "rapscallions_cancel": f"The Rapscallions in the side bet cancelled, so {who}'s {card}, "
            "the highest number, won it",
        }.get(str(reason.get("rule")))
        if text is None:
            return "Every card in the side bet was a Rapscallion and they cancelled: nobody won it."
        return f"{text}: +{reason.get('points', 0)}."

    def bids_text(self, reason: dict[str, Any], names: list[str]) -> str:
        """Why the revealed bids set the taking order (or cancelled)."""
        rule = reason.get("rule")
        if rule == "rapscallions_cancel":
            seats = " & ".join(seat_name(s, names) for s in reason.get("seats") or [])
            return f"The Rapscallions of {seats} cancelled each other: they are used up, and those players bid again."
        who, card = seat_name(reason.get("seat"), names), self.face(reason.get("card"))
        text = {
            "lone_rapscallion": f"{who} chooses first: a lone Rapscallion beats every number",
            "highest_number": f"{who} chooses first with the highest bid, {card}",
            "highest_playing_card": f"{who} chooses first with the highest playing card bid, {card} (aces high)",
            "suit_breaks_tie": f"{who} chooses first with {card}: of two cards of one rank the higher suit wins "
            "(spades, hearts, diamonds, clubs)",
        }.get(str(rule), f"{who} chooses first")
        return text + "."

    def hand_text(self, reason: dict[str, Any], names: list[str]) -> str:
        scores = reason.get("scores") or []
        parts = ", ".join(f"{seat_name(s, names)} {points}" for s, points in enumerate(scores))
        return f"Each player's points for the hand are the sum of those items: {parts}."

    def match_text(self, reason: dict[str, Any], names: list[str]) -> str:
        places, scores = reason.get("places") or [], reason.get("scores") or []
        firsts = [s for s, place in enumerate(places) if place == 1 and s < len(scores)]
        if not firsts:
            return super().reason_text(reason, names)
        who = " & ".join(seat_name(s, names) for s in firsts)
        head = f"Someone reached {reason.get('target')} points, so the match is over"
        if reason.get("rule") == "last_hands_break_tie":
            return f"{head}: the highest totals tied at {scores[firsts[0]]}, and {who} won on the last hands' points."
        return f"{head}: {who} won with the highest total, {scores[firsts[0]]}."

    def table_reasons(self, view: dict[str, Any], names: list[str]) -> list[str]:
        """While cards are taken, why the bids set that order; before the next hand's first round, the
        last showdown item by item."""
        final = view.get("final")
        if view.get("phase") == "take" and view.get("order") and isinstance(final, list):
            order, rule = self.engine.taking_order(final)
            reason = {"kind": "bids", "rule": rule, "seat": order[0], "card": final[order[0]]}
            return [self.reason_text(reason, names)]
        last = view.get("last_hand")
        if not isinstance(last, dict) or (view.get("round") or 0) > 0:
            return []
        return [self.reason_text(r, names) for r in self.last_hand_reasons(last)]

    def last_hand_reasons(self, last: dict[str, Any]) -> list[dict[str, Any]]:
        """The showdown reasons again from the view's last hand (its cards as labels)."""
        rows = [row if isinstance(row, dict) else {} for row in last.get("seats") or []]
        each = self.engine.UNUSED_RAPSCALLION_POINTS
        found = [
            {
                "kind": "showdown",
                "seat": s,
                "category": row.get("category", ""),
                "five": row.get("five") or [],
                "points": row.get("points") or {},
                "total": row.get("total", 0),
                "unused_rapscallions": (row.get("points") or {}).get("rapscallions", 0) // each,
            }
            for s, row in enumerate(rows)
        ]
        decided = last.get("decided")
        if not isinstance(decided, dict):
            return found  # a showdown stored before the reasons
        for end, points in (("best", self.engine.BEST_HAND_POINTS), ("worst", self.engine.WORST_HAND_POINTS)):
            seat = decided.get(end)
            if isinstance(seat, int) and 0 <= seat < len(rows):
                other = decided.get("best_over" if end == "best" else "worst_under")
                row, rule = rows[seat], decided.get(f"{end}_rule")
                found.append(
                    {"kind": f"{end}_hand", "rule": rule, "seat": seat, "other": other, "points": points}
                    | {"category": row.get("category", ""), "five": row.get("five") or []}
                )
        winner = decided.get("side_bet_winner")
        card = rows[winner].get("side_bet") if isinstance(winner, int) and 0 <= winner < len(rows) else None
        side = {"kind": "side_bet", "rule": decided.get("side_bet_rule"), "seat": winner, "card": card}
        return [*found, side | {"points": self.engine.SIDE_BET_POINTS}]


PRESENTER = RapscallionPresenter
