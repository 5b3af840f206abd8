"""Who may see and do what on the league pages: the helpers every league view starts with.

A private club is a 404 to anyone outside it; what only an organizer may do is a 403 before any form is
read (``organizer_only``); a ``NotOrganizer`` refusal from a service is a 403 too (``refused``).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.urls import reverse

from accounts.http import HtmxHttpRequest
from accounts.models import User
from games.errors import Refused
from leagues import selectors
from leagues.errors import LeagueRefused, NotOrganizer
from leagues.models import Club, League, Membership, Season

ORGANIZER = Membership.Role.ORGANIZER


def club_access(request: HtmxHttpRequest, slug: str) -> tuple[Club, str | None]:
    """The club and the reader's role in it."""
    club = found(selectors.club_get(slug=slug))
    return club, role_in(request, club)


def league_access(request: HtmxHttpRequest, club_slug: str, league_slug: str) -> tuple[League, str | None]:
    league = found(selectors.league_get(club_slug=club_slug, league_slug=league_slug))
    return league, role_in(request, league.club)


def season_access(
    request: HtmxHttpRequest,
    club_slug: str,
    league_slug: str,
    number: int,
    *,
    with_void: bool = False,
    with_standings: bool = False,
) -> tuple[Season, str | None]:
    """The season and the reader's role, from one query: the role (a subquery) comes with the season,
    ``with_void`` whether it has void tables, ``with_standings`` the key of its standings tables."""
    row = selectors.season_get(
        club_slug=club_slug,
        league_slug=league_slug,
        number=number,
        reader=user_of(request),
        with_void=with_void,
        with_standings=with_standings,
    )
    season = found(row)
    return season, visible(season.league.club, getattr(season, "reader_role", None))


def found[T](row: T | None) -> T:
    """What a page's address names, or its 404."""
    if row is None:
        raise Http404("Not found.")
    return row


def role_in(request: HtmxHttpRequest, club: Club) -> str | None:
    """The reader's role in the club."""
    return visible(club, selectors.club_role(club=club, user=user_of(request)))


def visible(club: Club, role: str | None) -> str | None:
    """The reader's role, once it is sure they may see the club: a private club does not exist for those outside it."""
    if not club.public and role is None:
        raise Http404("No such club.")
    return role


def organizer_only(role: str | None) -> None:
    if role != ORGANIZER:
        raise PermissionDenied("Only the club's organizers can do that.")


def member_only(role: str | None) -> None:
    if role is None:
        raise PermissionDenied("Join the club first.")


def user_of(request: HtmxHttpRequest) -> User | None:
    return request.user if isinstance(request.user, User) else None


def refused(request: HtmxHttpRequest, exc: Refused) -> None:
    if isinstance(exc, NotOrganizer):
        raise PermissionDenied(str(exc))
    messages.error(request, str(exc))


def check_form(form: forms.Form) -> None:
    """A form that does not validate is refused with its first error, so the page says it in a sentence."""
    if not form.is_valid():
        raise LeagueRefused(str(next(iter(form.errors.values()))[0]))


def season_url(season: Season, page: str = "leagues-season") -> str:
    return reverse(page, args=[season.league.club.slug, season.league.slug, season.number])


def season_context(season: Season, role: str | None) -> dict[str, Any]:
    return {
        "season": season,
        "league": season.league,
        "club": season.league.club,
        "role": role,
        "is_organizer": role == ORGANIZER,
    }
