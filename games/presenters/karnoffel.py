"""Karnoffel's table: the trump, the teams and the trick."""

from __future__ import annotations

from typing import Any

from games.presenters.base import Presenter


class KarnoffelPresenter(Presenter):
    board_template = "games/tables/karnoffel.html#board"
    details_template = "games/tables/karnoffel.html#details"

    def board(self, view: dict[str, Any], names: list[str]) -> dict[str, Any]:
        return {"trump": self.suit_name(view.get("trump") or ""), "trick": self.trick_board(view, names)}


PRESENTER = KarnoffelPresenter
