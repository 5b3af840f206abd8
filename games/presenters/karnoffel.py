"""Karnoffel's table: the trump, the teams and the trick."""

from __future__ import annotations

from typing import Any

from games.presenters.base import Presenter, seat_name


class KarnoffelPresenter(Presenter):
    board_template = "games/tables/karnoffel.html#board"
    details_template = "games/tables/karnoffel.html#details"
    score_heading = "Hands won"

    def team_names(self, outcome: dict[str, Any], names: list[str]) -> list[str]:
        """Partners sit across: seats 0 and 2, seats 1 and 3."""
        teams = [" & ".join(names[s] for s in team if s < len(names)) for team in self.engine.TEAMS]
        return [teams[self.engine.team_of(seat)] for seat in range(len(names))]

    def result_line(self, view: dict[str, Any], seat: int | None, names: list[str]) -> str:
        """A player wins or loses with their partner: the reader's team is named, not a place."""
        places = (view.get("outcome") or {}).get("places") or []
        if seat is not None and 0 <= seat < len(places):
            return "Your team won." if places[seat] == 1 else "Your team lost."
        return super().result_line(view, seat, names)

    def board(self, view: dict[str, Any], names: list[str]) -> dict[str, Any]:
        return {
            "trump": self.suit_name(view.get("trump") or ""),
            "trick": self.trick_board(view, names),
            "trump_order": self.trump_order(view.get("trump") or ""),
        }

    def trump_order(self, trump: str) -> list[str]:
        """The trumps from the highest, as cards of this hand's trump suit: the order that surprises newcomers.

        The 7 is left out: it is a trump only when led (then only the Jack beats it), which the table says in words.
        """
        if not trump:
            return []
        return [self.short_text(rank + trump) for rank in self.engine.TRUMP_ORDER if rank != "7"]

    # --- why it happened ---------------------------------------------------------

    def reason_text(self, reason: dict[str, Any], names: list[str]) -> str:
        kind = reason.get("kind")
        if kind == "trick":
            return self.trick_text(reason, names)
        team = self.team_name(reason.get("seats"), names)
        won = reason.get("hands_won") or []
        if kind == "hand" and len(reason.get("taken") or []) == 2 and len(won) == 2:
            taken, side = reason["taken"], reason.get("team")
            mine, theirs = (taken[1], taken[0]) if side == 1 else (taken[0], taken[1])
            return f"{team} won the hand: the first team to take three tricks wins it ({mine} tricks to {theirs})."
        if kind == "match" and len(won) == 2:
            mine, theirs = (won[1], won[0]) if reason.get("team") == 1 else (won[0], won[1])
            target = reason.get("target")
            return f"{team} won the match: the first team to win {hands(target)} ({hands(mine)} to {theirs})."
        return super().reason_text(reason, names)

    def team_name(self, seats: Any, names: list[str]) -> str:
        return " & ".join(seat_name(s, names) for s in seats) if isinstance(seats, list) else ""

    def trick_text(self, reason: dict[str, Any], names: list[str]) -> str:
        """Which card took the trick and the rule that made it win, naming the card it beat by that rule."""
        card, over = self.short_text(str(reason.get("card"))), self.short_text(str(reason.get("over")))
        led, trump = str(reason.get("led") or "  "), str(reason.get("trump") or "")
        head = f"{seat_name(reason.get('seat'), names)}'s {card} took the trick"
        why = TRICK_WHY.get(str(reason.get("rule")))
        if why is None:
            return head + "."
        led_suit = self.suit_name(led[1:2])
        return f"{head}: " + why.format(card=card, over=over, led_suit=led_suit, trump=self.suit_name(trump)) + "."

    def hand_summary(self, reason: dict[str, Any], names: list[str]) -> str:
        number, won = reason.get("hand_no"), reason.get("hands_won") or []
        if not isinstance(number, int) or len(won) != 2:
            return super().hand_summary(reason, names)
        teams = [self.team_name(list(team), names) for team in self.engine.TEAMS]
        return f"Hand {number + 1} is over. Hands won: {teams[0]} {won[0]}, {teams[1]} {won[1]}."

    def table_reasons(self, view: dict[str, Any], names: list[str]) -> list[str]:
        """The last trick of this hand; before a hand's first trick is complete, why the last hand went so; at the
        end of the match, its last trick, its last hand and the match."""
        tricks, trump = view.get("tricks") or [], view.get("trump") or ""
        result = []
        if tricks and len(tricks[-1].get("cards") or []) == self.engine.SEATS:
            reason = self.engine.trick_reason(tricks[-1]["cards"], trump, len(tricks))
            result.append(self.reason_text(reason, names))
        last, over = view.get("last_hand"), view.get("winner_team") is not None
        if (over or not tricks) and isinstance(last, dict) and "winner_team" in last:
            won = view.get("hands_won") or [0, 0]
            reason = self.engine.hand_reason(last["hand_no"], last["winner_team"], last["taken"], won)
            result.append(self.reason_text(reason, names))
            if over:
                reason = self.engine.match_reason(view["winner_team"], won, view.get("target"))
                result.append(self.reason_text(reason, names))
        return result


def hands(count: Any) -> str:
    return f"{count} hand{'' if count == 1 else 's'}"


# Each trick rule (``engine.karnoffel.TRICK_RULES``) in a player's words, after "X's card took the trick: ".
TRICK_WHY = {
    "led_seven": "a led 7 of trump beats every card but the Jack of trump, so the {over} lost to it",
    "led_three": "a led 3 of trump beats the King of trump, so the {over} lost to it",
    "led_four_or_five": "a led 4 or 5 of trump beats the King and the Queen of trump, so the {over} lost to it",
    "led_king": "a led King beats the 3, 4 and 5 of trump, so the {over} lost to it",
    "led_queen": "a led Queen beats the 4 and 5 of trump, so the {over} lost to it",
    "led_jack": "a led Jack beats the 5 of trump, so the {over} lost to it",
    "trump_order": "the trumps rank J 6 2 K 3 Q 4 5 10 9 8 ({trump}), so the {card} beat the {over}",
    "trump": "a trump ({trump}) beats any plain card, so the plain {over} lost to it",
    "first_seven": "both 7s count in the led suit ({led_suit}) and the {card} was played before the {over}",
    "seven_as_led_suit": "a 7 of trump that is not led is no trump but a 7 of the led suit ({led_suit}), "
    "and the higher of the {card} and the {over} won",
    "highest_of_led_suit": "no trump was played, so the highest card of the led suit ({led_suit}) won; "
    "the {over} could not beat it",
}


PRESENTER = KarnoffelPresenter
