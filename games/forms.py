"""Forms: the lobby's form is built from the game's option schema; the engine validates it."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from django import forms

from engine import GAMES, Game, renfield, rentz
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
    """A JSON option entered as a small table of numbers: one cell per value, assembled server-side.

    ``rows`` holds ``(label, ((cell, default), ...))``; ``assemble`` turns ``{cell: number}`` into the option's value.
    """

    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[tuple[str, int], ...]], ...]
    assemble: Callable[[dict[str, int]], Any]
    low: int
    high: int

    @property
    def defaults(self) -> dict[str, int]:
        return {cell: default for _label, cells in self.rows for cell, default in cells}


def _rentz_points() -> NumberTable:
    points = rentz.DEFAULT_POINTS
    penalties: tuple[tuple[str, str], ...] = (("acool", "Acool, per trick"), ("diamonds", "Diamonds, per diamond"))
    penalties += (("queens", "Queens, per queen"), ("king_of_hearts", "King of Hearts"))
    rows = [(label, ((key, points[key]),)) for key, label in penalties]
    rows += [(f"Rentz, {ordinal(n + 1)} out", ((f"rentz_{n + 1}", bonus),)) for n, bonus in enumerate(points["rentz"])]

    def assemble(cells: dict[str, int]) -> dict[str, Any]:
        value: dict[str, Any] = {key: cells[key] for key, _label in penalties}
        value["rentz"] = [cells[f"rentz_{n}"] for n in range(1, rentz.SEATS + 1)]
        return value

    return NumberTable(("Points",), tuple(rows), assemble, -rentz.POINT_LIMIT, rentz.POINT_LIMIT)


def _renfield_values() -> NumberTable:
    rows = tuple(
        (str(rank), ((f"bugs_{rank}", bugs), (f"dollars_{rank}", dollars)))
        for rank, bugs, dollars in zip(
            range(1, renfield.TOP_RANK + 1), renfield.DEFAULT_BUGS, renfield.DEFAULT_DOLLARS, strict=True
        )
    )

    def assemble(cells: dict[str, int]) -> dict[str, Any]:
        ranks = range(1, renfield.TOP_RANK + 1)
        return {"bugs": [cells[f"bugs_{r}"] for r in ranks], "dollars": [cells[f"dollars_{r}"] for r in ranks]}

    return NumberTable(("Rank", "Bugs", "Dollars"), rows, assemble, 0, renfield.VALUE_LIMIT)


# The JSON options that get a table of numbers instead of a box of JSON. The JSON box stays, folded away,
# for what the table cannot say (Renfield's values per suit).
NUMBER_TABLES: dict[tuple[str, str], Callable[[], NumberTable]] = {
    ("rentz", "points"): _rentz_points,
    ("renfield", "deck_values"): _renfield_values,
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


def _option_field(entry: dict[str, Any], game_name: str) -> forms.Field:
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
    if (game_name, entry["name"]) in NUMBER_TABLES:
        common["label"] = f"{common['label']} as JSON"
        common["help_text"] = "Leave empty to use the table above. " + str(common["help_text"])
        return forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), initial="", **common)
    initial = json.dumps(default) if default is not None else ""
    return forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), initial=initial, **common)


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
        self.tables: dict[str, NumberTable] = {}
        for entry in game.OPTIONS:
            name = entry["name"]
            if (game.NAME, name) in NUMBER_TABLES:
                table = self.tables[name] = NUMBER_TABLES[(game.NAME, name)]()
                for row_label, cells in table.rows:
                    columns = table.columns[-len(cells) :]
                    row_label = (
                        f"{table.columns[0].lower()} {row_label}" if len(table.columns) > len(cells) else row_label
                    )
                    for (cell, default), column in zip(cells, columns, strict=True):
                        # The table's headers say it to the eye; the label says it to a screen reader.
                        label = f"{entry.get('label', name)}, {row_label}: {column.lower()}"
                        self.fields[f"{OPTION_PREFIX}{name}__{cell}"] = forms.IntegerField(
                            required=False,
                            initial=default,
                            min_value=table.low,
                            max_value=table.high,
                            label=label,
                            widget=forms.NumberInput(attrs={"aria-label": label}),
                        )
            self.fields[f"{OPTION_PREFIX}{name}"] = _option_field(entry, game.NAME)
        for number in range(1, game.MAX_PLAYERS):
            # Not required: the rows beyond the number of players are left out of a post.
            self.fields[f"seat_{number}_kind"] = forms.ChoiceField(
                choices=SEAT_KINDS, initial="bot", label=f"Seat {number + 1}", required=False
            )
            self.fields[f"seat_{number}_level"] = forms.ChoiceField(
                choices=[(lv, lv.title()) for lv in LEVELS], initial="basic", required=False, label="Bot level"
            )
            self.fields[f"seat_{number}_email"] = forms.EmailField(required=False, label="Email")

    @property
    def fixed_size(self) -> bool:
        return bool(self.game.MIN_PLAYERS == self.game.MAX_PLAYERS)

    @property
    def option_fields(self) -> list[forms.BoundField]:
        return [self[f"{OPTION_PREFIX}{e['name']}"] for e in self.game.OPTIONS]

    @property
    def option_rows(self) -> list[dict[str, Any]]:
        """Each option as the template draws it: a plain field, a grid of card checkboxes, or a table of numbers."""
        rows = []
        for entry in self.game.OPTIONS:
            name = entry["name"]
            field = self[f"{OPTION_PREFIX}{name}"]
            if name in self.tables:
                table = self.tables[name]
                cells = [
                    {"label": label, "cells": [self[f"{OPTION_PREFIX}{name}__{cell}"] for cell, _d in cells]}
                    for label, cells in table.rows
                ]
                rows.append({"kind": "table", "entry": entry, "columns": table.columns, "rows": cells, "json": field})
            elif entry["type"] == "cards" and entry.get("choices"):
                rows.append({"kind": "cards", "entry": entry, "field": field, "grid": _card_grid(field)})
            else:
                rows.append({"kind": "field", "entry": entry, "field": field})
        return rows

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
        if self.errors:
            return data
        try:
            data["options"] = self.game.validate_options(data["players"], self._options(data))
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

    def _options(self, data: dict[str, Any]) -> dict[str, Any]:
        options: dict[str, Any] = {}
        if not any(key.startswith(OPTION_PREFIX) for key in self.data):
            return options  # a post that names the game alone: the game's defaults, not unticked boxes
        for entry in self.game.OPTIONS:
            name = entry["name"]
            value = data.get(f"{OPTION_PREFIX}{name}")
            if name in self.tables and value in (None, ""):
                table_value = self._table_value(name, data)
                if table_value is not None:
                    options[name] = table_value
            elif entry["type"] == "bool":
                options[name] = bool(value)
            elif value in (None, "") and entry["type"] != "cards":
                continue
            elif entry["type"] == "cards":
                options[name] = list(value) if isinstance(value, list) else (value or "").split()
            elif entry["type"] == "json":
                options[name] = self._json(entry, str(value))
            else:
                options[name] = value
        return options

    def _table_value(self, name: str, data: dict[str, Any]) -> Any:
        """The table's value, or None when every cell holds its default (the game's own default then stands)."""
        table = self.tables[name]
        cells = {}
        for cell, default in table.defaults.items():
            value = data.get(f"{OPTION_PREFIX}{name}__{cell}")
            cells[cell] = default if value is None else value
        return None if cells == table.defaults else table.assemble(cells)

    def _json(self, entry: dict[str, Any], text: str) -> Any:
        label = entry.get("label", entry["name"])
        try:
            value = json_loads_shallow(text)
        except ValueError:
            raise forms.ValidationError(f"{label}: this is not valid JSON.") from None
        except TooDeep:
            raise forms.ValidationError(f"{label}: this is nested too deeply to be an option.") from None
        return value

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
