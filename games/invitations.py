"""Reads for open invitations: by token, by the player's verified addresses, and the one a visitor carries.

A visitor who opens an invitation link before having an account keeps its token in the session;
sign-up, the confirmation of the address and the login then lead back to the seat
(``games.account_adapter.AccountAdapter``). The token in the link is the credential: whoever holds it
may take the seat, which is why a token never appears in a page but the invitee's own.
"""

from __future__ import annotations

import re

from allauth.account.models import EmailAddress
from django.db.models import Q, QuerySet
from django.db.models.functions import Lower
from django.http import HttpRequest
from django.utils import timezone

from accounts.models import User
from games.models import Match, Seat

SESSION_KEY = "parlour_invitation"
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def open_invitations() -> QuerySet[Seat]:
    """Seats of waiting matches that wait for an invited player, with the match and its creator."""
    unexpired = Q(match__expires_at__isnull=True) | Q(match__expires_at__gt=timezone.now())
    return (
        Seat.objects.filter(unexpired, joined=False, match__status=Match.Status.WAITING)
        .exclude(invite_token="")
        .select_related("match", "match__created_by")
    )


def invitation_by_token(token: str) -> Seat | None:
    """The open invitation with this token; None for a used, cancelled or malformed one.

    Tokens are URL-safe base64 (secrets.token_urlsafe); anything else, a NUL byte say, which PostgreSQL
    refuses in a query, is not one of ours.
    """
    if not isinstance(token, str) or TOKEN.fullmatch(token) is None:
        return None
    return open_invitations().filter(invite_token=token).first()


def invitations_for(*, user: User) -> list[Seat]:
    """Every open invitation to one of the player's verified addresses (or linked to their account), newest first.

    One query: the addresses are a subquery. Invitations are stored lower-cased (``match_create``).
    """
    verified = EmailAddress.objects.filter(user=user, verified=True).values(address=Lower("email"))
    return list(
        open_invitations()
        .filter(Q(invite_email__in=verified) | Q(user=user))
        .only(*INVITATION_ROW_FIELDS)
        .order_by("-match__created_at", "number")[:50]
    )


# What a dashboard row of an invitation shows: the seat, the match's game and size, the creator's name (not
# the match's snapshot and logs, nor the creator's private fields).
INVITATION_ROW_FIELDS = (
    *("id", "match", "number", "user", "joined", "invite_email", "invite_token"),
    *("match__id", "match__game", "match__players", "match__status", "match__created_by"),
    *("match__created_by__id", "match__created_by__email", "match__created_by__display_name"),
)


def invitations_to(*, email: str) -> list[Seat]:
    """Open invitations to this address, newest first."""
    return list(open_invitations().filter(invite_email__iexact=email.strip()).order_by("-match__created_at")[:10])


def invitation_remember(request: HttpRequest, token: str) -> None:
    request.session[SESSION_KEY] = token


def invitation_forget(request: HttpRequest) -> None:
    request.session.pop(SESSION_KEY, None)


def invitation_in_session(request: HttpRequest) -> Seat | None:
    """The open invitation the visitor opened in this browser, if it is still open."""
    session = getattr(request, "session", None)
    token = session.get(SESSION_KEY) if session is not None else None
    return invitation_by_token(token) if token else None
