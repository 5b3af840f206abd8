"""Forms: the lobby's form is built from the game's option schema; the engine validates it."""

from __future__ import annotations

import json
from typing import Any, cast

from django import forms

from engine import GAMES, Game
from engine.bots import LEVELS
from games.presenters import presenter_for
from games.services import SeatSpec

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
                choices=labelled, initial=default or [], widget=forms.SelectMultiple(attrs={"size": 6}), **common
            )
        return forms.CharField(initial=" ".join(default or []), **common)
    initial = json.dumps(default) if default is not None else ""
    return forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), initial=initial, **common)


def _coercer(choices: list[Any]) -> Any:
    by_text = {str(c): c for c in choices}
    return lambda text: by_text.get(text, text)


class MatchCreateForm(forms.Form):
    """Players, options and who sits where; seat 1 is the creator."""

    players = forms.IntegerField()
    private = forms.BooleanField(required=False, help_text="Only the seated players may watch.")

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        players = cast(forms.IntegerField, self.fields["players"])
        players.min_value, players.max_value = game.MIN_PLAYERS, game.MAX_PLAYERS
        players.initial = game.MIN_PLAYERS
        players.widget.attrs.update(min=game.MIN_PLAYERS, max=game.MAX_PLAYERS)
        for entry in game.OPTIONS:
            self.fields[f"opt_{entry['name']}"] = _option_field(entry, game.NAME)
        for number in range(1, game.MAX_PLAYERS):
            self.fields[f"seat_{number}_kind"] = forms.ChoiceField(
                choices=SEAT_KINDS, initial="bot", label=f"Seat {number + 1}"
            )
            self.fields[f"seat_{number}_level"] = forms.ChoiceField(
                choices=[(lv, lv.title()) for lv in LEVELS], initial="basic", required=False, label="Bot level"
            )
            self.fields[f"seat_{number}_email"] = forms.EmailField(required=False, label="Email")

    @property
    def option_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("opt_")]

    @property
    def seat_rows(self) -> list[tuple[int, forms.BoundField, forms.BoundField, forms.BoundField]]:
        return [
            (n + 1, self[f"seat_{n}_kind"], self[f"seat_{n}_level"], self[f"seat_{n}_email"])
            for n in range(1, self.game.MAX_PLAYERS)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        try:
            data["options"] = self.game.validate_options(data["players"], self._options(data))
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None
        data["seat_specs"] = self._seats(data)
        return data

    def _options(self, data: dict[str, Any]) -> dict[str, Any]:
        options: dict[str, Any] = {}
        for entry in self.game.OPTIONS:
            value = data.get(f"opt_{entry['name']}")
            if entry["type"] == "bool":
                options[entry["name"]] = bool(value)
            elif value in (None, "") and entry["type"] != "cards":
                continue
            elif entry["type"] == "cards":
                options[entry["name"]] = list(value) if isinstance(value, list) else (value or "").split()
            elif entry["type"] == "json":
                options[entry["name"]] = self._json(entry, str(value))
            else:
                options[entry["name"]] = value
        return options

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
            if data[f"seat_{number}_kind"] == "email":
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
