"""Rentz's table: the five mini-games by name and the Rentz layout, row by row."""

from __future__ import annotations

from typing import Any

from games.presenters.base import Presenter, ordinal, seat_name


class RentzPresenter(Presenter):
    board_template = "games/tables/rentz.html#board"
    details_template = "games/tables/rentz.html#details"
    score_heading = "Points"

    def mini_title(self, key: str | None) -> str:
        return self.engine.MINI_TITLES.get(key, str(key).replace("_", " ").capitalize()) if key else ""

    def hand_title(self, view: dict[str, Any]) -> str:
        """Which of the five games this hand is."""
        return self.mini_title(view.get("game"))

    def special_label(self, kind: str, action: dict[str, Any], view: dict[str, Any]) -> str:
        if kind == "choose":
            return self.mini_title(action.get("game"))
        return super().special_label(kind, action, view)

    def group_label(self, kind: str) -> str:
        return "Choose the game" if kind == "choose" else super().group_label(kind)

    def group_heading(self, kind: str, choices: list[dict[str, Any]]) -> bool:
        return kind == "choose" or super().group_heading(kind, choices)

    def layout_row(self, row: dict[str, str] | None) -> list[str]:
        """A layout row ``{"low": "9H", "high": "QH"}`` as every card laid in it, low to high."""
        if not row:
            return []
        ranks = self.engine.RANKS
        low, high, suit = ranks.index(row["low"][0]), ranks.index(row["high"][0]), row["low"][1]
        return [ranks[r] + suit for r in range(low, high + 1)]

    def rules_line(self, view: dict[str, Any]) -> str:
        points = (view.get("options") or {}).get("points")
        if not points:
            return ""
        parts = [f"{self.mini_title(k)} {v}" for k, v in points.items() if k != "rentz"]
        parts.append("Rentz " + "/".join(str(p) for p in points.get("rentz", [])))
        return "Points: " + " · ".join(parts)

    def board(self, view: dict[str, Any], names: list[str]) -> dict[str, Any]:
        layout = [
            {"suit": suit, "name": self.suit_name(suit), "cards": self.cards(self.layout_row(row))}
            for suit, row in (view.get("layout") or {}).items()
        ]
        history = [
            {**h, "title": self.mini_title(h.get("game")), "dealer_name": seat_name(h.get("dealer"), names)}
            for h in reversed(view.get("history") or [])
        ]
        return {
            "title": self.hand_title(view),
            "layout": layout,
            "out": [f"{ordinal(n)} {seat_name(s, names)}" for n, s in enumerate(view.get("out") or [], start=1)],
            "remaining": [self.mini_title(g) for g in view.get("remaining") or []],
            "history": history,
            "rules": self.rules_line(view),
            "trick": self.trick_board(view, names),
        }


PRESENTER = RentzPresenter
