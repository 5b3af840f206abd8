"""Forms a player fills in about themselves."""

from __future__ import annotations

from typing import Any

from django import forms
from django.forms import BoundField
from django.http import HttpRequest
from django.utils import timezone

from accounts.models import REMINDER_CHOICES, User
from accounts.timezones import time_zone_choices
from accounts.vacation_budget import vacation_days
from accounts.validators import validate_display_name


class SignupForm(forms.Form):
    """Extra fields on allauth's sign-up form; allauth calls ``signup`` once the user exists."""

    display_name = forms.CharField(
        max_length=40,
        required=False,
        label="Display name",
        help_text="The name other players see. Leave it empty to use the start of your email address.",
        validators=[validate_display_name],
    )

    def clean_display_name(self) -> str:
        return _one_space(self.cleaned_data.get("display_name", ""))

    def signup(self, request: HttpRequest, user: User) -> None:
        user.display_name = self.cleaned_data.get("display_name", "").strip()
        user.save(update_fields=["display_name"])


# The profile page's two parts, shown as two groups of one form that one Save stores.
PROFILE_FIELDS = ("display_name", "time_zone", "notify", "notify_by", "auto_forced_moves")
REMINDER_FIELDS = ("reminder_hours", "quiet_start", "quiet_end", "digest_hour", "auto_vacation")
# A field each part always posts (a select): a post without it comes from a page that did not show that part
# (from before the profile was one form, still open) and keeps that part as it is saved.
PART_MARKERS = {"time_zone": PROFILE_FIELDS, "digest_hour": REMINDER_FIELDS}


class ProfileForm(forms.ModelForm):
    """The whole profile: how a player is named, which clock they live by, how and when we write to them.

    One form, so that one Save stores everything on the page and nothing else: the row is saved with only
    these fields, so a vacation or a calendar address changed meanwhile is never written back.
    """

    reminder_hours = forms.TypedMultipleChoiceField(
        label="Remind me before a deadline",
        choices=REMINDER_CHOICES,
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="Each reminder is sent once. Tick none for no reminders.",
        error_messages={"invalid_choice": "Choose reminders from the list."},
    )
    digest_hour = forms.TypedChoiceField(
        label="Send the daily digest at",
        choices=[(hour, f"{hour:02d}:00") for hour in range(24)],
        coerce=int,
        help_text="On your own clock (your time zone above).",
        error_messages={
            "invalid_choice": "Choose an hour from 00:00 to 23:00 for the digest.",
            "required": "Choose an hour from 00:00 to 23:00 for the digest.",
        },
    )

    class Meta:
        model = User
        fields = [*PROFILE_FIELDS, *REMINDER_FIELDS]
        widgets = {
            "quiet_start": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "quiet_end": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        }
        help_texts = {
            "quiet_end": "Reminders due in these hours wait until they end, unless your deadline would pass first. "
            "Leave both empty for no quiet hours.",
        }
        error_messages = {
            "quiet_start": {"invalid": "Enter the start of your quiet hours as a time, such as 22:00."},
            "quiet_end": {"invalid": "Enter the end of your quiet hours as a time, such as 07:00."},
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A form posted without it (an older page still open) keeps the player's choice.
        self.fields["notify_by"].required = False
        # The usual Area/City list, plus the player's current zone if it is an older alias.
        choices = time_zone_choices()
        current = self.instance.time_zone
        if current and current not in dict(choices):
            choices = [(current, current.replace("_", " ")), *choices]
        field = self.fields["time_zone"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = choices
        self._keep_parts_not_posted()

    def _keep_parts_not_posted(self) -> None:
        """A part the post does not carry keeps the saved values (a disabled field takes the instance's).

        A post that carries no part at all is checked in full, so that it is refused with the fields' sentences.
        """
        if not self.is_bound:
            return
        missing = [names for marker, names in PART_MARKERS.items() if marker not in self.data]
        if len(missing) == len(PART_MARKERS):
            return
        for names in missing:
            for name in names:
                self.fields[name].disabled = True

    @property
    def profile_part(self) -> list[BoundField]:
        return [self[name] for name in PROFILE_FIELDS]

    @property
    def reminder_part(self) -> list[BoundField]:
        return [self[name] for name in REMINDER_FIELDS]

    def save(self, commit: bool = True) -> User:
        user: User = super().save(commit=False)
        if commit:
            user.save(update_fields=[name for name, field in self.fields.items() if not field.disabled])
        return user

    def clean_display_name(self) -> str:
        return _one_space(self.cleaned_data["display_name"])

    def clean_notify_by(self) -> str:
        return str(self.cleaned_data.get("notify_by") or self.instance.notify_by)

    def clean_reminder_hours(self) -> list[int]:
        return sorted(set(self.cleaned_data.get("reminder_hours") or []), reverse=True)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        start, end = data.get("quiet_start"), data.get("quiet_end")
        if self.has_error("quiet_start") or self.has_error("quiet_end"):
            return data
        if (start is None) != (end is None):
            raise forms.ValidationError(
                "Give both the start and the end of your quiet hours, or leave both empty for none."
            )
        if start is not None and start == end:
            raise forms.ValidationError(
                "Your quiet hours start and end at the same time; leave both empty for no quiet hours."
            )
        return data


class VacationForm(forms.Form):
    """How many days of vacation to take now, within what is left of this year's budget."""

    days = forms.IntegerField(
        label="Days of vacation",
        min_value=1,
        error_messages={
            "required": "Say how many days of vacation you want.",
            "invalid": "Enter the number of days as a whole number.",
            "min_value": "A vacation lasts at least 1 day.",
        },
    )

    def __init__(self, *args: Any, days_left: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.days_left = days_left
        self.fields["days"].widget.attrs.update({"max": max(days_left, 1)})
        self.fields["days"].help_text = f"You have {vacation_days(days_left)} left this year."

    def clean_days(self) -> int:
        days: int = self.cleaned_data["days"]
        if self.days_left == 0:
            raise forms.ValidationError("You have no vacation days left this year.")
        if days > self.days_left:
            raise forms.ValidationError(
                f"You have only {vacation_days(self.days_left)} left this year; choose {self.days_left} or fewer."
            )
        return days


def vacation_form_for(*, user: User, data: Any = None) -> VacationForm:
    """The vacation form within what is left of the player's budget this year."""
    return VacationForm(data, days_left=user.vacation_budget(now=timezone.now()).days_left)


def _one_space(name: str) -> str:
    """Runs of spaces become one, so that "Ann  Lee" cannot pose as a second "Ann Lee"."""
    return " ".join(part for part in name.split(" ") if part)
