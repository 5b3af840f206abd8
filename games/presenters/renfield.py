"""Renfield's table: money and bugs, its own suits, and the words of each variant's moves."""

from __future__ import annotations

from typing import Any

from games.presenters.base import Presenter, seat_name

VARIANTS = (
    "auction",
    "blaze",
    "death_card",
    "draw",
    "flatline",
    "stud",
    "wild_cards",
    "breathing_room",
    "buying_the_trick",
)
WORDS = {
    "check": "Check",
    "fold": "Fold",
    "pass": "Pass",
    "draw": "Done: draw new cards",
    "buy": "Buy out of the trick",
}


class RenfieldPresenter(Presenter):
    board_template = "games/tables/renfield.html#board"
    details_template = "games/tables/renfield.html#details"
    reference_template = "games/tables/renfield.html#card-values"
    scores_are_money = True
    score_heading = "Won or lost"

    def suit_name(self, suit: str) -> str:
        return self.engine.SUIT_NAMES.get(suit, suit)

    def suit_order(self, suits: list[str]) -> str:
        """``["T", "S", "P"]`` -> ``Tools > Stones > Parts`` (highest first)."""
        return " > ".join(self.suit_name(s) for s in suits or [])

    # --- moves ----------------------------------------------------------------

    def special_label(self, kind: str, action: dict[str, Any], view: dict[str, Any]) -> str:
        if kind == "bid" and "amount" in action:
            return self._amount(action["amount"], view)
        if kind == "order":
            return self.suit_order(action["suits"])
        if kind == "play" and "suit" in action:
            return f"as {self.suit_name(action['suit'])} {action['rank']}"
        return super().special_label(kind, action, view) or self._betting_label(kind, view)

    def _amount(self, amount: int, view: dict[str, Any]) -> str:
        if view.get("phase") == "bidding" and (view.get("options") or {}).get("blaze"):
            return f"{amount} bug{'s' if amount != 1 else ''}"
        return f"${amount}"

    def _betting_label(self, kind: str, view: dict[str, Any]) -> str:
        """Draw's betting moves say how much they cost; the rest are plain words."""
        betting, step = view.get("betting") or {}, (view.get("options") or {}).get("draw_bet", 0)
        bet, put, seat = betting.get("bet", 0), betting.get("put") or [], view.get("seat") or 0
        owed = bet - put[seat] if seat < len(put) else bet
        costs = {"bet": f"Bet ${step}", "raise": f"Raise to ${bet + step}", "call": f"Call ${max(owed, 0)}"}
        return costs.get(kind) or WORDS.get(kind, "")

    def group_key(self, action: dict[str, Any]) -> str:
        if action.get("type") == "play" and "suit" in action:
            return "wild:" + action["card"]  # a wild card: one select of what it is played as
        return super().group_key(action)

    def _group(self, kind: str, actions: list[dict[str, Any]], view: dict[str, Any], hand: set[str]) -> dict[str, Any]:
        group = super()._group(kind, actions, view, hand)
        if kind.startswith("wild:"):
            card = kind.removeprefix("wild:")
            label = f"Play {self.card_text(card)}"
            group.update(
                type="wild", card=card, widget="select", label=f"{label} (wild)", button="Play it", heading=False
            )
        return group

    def group_label(self, kind: str) -> str:
        return "Suit order, highest first" if kind == "order" else super().group_label(kind)

    def group_widget(self, kind: str, choices: list[dict[str, Any]]) -> str:
        return "select" if kind == "order" else super().group_widget(kind, choices)

    def select_button(self, kind: str, label: str) -> str:
        return "Set the order" if kind == "order" else label

    def play_note(self, play: dict[str, Any]) -> str:
        suit = play.get("suit")
        return f"as {self.suit_name(suit)} {play.get('rank', '')}" if suit else ""

    # --- the board ---------------------------------------------------------------

    def rules_line(self, view: dict[str, Any]) -> str:
        """The few options a player needs while playing, in one line; the option keys themselves stay out."""
        options = view.get("options") or {}
        labels = {o["name"]: o["label"] for o in self.engine.OPTIONS}
        parts = [f"stake ${options.get('stake', 0)}"]
        for name in VARIANTS:
            if options.get(name):
                parts.append(labels.get(name, name) + self._variant_detail(name, options))
        return " · ".join(parts)

    def _variant_detail(self, name: str, options: dict[str, Any]) -> str:
        if name == "death_card":
            any_time = ", any time" if options.get("death_all_suits") else ""
            return f" ({', '.join(options.get('death_cards') or [])}{any_time})"
        if name == "wild_cards":
            return f" ({', '.join(options.get('wilds') or [])})"
        if name == "draw":
            return f" (bets ${options.get('draw_bet')})"
        if name == "flatline" and options.get("flatline_zeroes"):
            return " (zeroes shuffled in)"
        return ""

    def board(self, view: dict[str, Any], names: list[str]) -> dict[str, Any]:
        history = [
            {**h, "winner_names": " & ".join(seat_name(s, names) for s in h.get("winners") or [])}
            for h in view.get("history") or []
        ]
        trick = self.trick_board(view, names)
        table = view.get("table") or {}
        for play in [*trick["plays"], *((trick["last"] or {}).get("plays") or [])]:
            worth = self.card_worth(play["card"].get("code", ""), table)
            play["note"] = f"{play['note']} · {worth}" if play["note"] and worth else play["note"] or worth
        return {
            "suit_order": self.suit_order(view.get("order") or []),
            "rules": self.rules_line(view),
            "trick": trick,
            "history": history,
            "has_values": bool(self.valued_suits(table)),
        }

    def reference(self, view: dict[str, Any]) -> dict[str, Any] | None:
        return self.value_rows(view.get("table") or {})

    def card_worth(self, code: str, table: dict[str, Any]) -> str:
        """What a card costs the one who takes it: "2 bugs, $1" (key cards and unknown codes: nothing)."""
        row = table.get(code[:1]) if code else None
        rank = int(code[1:]) if code[1:].isdigit() else 0
        if not isinstance(row, dict) or not 1 <= rank < len(row.get("bugs") or []):
            return ""
        bugs, dollars = row["bugs"][rank], row["dollars"][rank]
        return f"{bugs} bug{'s' if bugs != 1 else ''}, ${dollars}"

    def valued_suits(self, table: dict[str, Any]) -> list[str]:
        """The suits the view's value table prices, in the deck's order."""
        return [s for s in self.engine.SUITS if isinstance(table.get(s), dict)]

    def value_rows(self, table: dict[str, Any]) -> dict[str, Any]:
        """The deck's printed values by rank: one column pair when every suit has the same, else one per suit."""
        suits = self.valued_suits(table)
        if not suits:
            return {"suits": [], "rows": []}
        same = all(table[s] == table[suits[0]] for s in suits)
        shown = suits[:1] if same else suits
        rows = [
            {"rank": rank, "cells": [(table[s]["bugs"][rank], table[s]["dollars"][rank]) for s in shown]}
            for rank in range(1, len(table[suits[0]]["bugs"]))
        ]
        return {"suits": [] if same else [self.suit_name(s) for s in shown], "rows": rows}


PRESENTER = RenfieldPresenter
