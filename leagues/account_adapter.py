"""allauth's hooks, with club invitations: one opened before sign-up makes the visitor a member at their login.

Set with ``ACCOUNT_ADAPTER = "leagues.account_adapter.AccountAdapter"`` and the login form with
``ACCOUNT_FORMS = {"login": "leagues.account_adapter.InvitedLoginForm"}``. It keeps every match invitation
hook of ``games.account_adapter.AccountAdapter`` (games knows nothing of clubs, so the club's part lives
here). Every way in ends in ``login``: a password login, a login by code, a sign-up without verification
and the login that follows the confirmation of the address; the visitor joins there, and
``get_login_redirect_url`` (or the invitation page itself, when the login had a ``next``) leads to the club.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from allauth.account.models import EmailAddress
from django.contrib import messages
from django.contrib.auth.base_user import AbstractBaseUser
from django.http import HttpRequest
from django.urls import reverse

from accounts.errors import Refused
from accounts.models import User
from games.account_adapter import AccountAdapter as GamesAccountAdapter
from games.account_adapter import InvitedLoginForm as GamesInvitedLoginForm
from games.invitations import invitation_in_session, invitations_to
from leagues.clubs import club_join, invitation_url
from leagues.invitations import (
    club_invitation_forget,
    club_invitation_in_session,
    club_invitation_open_to,
    club_invitation_remember,
)


class AccountAdapter(GamesAccountAdapter):
    def login(self, request: HttpRequest, user: AbstractBaseUser) -> None:
        """Log in, then accept the club invitation the visitor followed before, if it is still open."""
        super().login(request, user)
        invitation = club_invitation_in_session(request)
        if invitation is None or invitation.accepted_at is not None or not isinstance(user, User):
            return
        try:
            membership = club_join(user=user, token=invitation.token)
        except Refused as exc:
            club_invitation_forget(request)
            messages.error(request, str(exc))
        else:
            messages.success(request, f"Welcome to {membership.club.name}.")

    def get_login_redirect_url(self, request: HttpRequest) -> str:
        """After a login without a ``next`` that accepted a club invitation: the club's page."""
        return self.club_joined_url(request) or super().get_login_redirect_url(request)

    def get_signup_redirect_url(self, request: HttpRequest) -> str:
        """After a sign-up that logged in at once (no address check) and accepted a club invitation: the club."""
        return self.club_joined_url(request) or super().get_signup_redirect_url(request)

    def club_joined_url(self, request: HttpRequest) -> str:
        """The page of the club this login just joined from the invitation the browser carried; "" if none."""
        invitation = club_invitation_in_session(request)
        if invitation is None or invitation.accepted_by_id != getattr(request.user, "pk", None):
            return ""
        club_invitation_forget(request)
        return reverse("leagues-club", args=[invitation.club.slug])

    def get_email_verification_redirect_url(self, email_address: EmailAddress) -> str:
        """After the address is confirmed: a seat waiting for it first (the games hook), else its club invitation.

        The club invitation is the one this browser carries, or, when the mail was opened on another device,
        the newest open one to the confirmed address: the browser then carries it, so the login that follows
        makes the visitor a member.
        """
        if invitation_in_session(self.request) is not None or invitations_to(email=email_address.email):
            return super().get_email_verification_redirect_url(email_address)
        invitation = club_invitation_in_session(self.request)
        if invitation is None or not invitation.is_open():
            invitation = club_invitation_open_to(email=email_address.email)
        if invitation is None:
            return super().get_email_verification_redirect_url(email_address)
        club_invitation_remember(self.request, invitation.token)
        url = invitation_url(invitation.token)
        if self.request.user.is_authenticated:
            return url
        return f"{reverse('account_login')}?{urlencode({'next': url})}"


class InvitedLoginForm(GamesInvitedLoginForm):
    """The login form, with the invited address filled in for a visitor who came from a club invitation too."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields.get("login")
        if field is None or self.is_bound or field.initial:
            return
        invitation = club_invitation_in_session(getattr(self, "request", None))
        if invitation is not None and invitation.is_open():
            field.initial = invitation.email
