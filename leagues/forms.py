"""Forms for the league pages: plain fields the services take as keyword arguments; the services validate the rest."""

from __future__ import annotations

from typing import Any

from django import forms

from engine import GAMES, Game
from games.clocks import PRESETS
from games.forms import game_choices
from games.models import Seat
from leagues import tiebreaks
from leagues.models import Club, League, Membership, Season

# As many ordered tie-break choices as there are tie-breaks: the organizer fills the first few.
TIEBREAK_FIELDS = [f"tiebreak_{n}" for n in range(1, len(tiebreaks.TIEBREAKS) + 1)]
OPTION_PREFIX = "opt_"


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
    game = forms.ChoiceField(choices=game_choices, widget=forms.HiddenInput)
    table_size = forms.IntegerField(label="Players at a table")
    time_control = forms.ChoiceField(choices=[(key, label) for key, (label, _tc) in PRESETS.items()], initial="2d")
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

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game_module = game
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
        return [self[name] for name in ("name", "table_size", "time_control", "timeout_bot_level")]

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
            return [float(part) for part in text.replace(";", ",").split(",") if part.strip()]
        except ValueError:
            raise forms.ValidationError("Write the points as numbers separated by commas, e.g. 4,2,1,0.") from None

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        chosen = [data[name] for name in TIEBREAK_FIELDS if data.get(name)]
        if len(set(chosen)) != len(chosen):
            raise forms.ValidationError("Each tie-break can be chosen once.")
        data["tiebreaks"] = chosen
        data["options"] = {
            name.removeprefix(OPTION_PREFIX): value
            for name, value in data.items()
            if name.startswith(OPTION_PREFIX) and value is not None
        }
        return data

    def service_arguments(self) -> dict[str, Any]:
        """The keyword arguments of ``services.league_create`` from the cleaned form."""
        data = self.cleaned_data
        return {
            "name": data["name"],
            "game": self.game_module.NAME,
            "table_size": data["table_size"],
            "options": data["options"],
            "time_control": PRESETS[data["time_control"]][1],
            "timeout_bot_level": data["timeout_bot_level"],
            "scoring": data["scoring"],
            "place_points": data["place_points"],
            "tiebreaks": data["tiebreaks"],
            "rated": data["rated"],
        }


def league_initial(league: League) -> dict[str, Any]:
    """A LeagueForm's starting values from the league, for its edit page."""
    clocks = [key for key, (_label, tc) in PRESETS.items() if (tc.to_json() if tc else None) == league.time_control]
    return {
        "name": league.name,
        "game": league.game,
        "table_size": league.table_size,
        # A clock set outside the presets shows the usual one; saving the form sets that.
        **({"time_control": clocks[0]} if clocks else {}),
        "timeout_bot_level": league.timeout_bot_level,
        "scoring": league.scoring,
        "place_points": ",".join(f"{p:g}" for p in league.place_points),
        "rated": league.rated,
        **dict(zip(TIEBREAK_FIELDS, league.tiebreaks, strict=False)),
        **dict.fromkeys(TIEBREAK_FIELDS[len(league.tiebreaks) :], ""),
        **{OPTION_PREFIX + key: value for key, value in league.options.items()},
    }


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


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = [
            *("name", "starts_on", "ends_on", "rounds", "divisions", "promote", "relegate"),
            *("round_mode", "fill", "settle"),
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


class RoundDatesForm(forms.Form):
    """A round's dates in the organizer's own time zone (the middleware activates it)."""

    play_by = forms.DateTimeField(
        required=False, label="Play by", widget=forms.DateTimeInput(attrs={"type": "datetime-local"})
    )
    opens_at = forms.DateTimeField(
        required=False, label="Opens", widget=forms.DateTimeInput(attrs={"type": "datetime-local"})
    )


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
