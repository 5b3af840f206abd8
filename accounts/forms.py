"""Forms a player fills in about themselves."""

from __future__ import annotations

from django import forms
from django.http import HttpRequest

from accounts.models import User
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


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["display_name", "time_zone", "notify", "auto_forced_moves"]

    def clean_display_name(self) -> str:
        return _one_space(self.cleaned_data["display_name"])


def _one_space(name: str) -> str:
    """Runs of spaces become one, so that "Ann  Lee" cannot pose as a second "Ann Lee"."""
    return " ".join(part for part in name.split(" ") if part)
