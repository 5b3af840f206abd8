"""The club invitation a visitor carries: opened before having an account, it survives sign-up and login.

A visitor who follows a club invitation's link while logged out keeps its token in the session, as a
match invitation's is kept (``games.invitations``); once they log in, or sign up and confirm their
address, ``leagues.account_adapter.AccountAdapter`` joins them to the club and leads them to its page.
The token in the link is the credential, as it is for ``club_join``.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.utils import timezone

from leagues.models import ClubInvitation
from leagues.selectors import invitation_for

SESSION_KEY = "parlour_club_invitation"


def club_invitation_remember(request: HttpRequest, token: str) -> None:
    request.session[SESSION_KEY] = token


def club_invitation_forget(request: HttpRequest) -> None:
    request.session.pop(SESSION_KEY, None)


def club_invitation_in_session(request: HttpRequest | None) -> ClubInvitation | None:
    """The club invitation the visitor opened in this browser, used or not; None without one."""
    session = getattr(request, "session", None)
    token = session.get(SESSION_KEY) if session is not None else None
    return invitation_for(token=token) if isinstance(token, str) and token else None


def club_invitation_open_to(*, email: str) -> ClubInvitation | None:
    """The newest open club invitation to this address (invitations are stored lower-cased by ``club_invite``)."""
    found = ClubInvitation.objects.filter(email=email.strip().lower(), accepted_at=None, expires_at__gt=timezone.now())
    return found.select_related("club").order_by("-created_at").first()
