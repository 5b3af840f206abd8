"""Rapscallion's table: bidding cards by number, Rapscallions in their set's colour, the face-down card."""

from __future__ import annotations

from typing import Any, ClassVar

from games.presenters.base import Presenter


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
        return {}  # its templates read the view itself


PRESENTER = RapscallionPresenter
