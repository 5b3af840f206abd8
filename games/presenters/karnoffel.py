"""Karnoffel's table: the trump, the teams and the trick."""

from __future__ import annotations

from typing import Any

from games.presenters.base import Presenter


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


PRESENTER = KarnoffelPresenter
