"""allauth's hooks: a match invitation opened before sign-up survives sign-up, the address check and the login.

Set with ``ACCOUNT_ADAPTER = "games.account_adapter.AccountAdapter"`` and the login form with
``ACCOUNT_FORMS = {"login": "games.account_adapter.InvitedLoginForm"}``. They live here, not in accounts,
because what they remember is a seat: accounts knows nothing of matches.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.forms import LoginForm
from allauth.account.models import EmailAddress
from django.http import HttpRequest
from django.urls import reverse

from games.invitations import invitation_in_session, invitations_to


def _invite_url(token: str) -> str:
    return reverse("games-invite", args=[token])


class AccountAdapter(DefaultAccountAdapter):
    def get_login_redirect_url(self, request: HttpRequest) -> str:
        """After a login without a ``next``: the seat the visitor was invited to, if it still waits."""
        seat = invitation_in_session(request)
        if seat is not None:
            return _invite_url(seat.invite_token)
        return super().get_login_redirect_url(request)

    def get_email_verification_redirect_url(self, email_address: EmailAddress) -> str:
        """After the address is confirmed: the invitation, even in another browser (found by the address).

        A visitor not logged in goes to the login page, which then leads to the seat.
        """
        seat = invitation_in_session(self.request)
        if seat is None:
            found = invitations_to(email=email_address.email)
            seat = found[0] if found else None
        if seat is None:
            return super().get_email_verification_redirect_url(email_address)
        url = _invite_url(seat.invite_token)
        if self.request.user.is_authenticated:
            return url
        return f"{reverse('account_login')}?{urlencode({'next': url})}"


class InvitedLoginForm(LoginForm):
    """The login form, with the invited address filled in when the visitor came from an invitation."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        request = getattr(self, "request", None)
        seat = invitation_in_session(request) if request is not None else None
        if seat is not None and not self.is_bound and "login" in self.fields:
            self.fields["login"].initial = seat.invite_email
