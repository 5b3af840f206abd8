"""Renfield's table: money and bugs, its own suits, and the words of each variant's moves."""

from __future__ import annotations

from typing import Any

from games.presenters.base import Presenter, money_text, seat_name

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
            "seats": self.seat_rows(view, names),
        }

    def seat_rows(self, view: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
        """The details' table, a row per seat: money (the template's ``money`` partial marks a debt), bugs, the
        cards taken face up, the cards in hand and those shown face up, and whether the seat folded this hand
        or is out of the match."""

        def at(key: str, n: int) -> Any:
            values = view.get(key)
            return values[n] if isinstance(values, list) and n < len(values) else ""

        rows = []
        for n, amount in enumerate(view.get("money") or []):
            rows.append(
                {
                    "name": seat_name(n, names),
                    "amount": amount,
                    "folded": not at("in", n),
                    "out": bool(at("out", n)),
                    "bugs": at("bugs", n),
                    "taken": self.cards(at("taken", n) or None),
                    "hand": at("hand_sizes", n),
                    "shown": self.cards(at("shown", n) or None),
                }
            )
        return rows

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

    # --- why it happened: the engine's reasons in a player's words ---------------------

    def reason_text(self, reason: dict[str, Any], names: list[str]) -> str:
        kind = reason.get("kind")
        words = {
            "trick": self.trick_text,
            "hand": self.hand_text,
            "folded": self.folded_text,
            "sat_out": self.sat_out_text,
            "bought_out": self.bought_out_text,
            "match": self.match_text,
        }.get(str(kind))
        return words(reason, names) if words else super().reason_text(reason, names)

    def trick_text(self, reason: dict[str, Any], names: list[str]) -> str:
        """Which card took the trick, by which rule, and what its taker paid for it."""
        who = seat_name(reason.get("seat"), names)
        card = self.short_text(str(reason.get("card", "")))
        if "as_suit" in reason:
            card += f" (played as {self.suit_name(str(reason['as_suit']))} {reason.get('as_rank')})"
        if reason.get("rule") == "death_card":
            death = ", ".join(self.short_text(str(c)) for c in reason.get("death") or [])
            return (
                f"Nobody took the trick: it held the Death card {death}, so its cards leave the game and "
                f"{who}, whose {card} would have taken it, leads next."
            )
        why = TRICK_WHY.get(str(reason.get("rule")), "")
        led = self.suit_name(str(reason.get("led_suit", "")))
        suit = self.suit_name(str(reason.get("as_suit") or str(reason.get("card", ""))[:1]))
        why = why.format(who=who, led=led, suit=suit, order=self.suit_order(reason.get("order") or []))
        return f"{who}'s {card} took the trick{': ' + why if why else ''}; {self.trick_cost(reason)}."

    def trick_cost(self, reason: dict[str, Any]) -> str:
        price, doublers, bugs = reason.get("price", 0), reason.get("doublers", 0), reason.get("bugs", 0)
        doubled = f" (doubled by {'the 2' if doublers == 1 else f'{doublers} 2s'})" if doublers else ""
        return f"it cost ${price}{doubled} and {self.bugs_text(bugs)}"

    def bugs_text(self, bugs: Any) -> str:
        return f"{bugs} bug{'s' if bugs != 1 else ''}"

    def hand_text(self, reason: dict[str, Any], names: list[str]) -> str:
        """Who won the pot (or why nobody did), by which rule, and with how many bugs."""
        rule, bugs = reason.get("rule"), reason.get("bugs") or []
        winners = [w for w in reason.get("winners") or [] if isinstance(w, int) and 0 <= w < len(bugs)]
        pot, share, left = reason.get("pot", 0), reason.get("share", 0), reason.get("left_in_pot", 0)
        bidder = reason.get("bidder")
        bidder = winners[0] if winners and rule == "blaze_made" else bidder
        taken = self.bugs_text(bugs[bidder]) if isinstance(bidder, int) and 0 <= bidder < len(bugs) else ""
        names_of = " & ".join(seat_name(w, names) for w in winners)
        low = self.bugs_text(bugs[winners[0]]) + self.doubled_note(reason, winners[0]) if winners else ""
        text = {
            "fewest_bugs": f"{names_of} won the ${pot} pot with {low}, the fewest of the players still in "
            "with at least one bug",
            "split_pot": f"{names_of} tied with the fewest bugs ({low}) and split the ${pot} pot, ${share} each; "
            f"${left} stays in the pot",
            "no_bugs": f"Nobody still in the hand took a bug, so nobody won it and the ${pot} pot stays",
            "blaze_made": f"{seat_name(bidder, names)} bid {self.bugs_text(reason.get('bid'))} and took {taken}, "
            f"so they won the ${pot} pot and everyone is dealt in again",
            "blaze_failed": f"{seat_name(bidder, names)} bid {self.bugs_text(reason.get('bid'))} but did not take "
            f"that many while still in ({taken}), so they matched the pot: it holds ${left} now, and who folded "
            "sits out until someone wins it",
        }.get(str(rule))
        return text + "." if text else super().reason_text(reason, names)

    def doubled_note(self, reason: dict[str, Any], seat: int) -> str:
        doubled = reason.get("doubled") or []
        k = doubled[seat] if seat < len(doubled) else 0
        return f" (doubled by {'a 12' if k == 1 else f'{k} 12s'})" if k else ""

    def folded_text(self, reason: dict[str, Any], names: list[str]) -> str:
        who, score = seat_name(reason.get("seat"), names), reason.get("score")
        result = f": {money_text(score)} for the hand" if isinstance(score, int) else ""
        later = "; in Blaze they sit out until someone wins the pot" if reason.get("sits_out_next") else ""
        return f"{who} folded and could not win the pot{result}{later}."

    def sat_out_text(self, reason: dict[str, Any], names: list[str]) -> str:
        return (
            f"{seat_name(reason.get('seat'), names)} sat the hand out: they folded in a Blaze hand that failed, "
            "and sit out until someone wins the pot."
        )

    def bought_out_text(self, reason: dict[str, Any], names: list[str]) -> str:
        cards = ", ".join(self.short_text(str(c)) for c in reason.get("cards") or [])
        return (
            f"{seat_name(reason.get('seat'), names)} had no bugs and bought out of the trick: "
            f"paid ${reason.get('price', 0)} for the cards in it ({cards}) and folded."
        )

    def match_text(self, reason: dict[str, Any], names: list[str]) -> str:
        places, scores = reason.get("places") or [], reason.get("scores") or []
        firsts = [seat for seat, place in enumerate(places) if place == 1 and seat < len(scores)]
        if not firsts:
            return super().reason_text(reason, names)
        who = " & ".join(seat_name(s, names) for s in firsts)
        return (
            f"The match is over after {reason.get('hands')} hands and places go by money: "
            f"{who} finished first, {money_text(scores[firsts[0]])} on the stake."
        )

    def table_reasons(self, view: dict[str, Any], names: list[str]) -> list[str]:
        """The last trick of this hand; before a hand's first trick (or once the match is over), why the
        last hand paid what it did, and how the match ended."""
        tricks, over = view.get("tricks") or [], bool(view.get("over"))
        reason = (tricks[-1] if tricks and isinstance(tricks[-1], dict) else {}).get("reason")
        lines = [self.reason_text(reason, names)] if isinstance(reason, dict) else []
        history = view.get("history") or []
        last = history[-1] if history and isinstance(history[-1], dict) else {}
        if (tricks and not over) or not isinstance(last.get("reason"), dict):
            return lines
        lines += self.hand_lines(last["reason"], names)
        if over:
            lines.append(self.reason_text(self.engine.match_reason(view), names))
        return lines

    def hand_lines(self, reason: dict[str, Any], names: list[str]) -> list[str]:
        """A finished hand's reason, then a line for each seat that folded or sat it out."""
        lines = [self.reason_text(reason, names)]
        scores, blaze_failed = reason.get("scores") or [], reason.get("rule") == "blaze_failed"
        for seat in reason.get("folded") or []:
            score = scores[seat] if isinstance(seat, int) and seat < len(scores) else None
            folded = {"kind": "folded", "seat": seat, "score": score, "sits_out_next": blaze_failed}
            lines.append(self.reason_text(folded, names))
        lines += [self.reason_text({"kind": "sat_out", "seat": s}, names) for s in reason.get("sat_out") or []]
        return lines


# Each trick rule (``engine.renfield.trick_decision``) in a player's words, after "X's card took the trick: ".
TRICK_WHY = {
    "higher_suit": "{suit} ranks above the led suit ({led}) in the order {order}, so it beats every {led} card",
    "highest_of_led_suit": "no card of a higher suit than the led {led} was played (order {order}), "
    "so the highest {led} card won",
    "equal_card_earlier": "it equals a card played after it, and of two equal cards the earlier one wins",
    "highest_rank": "in Flatline only rank counts, so the highest rank won",
    "equal_rank_later": "in Flatline only rank counts, and a tie goes to the card played later",
    "zero_led": "a zero was led, so {led} was high for this trick and its highest card won",
    "last_seat_in": "{who} is the last player still in and takes the rest of the tricks alone",
}


PRESENTER = RenfieldPresenter
