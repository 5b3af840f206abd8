"""Forms: the lobby's form is built from the game's option schema; the engine validates it."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from django import forms

from engine import GAMES, Game, rapscallion, renfield, rentz
from engine.bots import LEVELS
from games.clocks import (
    CAP_BELOW_INITIAL,
    CAP_TOO_LONG,
    CUSTOM_HOURS,
    HOURS_NOT_NUMBERS,
    INCREMENT_OUT_OF_RANGE,
    INITIAL_OUT_OF_RANGE,
    PRESETS,
    TimeControl,
    time_control_from_form,
)
from games.models import SeatSpec
from games.presenters import ordinal, presenter_for

SEAT_KINDS = [("bot", "A bot"), ("email", "Invite by email")]


def game_choices() -> list[tuple[str, str]]:
    return [(name, getattr(module, "TITLE", name.title())) for name, module in sorted(GAMES.items())]


# No option or move needs more nesting than this; deeper input is crafted (and json.loads itself
# raises RecursionError, not a JSONDecodeError, at about a thousand levels).
MAX_JSON_DEPTH = 20


class TooDeep(Exception):
    """JSON nested deeper than any option or move needs."""


def json_loads_shallow(text: str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``json.loads`` that refuses nesting beyond ``max_depth`` before parsing (ValueError for bad JSON)."""
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            escaped, in_string = (False, True) if escaped else (char == "\\", char != '"')
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > max_depth:
                raise TooDeep
        elif char in "]}":
            depth -= 1
    return json.loads(text)


class GameChoiceForm(forms.Form):
    game = forms.ChoiceField(choices=game_choices)


# --- the new-match form ---------------------------------------------------------


@dataclass(frozen=True)
class NumberTable:
    """A table of number inputs, one cell per value: ``rows`` holds ``(label, ((cell, default), ...))``.

    A cell whose default is None may be left empty ("as the table above"). ``folded`` tables are drawn inside a
    closed disclosure (a details element, in the template): what few players change.
    """

    caption: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[tuple[str, int | None], ...]], ...]
    low: int
    high: int
    folded: bool = False


@dataclass(frozen=True)
class NumberOption:
    """A structured (JSON) option entered as one or more tables of numbers and assembled server-side.

    ``assemble`` turns ``{cell: number or None}`` into the option's value.
    """

    tables: tuple[NumberTable, ...]
    assemble: Callable[[dict[str, int | None]], Any]
    note: str = ""  # what the engine checks across cells, said before anyone is refused for it

    @property
    def defaults(self) -> dict[str, int | None]:
        return {cell: default for table in self.tables for _label, cells in table.rows for cell, default in cells}


def _rentz_points() -> NumberOption:
    points = rentz.DEFAULT_POINTS
    penalties: tuple[tuple[str, str], ...] = (("acool", "Acool, per trick"), ("diamonds", "Diamonds, per diamond"))
    penalties += (("queens", "Queens, per queen"), ("king_of_hearts", "King of Hearts"))
    rows: list[tuple[str, tuple[tuple[str, int | None], ...]]] = [
        (label, ((key, points[key]),)) for key, label in penalties
    ]
    rows += [(f"Rentz, {ordinal(n + 1)} out", ((f"rentz_{n + 1}", bonus),)) for n, bonus in enumerate(points["rentz"])]

    def assemble(cells: dict[str, int | None]) -> dict[str, Any]:
        value: dict[str, Any] = {key: cells[key] for key, _label in penalties}
        value["rentz"] = [cells[f"rentz_{n}"] for n in range(1, rentz.SEATS + 1)]
        return value

    table = NumberTable("Point values", ("Points",), tuple(rows), -rentz.POINT_LIMIT, rentz.POINT_LIMIT)
    note = "Penalties are zero or negative; the Rentz bonuses go from first out to last and never grow."
    return NumberOption((table,), assemble, note)


def _renfield_values() -> NumberOption:
    ranks = range(1, renfield.TOP_RANK + 1)
    every = tuple(
        (str(rank), ((f"bugs_{rank}", bugs), (f"dollars_{rank}", dollars)))
        for rank, bugs, dollars in zip(ranks, renfield.DEFAULT_BUGS, renfield.DEFAULT_DOLLARS, strict=True)
    )
    # A printed deck whose suits differ: a cell left empty is the value of the table above.
    by_suit = tuple(
        (str(rank), tuple((f"{suit}_{kind}_{rank}", None) for suit in renfield.SUITS for kind in ("bugs", "dollars")))
        for rank in ranks
    )
    suit_columns = tuple(f"{renfield.SUIT_NAMES[s]} {kind}" for s in renfield.SUITS for kind in ("bugs", "dollars"))

    def row(cells: dict[str, int | None], suit: str) -> dict[str, list[int | None]]:
        def value(kind: str, rank: int) -> int | None:
            own = cells.get(f"{suit}_{kind}_{rank}") if suit else None
            return own if own is not None else cells[f"{kind}_{rank}"]

        return {kind: [value(kind, r) for r in ranks] for kind in ("bugs", "dollars")}

    def assemble(cells: dict[str, int | None]) -> dict[str, Any]:
        per_suit = {suit: row(cells, suit) for suit in renfield.SUITS}
        first = per_suit[renfield.SUITS[0]]
        return first if all(per_suit[suit] == first for suit in renfield.SUITS) else per_suit

    limit = renfield.VALUE_LIMIT
    return NumberOption(
        (
            NumberTable("Card values, the same in every suit", ("Rank", "Bugs", "Dollars"), every, 0, limit),
            NumberTable(
                "Values that differ by suit (an empty box keeps the value above)",
                ("Rank", *suit_columns),
                by_suit,
                0,
                limit,
                folded=True,
            ),
        ),
        assemble,
        f"Whole numbers from 0 to {limit}. The 2s double the money and the 12s the bugs, whatever their values.",
    )


def _rapscallion_values() -> NumberOption:
    default = rapscallion.DEFAULT_VALUES
    colours = tuple(
        (colour.title(), tuple((f"{colour}_{n + 1}", v) for n, v in enumerate(default["colours"][colour])))
        for colour in rapscallion.COLOURS
    )
    general = tuple((f"Card {n + 1}", ((f"general_{n + 1}", v),)) for n, v in enumerate(default["general"]))

    def assemble(cells: dict[str, int | None]) -> dict[str, Any]:
        return {
            "colours": {c: [cells[f"{c}_{n}"] for n in (1, 2, 3)] for c in rapscallion.COLOURS},
            "general": [cells[f"general_{n}"] for n in range(1, len(general) + 1)],
        }

    high = rapscallion.MAX_BID_VALUE
    return NumberOption(
        (
            NumberTable("Colour sets", ("Colour", "First card", "Second card", "Third card"), colours, 1, high),
            NumberTable("General deck", ("Card", "Value"), general, 1, high, folded=True),
        ),
        assemble,
        f"Whole numbers from 1 to {high}, all different, so that two number bids never tie.",
    )


# Every structured (JSON) option of every game, as tables of numbers: no option is a box of JSON.
# tests/games/test_option_widgets.py fails when a game gains a JSON option without an entry here.
NUMBER_OPTIONS: dict[tuple[str, str], Callable[[], NumberOption]] = {
    ("rentz", "points"): _rentz_points,
    ("renfield", "deck_values"): _renfield_values,
    ("rapscallion", "bidding_values"): _rapscallion_values,
}
CUSTOM_CLOCK = "custom"
OPTION_PREFIX = "opt_"
CLOCK_FIELDS = ("tc_initial", "tc_increment", "tc_cap")
# What each custom clock field says below its least and past its most; the bounds are ``CUSTOM_HOURS``.
CLOCK_BOUND_ERRORS = {
    "initial": (INITIAL_OUT_OF_RANGE, INITIAL_OUT_OF_RANGE),
    "increment": (INCREMENT_OUT_OF_RANGE, INCREMENT_OUT_OF_RANGE),
    "cap": (CAP_BELOW_INITIAL, CAP_TOO_LONG),
}


def clock_field(part: str, label: str, *, admit: float | None = None) -> forms.FloatField:
    """One of a custom clock's hours ("initial", "increment", "cap"), bounded as ``time_control_from_form`` is.

    Django puts the bounds on the input too (``min``, ``max``, and ``step="any"``: any fraction of an hour
    is taken and rounded to whole seconds), so the browser refuses what the server would. ``admit`` widens
    them to a value stored before (a league's clock set outside these limits is kept when left alone).
    """
    low, high = CUSTOM_HOURS[part]
    if admit is not None and math.isfinite(admit):
        low, high = min(low, admit), max(high, admit)
    below, above = CLOCK_BOUND_ERRORS[part]
    return forms.FloatField(
        required=False,
        min_value=low,
        max_value=high,
        label=label,
        error_messages={"invalid": HOURS_NOT_NUMBERS, "min_value": below, "max_value": above},
    )


def clock_errors_forget_unless_custom(form: forms.Form, data: dict[str, Any]) -> None:
    """The custom hours are read only for a custom clock: left in the fields under a preset, they refuse nothing."""
    if (data.get("time_control") or "none") != CUSTOM_CLOCK:
        for name in CLOCK_FIELDS:
            form.errors.pop(name, None)


def _option_field(entry: dict[str, Any], game_name: str) -> forms.Field | None:
    """A field for a number, a switch, a choice or cards; None for a structured option (``NUMBER_OPTIONS``)."""
    kind, default = entry["type"], entry.get("default")
    common = {"label": entry.get("label", entry["name"]), "help_text": entry.get("help", ""), "required": False}
    if kind == "int":
        return forms.IntegerField(min_value=entry.get("min"), max_value=entry.get("max"), initial=default, **common)
    if kind == "bool":
        return forms.BooleanField(initial=bool(default), **common)
    if kind == "choice":
        return forms.TypedChoiceField(
            choices=[(str(c), str(c)) for c in entry["choices"]],
            initial=default,
            coerce=_coercer(entry["choices"]),
            **common,
        )
    if kind == "cards":
        choices = entry.get("choices")
        if choices:
            labelled = [(c, presenter_for(game_name).card_text(c) or c) for c in choices]
            return forms.MultipleChoiceField(
                choices=labelled, initial=default or [], widget=forms.CheckboxSelectMultiple, **common
            )
        return forms.CharField(initial=" ".join(default or []), **common)
    return None


def _coercer(choices: list[Any]) -> Any:
    by_text = {str(c): c for c in choices}
    return lambda text: by_text.get(text, text)


def _card_grid(field: forms.BoundField) -> list[dict[str, Any]]:
    """A cards option's checkboxes in rows by suit ("Tools 12" -> row Tools, cell 12; "10♥" -> row ♥, cell 10)."""
    rows: dict[str, list[dict[str, Any]]] = {}
    for box in field.subwidgets:
        label = str(box.choice_label)
        suit, rank = label.split(" ", 1) if " " in label else (label[-1:], label[:-1])
        rows.setdefault(suit, []).append({"box": box, "rank": rank, "label": label})
    return [{"suit": suit, "cells": cells} for suit, cells in rows.items()]


class MatchCreateForm(forms.Form):
    """The game, players, options, clock and who sits where; seat 1 is the creator.

    The post names its game, and options that are not that game's are refused: a page that showed one
    game's options must not create another game.
    """

    players = forms.IntegerField()
    private = forms.BooleanField(required=False, help_text="Only the seated players may watch.")
    time_control = forms.ChoiceField(
        choices=[*((key, label) for key, (label, _tc) in PRESETS.items()), (CUSTOM_CLOCK, "Custom (hours below)")],
        initial="none",
        label="Time control",
        required=False,
    )
    tc_initial = clock_field("initial", "Starting time (hours)")
    tc_increment = clock_field("increment", "Added per move (hours)")
    tc_cap = clock_field("cap", "Most time saved up (hours)")

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        # Added here, not declared: ``self.game`` is the game module. Optional for old pages that named the game
        # only in the address; the view reads the post's game first.
        self.fields["game"] = forms.ChoiceField(choices=game_choices, label="Game", required=False, initial=game.NAME)
        self.order_fields(["game"])
        players = cast(forms.IntegerField, self.fields["players"])
        players.min_value, players.max_value = game.MIN_PLAYERS, game.MAX_PLAYERS
        players.initial = game.MIN_PLAYERS
        if self.fixed_size:
            players.widget = forms.HiddenInput()
        players.widget.attrs.update(min=game.MIN_PLAYERS, max=game.MAX_PLAYERS)
        self.numbers: dict[str, NumberOption] = {}
        self.option_errors: dict[str, str] = {}
        for entry in game.OPTIONS:
            name = entry["name"]
            if (game.NAME, name) in NUMBER_OPTIONS:
                self.numbers[name] = NUMBER_OPTIONS[(game.NAME, name)]()
                self._add_number_cells(entry, self.numbers[name])
            field = _option_field(entry, game.NAME)
            if field is not None:
                self.fields[f"{OPTION_PREFIX}{name}"] = field
        for number in range(1, game.MAX_PLAYERS):
            # Not required: the rows beyond the number of players are left out of a post.
            self.fields[f"seat_{number}_kind"] = forms.ChoiceField(
                choices=SEAT_KINDS, initial="bot", label=f"Seat {number + 1}", required=False
            )
            self.fields[f"seat_{number}_level"] = forms.ChoiceField(
                choices=[(lv, lv.title()) for lv in LEVELS], initial="basic", required=False, label="Bot level"
            )
            self.fields[f"seat_{number}_email"] = forms.EmailField(required=False, label="Email")

    def _add_number_cells(self, entry: dict[str, Any], option: NumberOption) -> None:
        name = entry["name"]
        for table in option.tables:
            for row_label, cells in table.rows:
                columns = table.columns[-len(cells) :]
                row_label = f"{table.columns[0].lower()} {row_label}" if len(table.columns) > len(cells) else row_label
                for (cell, default), column in zip(cells, columns, strict=True):
                    # The table's headers say it to the eye; the label says it to a screen reader.
                    label = f"{entry.get('label', name)}, {row_label}: {column.lower()}"
                    between = f"{label}: give a whole number from {table.low} to {table.high}."
                    self.fields[f"{OPTION_PREFIX}{name}__{cell}"] = forms.IntegerField(
                        required=False,
                        initial=default,
                        min_value=table.low,
                        max_value=table.high,
                        label=label,
                        widget=forms.NumberInput(attrs={"aria-label": label}),
                        error_messages={"invalid": between, "min_value": between, "max_value": between},
                    )

    @property
    def fixed_size(self) -> bool:
        return bool(self.game.MIN_PLAYERS == self.game.MAX_PLAYERS)

    @property
    def option_fields(self) -> list[forms.BoundField]:
        return [self[name] for e in self.game.OPTIONS if (name := f"{OPTION_PREFIX}{e['name']}") in self.fields]

    @property
    def option_rows(self) -> list[dict[str, Any]]:
        """Each option as the template draws it: a plain field, a grid of card checkboxes, or a table of numbers."""
        rows = []
        for entry in self.game.OPTIONS:
            name = entry["name"]
            if name in self.numbers:
                rows.append(self._number_row(entry, self.numbers[name]))
                continue
            field = self[f"{OPTION_PREFIX}{name}"]
            if entry["type"] == "cards" and entry.get("choices"):
                rows.append({"kind": "cards", "entry": entry, "field": field, "grid": _card_grid(field)})
            else:
                rows.append({"kind": "field", "entry": entry, "field": field})
        return rows

    def _number_row(self, entry: dict[str, Any], option: NumberOption) -> dict[str, Any]:
        name = entry["name"]
        tables = [
            {
                "caption": table.caption,
                "columns": table.columns,
                "folded": table.folded,
                "rows": [
                    {"label": label, "cells": [self[f"{OPTION_PREFIX}{name}__{cell}"] for cell, _d in cells]}
                    for label, cells in table.rows
                ],
            }
            for table in option.tables
        ]
        error = self.option_errors.get(name, "")
        return {"kind": "numbers", "entry": entry, "tables": tables, "note": option.note, "error": error}

    @property
    def seat_rows(self) -> list[tuple[int, forms.BoundField, forms.BoundField, forms.BoundField]]:
        return [
            (n + 1, self[f"seat_{n}_kind"], self[f"seat_{n}_level"], self[f"seat_{n}_email"])
            for n in range(1, self.game.MAX_PLAYERS)
        ]

    @property
    def shown_players(self) -> int:
        """How many seats the page shows at first: the number posted, else the game's least."""
        value = self["players"].value()
        try:
            number = int(value)
        except (TypeError, ValueError):
            return int(self.game.MIN_PLAYERS)
        return max(self.game.MIN_PLAYERS, min(self.game.MAX_PLAYERS, number))

    def clean_game(self) -> str:
        posted = self.cleaned_data.get("game") or self.game.NAME
        if posted != self.game.NAME:  # the view builds the form for the posted game; anything else is a bug
            raise forms.ValidationError(f"This form is for {self.game.TITLE}, not {posted}.")
        return str(posted)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        clock_errors_forget_unless_custom(self, data)
        foreign = self._foreign_options()
        if foreign:
            raise forms.ValidationError(
                f"These options are not {self.game.TITLE}'s: {', '.join(foreign)}. The form now shows "
                f"{self.game.TITLE}'s own options; check them and create the match again."
            )
        stale = self._stale_options()
        if stale:
            raise forms.ValidationError(
                f"{', '.join(stale)}: these values are now entered in the tables of the form, not as text. "
                "Check them and create the match again."
            )
        if self.errors:
            return data
        options = self._options(data)
        self._check_number_options(data["players"], options)
        try:
            data["options"] = self.game.validate_options(data["players"], options)
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None
        data["clock"] = self._clock(data)
        data["seat_specs"] = self._seats(data)
        return data

    def _foreign_options(self) -> list[str]:
        """The posted option names that this game does not have (from another game's form)."""
        if not self.is_bound:
            return []
        own = {e["name"] for e in self.game.OPTIONS}
        names = {key[len(OPTION_PREFIX) :].split("__")[0] for key in self.data if key.startswith(OPTION_PREFIX)}
        return sorted(name[:40].replace("_", " ") for name in names - own)

    def _stale_options(self) -> list[str]:
        """This game's table-entered options posted whole (an old page's JSON box): refused, not ignored."""
        if not self.is_bound:
            return []
        return [
            str(e.get("label", e["name"]))
            for e in self.game.OPTIONS
            if e["name"] in self.numbers and f"{OPTION_PREFIX}{e['name']}" in self.data
        ]

    def _clock(self, data: dict[str, Any]) -> TimeControl | None:
        key = data.get("time_control") or "none"
        if key != CUSTOM_CLOCK:
            return PRESETS[key][1]
        hours = [data.get(f"tc_{part}") for part in ("initial", "increment", "cap")]
        if any(h is None for h in hours):
            raise forms.ValidationError("A custom time control needs all three times, in hours.")
        try:
            return time_control_from_form(*cast(list[float], hours))
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None

    def _check_number_options(self, players: int, options: dict[str, Any]) -> None:
        """Each table-entered option checked alone, so the engine's sentence stands beside its own tables."""
        for entry in self.game.OPTIONS:
            name = entry["name"]
            if name in self.numbers and name in options:
                try:
                    self.game.validate_options(players, {name: options[name]})
                except ValueError as exc:
                    self.option_errors[name] = str(exc)
        said = [
            f"{e.get('label', e['name'])}: {self.option_errors[e['name']]}"
            for e in self.game.OPTIONS
            if e["name"] in self.option_errors
        ]
        if said:
            raise forms.ValidationError(" ".join(said))

    def _options(self, data: dict[str, Any]) -> dict[str, Any]:
        options: dict[str, Any] = {}
        if not any(key.startswith(OPTION_PREFIX) for key in self.data):
            return options  # a post that names the game alone: the game's defaults, not unticked boxes
        for entry in self.game.OPTIONS:
            name = entry["name"]
            value = data.get(f"{OPTION_PREFIX}{name}")
            if name in self.numbers:
                numbers = self._numbers_value(name, data)
                if numbers is not None:
                    options[name] = numbers
            elif entry["type"] == "bool":
                options[name] = bool(value)
            elif value in (None, "") and entry["type"] != "cards":
                continue
            elif entry["type"] == "cards":
                options[name] = list(value) if isinstance(value, list) else (value or "").split()
            elif f"{OPTION_PREFIX}{name}" in self.fields:
                options[name] = value
        return options

    def _numbers_value(self, name: str, data: dict[str, Any]) -> Any:
        """The tables' value, or None when every cell holds its default (the game's own default then stands).

        A cell left empty keeps its default: emptying a box is not a way to say "nothing".
        """
        option = self.numbers[name]
        cells: dict[str, int | None] = {}
        for cell, default in option.defaults.items():
            value = data.get(f"{OPTION_PREFIX}{name}__{cell}")
            cells[cell] = default if value is None else value
        return None if cells == option.defaults else option.assemble(cells)

    def _seats(self, data: dict[str, Any]) -> list[SeatSpec]:
        specs = []
        for number in range(1, data["players"]):
            if data.get(f"seat_{number}_kind") == "email":
                email = data.get(f"seat_{number}_email")
                if not email:
                    raise forms.ValidationError(f"Seat {number + 1}: give the email address to invite.")
                specs.append(SeatSpec(email=email))
            else:
                specs.append(SeatSpec(bot=data.get(f"seat_{number}_level") or "basic"))
        return specs


class PlayForm(forms.Form):
    action = forms.CharField(max_length=4000)
    version = forms.IntegerField(min_value=0)

    def clean_action(self) -> dict[str, Any]:
        try:
            action = json_loads_shallow(self.cleaned_data["action"])
        except (ValueError, TooDeep):
            raise forms.ValidationError("That move could not be read; please choose it again.") from None
        if not isinstance(action, dict):
            raise forms.ValidationError("That move could not be read; please choose it again.")
        return action


class ChatForm(forms.Form):
    text = forms.CharField(
        max_length=1000,
        widget=forms.TextInput(attrs={"autocomplete": "off", "placeholder": "Say something to the table"}),
    )


class SeatInviteForm(forms.Form):
    """The creator invites someone to an open seat of a waiting match."""

    email = forms.EmailField(label="Email")
