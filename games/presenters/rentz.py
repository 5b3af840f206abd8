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

    # --- why it happened ---------------------------------------------------------

    def reason_text(self, reason: dict[str, Any], names: list[str]) -> str:
        kind, rule = reason.get("kind"), reason.get("rule")
        if kind == "trick" and rule == "highest_of_led_suit":
            return self.trick_text(reason, names)
        scores = reason.get("scores")
        if kind == "hand" and isinstance(scores, list) and len(scores) == len(names):
            if rule == "rentz":
                return self.layout_text(reason, names)
            if rule in HAND_WHY:
                return self.penalty_text(reason, names)
        if kind == "match" and isinstance(scores, list) and len(scores) == len(names):
            totals = ", ".join(f"{n} {p}" for n, p in zip(names, scores, strict=True))
            return f"After all 20 hands the highest total wins: {totals}."
        return super().reason_text(reason, names)

    def trick_text(self, reason: dict[str, Any], names: list[str]) -> str:
        led = str(reason.get("led") or "  ")
        head = f"{seat_name(reason.get('seat'), names)}'s {self.short_text(str(reason.get('card')))} took the trick"
        why = f"there are no trumps, so the highest card of the led suit ({self.suit_name(led[1:2])}) wins"
        off = [self.short_text(str(c)) for c in reason.get("off_suit") or []]
        if off:
            why += f"; {' and '.join(off)} did not follow suit, so could not win"
        return f"{head}: {why}."

    def penalty_text(self, reason: dict[str, Any], names: list[str]) -> str:
        """A trick-taking hand: the rule's price, who took how many, and why the hand ended."""
        game = str(reason.get("rule"))
        unit, counts, scores = reason.get("unit"), reason.get("counts") or [], reason["scores"]
        if game == "king_of_hearts":
            taker = next((n for n, c in zip(names, counts, strict=False) if c), "")
            text = f"King of Hearts: {taker} took the K♥ and scores {unit}; the others score 0"
        else:
            what = HAND_WHY[game]
            parts = [
                f"{name} took {count} ({score})"
                for name, count, score in zip(names, counts, scores, strict=False)
                if count
            ]
            text = f"{self.mini_title(game)}: {unit} for each {what} taken; " + (", ".join(parts) or "none taken")
        ended = HAND_ENDS.get(str(reason.get("ended")), "")
        return f"{text}{'; ' + ended if ended else ''}."

    def layout_text(self, reason: dict[str, Any], names: list[str]) -> str:
        order, unit, scores = reason.get("order") or [], reason.get("unit") or [], reason["scores"]
        places = [
            f"{ordinal(n)} {seat_name(seat, names)} ({scores[seat] if isinstance(seat, int) and seat < len(scores) else ''})"
            for n, seat in enumerate(order, start=1)
        ]
        bonuses = "/".join(str(u) for u in unit)
        return f"Rentz: going out first to last scores {bonuses}, the last seat is the one left holding cards: " + (
            ", ".join(places) + "."
        )

    def hand_summary(self, reason: dict[str, Any], names: list[str]) -> str:
        number, scores = reason.get("hand_no"), reason.get("scores")
        if not isinstance(number, int) or not isinstance(scores, list) or len(scores) != len(names):
            return super().hand_summary(reason, names)
        dealer = seat_name(reason.get("dealer"), names)
        points = ", ".join(f"{n} {p}" for n, p in zip(names, scores, strict=True))
        game = self.mini_title(reason.get("game"))
        return f"End of hand {number + 1} of {self.engine.TOTAL_HANDS} ({game}, dealt by {dealer}): {points}."

    def table_reasons(self, view: dict[str, Any], names: list[str]) -> list[str]:
        """The last trick of this hand; before it (and in the layout game), why the last hand scored as it did; at
        the end of the match, the last trick, the last hand and the match."""
        tricks, over = view.get("tricks") or [], view.get("phase") == "over"
        result = []
        if tricks and len(tricks[-1].get("cards") or []) == self.engine.SEATS:
            last = tricks[-1]
            result.append(self.reason_text(self.engine.trick_reason(last["leader"], last["cards"], len(tricks)), names))
        if (over or not tricks) and isinstance(view.get("last_hand_reason"), dict):
            result.append(self.reason_text(view["last_hand_reason"], names))
        if over and isinstance(view.get("scores"), list):
            result.append(self.reason_text(self.engine.match_reason(view["scores"]), names))
        return result


# What a penalty is counted in, per trick-taking mini-game (``engine.rentz.HAND_RULES``).
HAND_WHY = {"acool": "trick", "diamonds": "diamond", "queens": "queen", "king_of_hearts": "K♥"}
# Why a trick-taking hand ended before the thirteenth trick (``engine.rentz.HAND_ENDS``).
HAND_ENDS = {
    "king_taken": "the hand ends with the trick that takes the K♥",
    "all_penalties": "the hand stopped once every penalty card was taken",
}


PRESENTER = RentzPresenter
