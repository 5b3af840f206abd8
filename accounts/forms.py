"""Forms a player fills in about themselves."""

from __future__ import annotations

from django import forms
from django.http import HttpRequest

from accounts.models import User


class SignupForm(forms.Form):
    """Extra fields on allauth's sign-up form; allauth calls ``signup`` once the user exists."""

    display_name = forms.CharField(
        max_length=40,
        required=False,
        label="Display name",
        help_text="The name other players see. Leave it empty to use the start of your email address.",
    )

    def signup(self, request: HttpRequest, user: User) -> None:
        user.display_name = self.cleaned_data.get("display_name", "").strip()
        user.save(update_fields=["display_name"])


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["display_name", "time_zone", "notify", "auto_forced_moves"]

    def clean_display_name(self) -> str:
        return self.cleaned_data["display_name"].strip()
