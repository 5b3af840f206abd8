"""Forms for the league pages: plain fields the services take as keyword arguments; the services validate the rest."""

from __future__ import annotations

import math
from datetime import date
from typing import Any, cast

from django import forms

from engine import GAMES, Game
from games.clocks import PRESETS, TimeControl, time_control_from_form
from games.forms import CLOCK_FIELDS, clock_errors_forget_unless_custom, clock_field, game_choices
from games.models import Seat
from leagues import tiebreaks
from leagues.models import Club, League, Membership, Season
from leagues.seasons import PLACE_POINTS_MAX

# As many ordered tie-break choices as there are tie-breaks: the organizer fills the first few.
TIEBREAK_FIELDS = [f"tiebreak_{n}" for n in range(1, len(tiebreaks.TIEBREAKS) + 1)]
OPTION_PREFIX = "opt_"
CUSTOM_CLOCK = "custom"
CLOCK_LABELS = {
    "tc_initial": "Custom clock: starting time (hours)",
    "tc_increment": "Custom clock: added per move (hours)",
    "tc_cap": "Custom clock: most time saved up (hours)",
}


class ClubForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ["name", "description", "public"]
        help_texts = {"public": "Anyone may read its leagues and join it; a private club is seen by its members only."}


class InviteForm(forms.Form):
    email = forms.EmailField(label="Email address")
    role = forms.ChoiceField(choices=Membership.Role.choices, initial=Membership.Role.PLAYER)


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=Membership.Role.choices)


class LeagueForm(forms.Form):
    """A league of one game: the game's simple options (numbers and switches) get fields of their own."""

    name = forms.CharField(max_length=80)
    # The game comes from the page's address (``game_for``); the hidden field only carries it along.
    game = forms.ChoiceField(choices=game_choices, widget=forms.HiddenInput, required=False)
    table_size = forms.IntegerField(label="Players at a table")
    time_control = forms.ChoiceField(
        choices=[*((key, label) for key, (label, _tc) in PRESETS.items()), (CUSTOM_CLOCK, "Custom (hours below)")],
        initial="2d",
    )
    tc_initial = clock_field("initial", CLOCK_LABELS["tc_initial"])
    tc_increment = clock_field("increment", CLOCK_LABELS["tc_increment"])
    tc_cap = clock_field("cap", CLOCK_LABELS["tc_cap"])
    timeout_bot_level = forms.ChoiceField(
        choices=Seat.BotLevel.choices, initial=Seat.BotLevel.BASIC, label="Bot level for players who time out"
    )
    scoring = forms.ChoiceField(choices=League.Scoring.choices, initial=League.Scoring.PLACES)
    place_points = forms.CharField(
        required=False,
        label="Points per place",
        help_text="From first place down, separated by commas, e.g. 4,2,1,0. Empty: the usual points for the table.",
    )
    rated = forms.BooleanField(required=False, initial=True, help_text="The matches count towards players' ratings.")
    format = forms.ChoiceField(
        choices=League.Format.choices,
        initial=League.Format.ROUND_ROBIN,
        required=False,
        help_text="Round robin draws every round at the start; Swiss draws each round from the standings after "
        "the one before; knockout heats send the top places of each table on to the next round until a final; a "
        "ladder seats neighbouring rungs together and moves players up and down by their places. Each but round "
        "robin plays one round after another. It changes only while no season is running.",
    )
    advance = forms.IntegerField(
        min_value=1,
        max_value=9,
        required=False,
        label="Knockout: players of each table who go through",
        help_text="From 1 to one fewer than sit at a table, e.g. the top 2 of 4. Empty: as it was (2 for a new league).",
    )
    round_days = forms.IntegerField(
        min_value=1,
        max_value=365,
        initial=7,
        required=False,
        label="Days a round lasts",
        help_text="For a season without an end date, and the season made when one finishes. Empty: as it was (7).",
    )

    def __init__(self, *args: Any, game: Game, clock: TimeControl | None = None, **kwargs: Any) -> None:
        """``clock``: the league's stored time control (editing), kept as it is when the form leaves it unchanged."""
        super().__init__(*args, **kwargs)
        self.game_module = game
        self.stored_clock = clock
        if clock is not None:  # a stored clock outside the limits stays editable, and savable unchanged
            for name, hours in zip(CLOCK_FIELDS, clock_hours(clock), strict=True):
                self.fields[name] = clock_field(name.removeprefix("tc_"), CLOCK_LABELS[name], admit=hours)
        self.fields["game"].initial = game.NAME
        size = self.fields["table_size"]
        assert isinstance(size, forms.IntegerField)
        size.min_value, size.max_value, size.initial = game.MIN_PLAYERS, game.MAX_PLAYERS, game.MIN_PLAYERS
        size.widget.attrs.update(min=game.MIN_PLAYERS, max=game.MAX_PLAYERS)
        for n, name in enumerate(TIEBREAK_FIELDS):
            self.fields[name] = forms.ChoiceField(
                choices=[("", "(none)"), *tiebreaks.TIEBREAKS.items()],
                required=False,
                label=f"Tie-break {n + 1}",
                initial=list(tiebreaks.TIEBREAKS)[n] if n < 3 else "",
            )
        for entry in game.OPTIONS:
            field = _option_field(entry)
            if field is not None:
                self.fields[OPTION_PREFIX + entry["name"]] = field

    @property
    def main_fields(self) -> list[forms.BoundField]:
        names = ["name", "format", "advance", "table_size", "time_control", *CLOCK_FIELDS, "timeout_bot_level"]
        names.append("round_days")
        return [self[name] for name in names]

    @property
    def option_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith(OPTION_PREFIX)]

    @property
    def tiebreak_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in TIEBREAK_FIELDS]

    def clean_place_points(self) -> list[float] | None:
        text = self.cleaned_data["place_points"].strip()
        if not text:
            return None
        try:
            points = [float(part) for part in text.replace(";", ",").split(",") if part.strip()]
        except ValueError:
            points = [math.nan]
        # float() takes "nan", "inf" and "1e309" (and "9" * 5000, as inf): no number a place can earn, nor one
        # the database can store in JSON.
        if not all(math.isfinite(p) for p in points):
            raise forms.ValidationError("Write the points as numbers separated by commas, e.g. 4,2,1,0.")
        if any(p > PLACE_POINTS_MAX for p in points):
            raise forms.ValidationError(f"A place can earn at most {PLACE_POINTS_MAX} points.")
        return points

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        clock_errors_forget_unless_custom(self, data)
        if "game" in self.errors:  # a hidden field, whose error the page would not show: said above the form
            del self.errors["game"]
            raise forms.ValidationError("Choose one of the games offered for a league.")
        chosen = [data[name] for name in TIEBREAK_FIELDS if data.get(name)]
        if len(set(chosen)) != len(chosen):
            raise forms.ValidationError("Each tie-break can be chosen once.")
        data["tiebreaks"] = chosen
        data["clock"] = self._clock(data)
        data["options"] = {
            name.removeprefix(OPTION_PREFIX): value
            for name, value in data.items()
            if name.startswith(OPTION_PREFIX) and value is not None
        }
        return data

    def _clock(self, data: dict[str, Any]) -> TimeControl | None:
        key = data.get("time_control") or "none"
        if key != CUSTOM_CLOCK:
            return PRESETS[key][1] if key in PRESETS else None
        if any(name in self.errors for name in CLOCK_FIELDS):
            return None  # an hour out of bounds: said beside its field
        hours = [data.get(name) for name in CLOCK_FIELDS]
        if any(h is None for h in hours):
            raise forms.ValidationError("A custom time control needs all three times, in hours.")
        if self.stored_clock is not None and hours == clock_hours(self.stored_clock):
            return self.stored_clock  # unchanged: kept exactly, even a clock set outside the form's limits
        try:
            return time_control_from_form(*cast(list[float], hours))
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None

    def service_arguments(self) -> dict[str, Any]:
        """The keyword arguments of ``seasons.league_create`` from the cleaned form."""
        data = self.cleaned_data
        return {
            "name": data["name"],
            "game": self.game_module.NAME,
            "table_size": data["table_size"],
            "options": data["options"],
            "time_control": data["clock"],
            "timeout_bot_level": data["timeout_bot_level"],
            "scoring": data["scoring"],
            "place_points": data["place_points"],
            "tiebreaks": data["tiebreaks"],
            "rated": data["rated"],
            "round_days": data["round_days"],
            "format": data["format"] or None,
            "advance": data["advance"],
        }


def league_initial(league: League) -> dict[str, Any]:
    """A LeagueForm's starting values from the league, for its edit page."""
    return {
        "name": league.name,
        "game": league.game,
        "table_size": league.table_size,
        **clock_initial(TimeControl.from_json(league.time_control)),
        "timeout_bot_level": league.timeout_bot_level,
        "scoring": league.scoring,
        "place_points": ",".join(f"{p:g}" for p in league.place_points),
        "rated": league.rated,
        "round_days": league.round_days,
        "format": league.format,
        "advance": league.advance,
        **dict(zip(TIEBREAK_FIELDS, league.tiebreaks, strict=False)),
        **dict.fromkeys(TIEBREAK_FIELDS[len(league.tiebreaks) :], ""),
        **{OPTION_PREFIX + key: value for key, value in league.options.items()},
    }


def clock_hours(clock: TimeControl) -> list[float]:
    """A clock's starting time, time per move and most saved up, in hours, as the custom fields hold them."""
    return [part.total_seconds() / 3600 for part in (clock.initial, clock.increment, clock.cap)]


def clock_initial(clock: TimeControl | None) -> dict[str, Any]:
    """The form's clock fields for a stored clock: its preset, or "custom" with its hours."""
    for key, (_label, preset) in PRESETS.items():
        if preset == clock:
            return {"time_control": key}
    assert clock is not None  # "none" is a preset
    return {"time_control": CUSTOM_CLOCK, **dict(zip(CLOCK_FIELDS, clock_hours(clock), strict=True))}


def _option_field(entry: dict[str, Any]) -> forms.Field | None:
    """Numbers and switches only: a league keeps the game's defaults for options that need a table or cards."""
    common = {"label": entry.get("label", entry["name"]), "help_text": entry.get("help", ""), "required": False}
    if entry["type"] == "int":
        return forms.IntegerField(
            min_value=entry.get("min"), max_value=entry.get("max"), initial=entry.get("default"), **common
        )
    if entry["type"] == "bool":
        return forms.BooleanField(initial=bool(entry.get("default")), **common)
    return None


def game_for(name: str | None) -> Game:
    """The game a league form is about, from the page's address or post; the first game when unknown."""
    return GAMES.get(name or "") or GAMES[sorted(GAMES)[0]]


# Years a season's and a round's dates may fall in: more than any league needs, and storable in UTC from every
# time zone, with room for the rounds' weeks after them (31 December 9999 in California is past the last day
# Python and the database can hold; a season starting on 1 January of year 1 had rounds that no page in
# California could show, and one starting in late 9999 rounds past it: each was a 500).
ROUND_YEARS = range(2000, 2200)
OUTSIDE_YEARS = f"Give dates between the years {ROUND_YEARS[0]} and {ROUND_YEARS[-1]}."


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = [
            *("name", "starts_on", "ends_on", "rounds", "divisions", "promote", "relegate"),
            *("round_mode", "fill", "settle", "entrants_max"),
        ]
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}),
            "ends_on": forms.DateInput(attrs={"type": "date"}),
        }
        labels = {
            "fill": "When the players do not fill every table",
            "settle": "Matches unfinished at the play-by date",
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["name"].required = False
        self.fields["name"].help_text = "Empty: Season 1, Season 2, ..."
        for name in ("starts_on", "ends_on"):
            self.fields[name].widget.attrs.update(min=f"{ROUND_YEARS[0]}-01-01", max=f"{ROUND_YEARS[-1]}-12-31")

    def clean_starts_on(self) -> date | None:
        return _in_league_years(self.cleaned_data.get("starts_on"))

    def clean_ends_on(self) -> date | None:
        return _in_league_years(self.cleaned_data.get("ends_on"))


def _in_league_years(day: date | None) -> date | None:
    if day is not None and day.year not in ROUND_YEARS:
        raise forms.ValidationError(OUTSIDE_YEARS)
    return day


class ReasonForm(forms.Form):
    reason = forms.CharField(max_length=300, help_text="Shown to everyone in the season's record.")


class ForfeitForm(ReasonForm):
    """Who forfeits among the players at one table."""

    def __init__(self, *args: Any, seats: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["entrants"] = forms.TypedMultipleChoiceField(
            choices=seats, coerce=int, widget=forms.CheckboxSelectMultiple, label="Who forfeits"
        )
        self.order_fields(["entrants", "reason"])


class AdjustForm(ReasonForm):
    """A place (and optionally a score) for every seat at the table."""

    def __init__(self, *args: Any, names: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for seat, name in enumerate(names):
            self.fields[f"place_{seat}"] = forms.IntegerField(
                min_value=1, max_value=len(names), label=f"Place of {name}", initial=seat + 1
            )
        self.seats = len(names)
        self.order_fields([*(f"place_{s}" for s in range(len(names))), "reason"])

    @property
    def places(self) -> list[int]:
        return [self.cleaned_data[f"place_{s}"] for s in range(self.seats)]


AS_DAY_AND_TIME = {"invalid": "Give the dates as a day and a time."}


class RoundDatesForm(forms.Form):
    """A round's dates in the organizer's own time zone (the middleware activates it)."""

    play_by = forms.DateTimeField(
        required=False,
        label="Play by",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        error_messages=AS_DAY_AND_TIME,
    )
    opens_at = forms.DateTimeField(
        required=False,
        label="Opens",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        error_messages=AS_DAY_AND_TIME,
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if any(data.get(name) is not None and data[name].year not in ROUND_YEARS for name in ("play_by", "opens_at")):
            raise forms.ValidationError(OUTSIDE_YEARS)
        return data


class DivisionForm(forms.Form):
    division = forms.IntegerField(min_value=1, max_value=20)


class FinishForm(forms.Form):
    """The promotion and relegation numbers, confirmed or changed when the season ends."""

    promote = forms.IntegerField(
        min_value=0, max_value=1000, label="Players promoted from each division", required=False
    )
    relegate = forms.IntegerField(
        min_value=0, max_value=1000, label="Players relegated from each division", required=False
    )


class SeasonEditForm(forms.ModelForm):
    """A season's name and dates, on its organize page; the service refuses dates that do not fit together."""

    class Meta:
        model = Season
        fields = ["name", "starts_on", "ends_on"]
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}),
            "ends_on": forms.DateInput(attrs={"type": "date"}),
        }

    def __init__(self, *args: Any, started: bool = False, **kwargs: Any) -> None:
        """``started``: the season is running, and its start date is shown but no longer posted."""
        super().__init__(*args, **kwargs)
        self.fields["name"].required = False
        self.fields["name"].help_text = "Empty: the name stays as it is."
        for name in ("starts_on", "ends_on"):
            self.fields[name].widget.attrs.update(min=f"{ROUND_YEARS[0]}-01-01", max=f"{ROUND_YEARS[-1]}-12-31")
        if started:
            self.fields["starts_on"].disabled = True
            self.fields["starts_on"].help_text = "The season has started: its start date is fixed."

    def clean_starts_on(self) -> date | None:
        return _in_league_years(self.cleaned_data.get("starts_on"))

    def clean_ends_on(self) -> date | None:
        return _in_league_years(self.cleaned_data.get("ends_on"))


class SeedForm(forms.Form):
    by = forms.ChoiceField(
        choices=[("rating", "By rating"), ("standings", "By the last season's standings")],
        label="Seed the divisions",
        error_messages={
            "required": "Seed the divisions by rating or by the last season's standings.",
            "invalid_choice": "Seed the divisions by rating or by the last season's standings.",
        },
    )


class AvailabilityForm(forms.Form):
    """The rounds an entrant cannot play, ticked among the season's round numbers."""

    rounds = forms.TypedMultipleChoiceField(
        coerce=int,
        required=False,
        label="Rounds I cannot play",
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "invalid_choice": "Tick rounds of this season only.",
            "invalid_list": "Tick rounds of this season only.",
        },
    )

    def __init__(self, *args: Any, rounds: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["rounds"].choices = [(n, f"Round {n}") for n in range(1, rounds + 1)]  # type: ignore[attr-defined]


class SubstituteForm(forms.Form):
    """An organizer adds a club member to the season's substitute pool, or takes one out."""

    action = forms.ChoiceField(
        choices=[("add", "Add"), ("remove", "Remove")],
        error_messages={
            "required": "Say whether to add or remove the substitute.",
            "invalid_choice": "Say whether to add or remove the substitute.",
        },
    )
    user = forms.IntegerField(
        min_value=1,
        max_value=2**31 - 1,
        error_messages={
            "required": "Pick a member of the club.",
            "invalid": "Pick a member of the club.",
            "min_value": "Pick a member of the club.",
            "max_value": "Pick a member of the club.",
        },
    )
