"""The records: every change to a season, and every change to a club's invitations and members, is written here.

The entries are ``AuditEntry`` rows in words their readers understand: a season's (``audit``) are shown on
the season's page (``selectors.season_audit``), a club's (``club_audit``, no season) to its organizers on
the members page (``selectors.club_record``). Their sentences are put together with ``leagues.wording``.
"""

from __future__ import annotations

from typing import Any

from accounts.models import User
from leagues.models import AuditEntry, Club, Fixture, Season


def audit(
    season: Season | int,
    kind: str,
    text: str,
    *,
    actor: User | None = None,
    fixture: Fixture | None = None,
    data: dict[str, Any] | None = None,
) -> AuditEntry:
    season_id = season if isinstance(season, int) else season.pk
    return AuditEntry.objects.create(
        season_id=season_id, kind=kind, text=text[:500], actor=actor, fixture=fixture, data=data or {}
    )


def club_audit(
    club: Club, kind: str, text: str, *, actor: User | None = None, data: dict[str, Any] | None = None
) -> AuditEntry:
    """An entry of the club's own record: an invitation sent, resent, cancelled or accepted; a member who joined,
    whose role changed, who left or was removed."""
    return AuditEntry.objects.create(club=club, kind=kind, text=text[:500], actor=actor, data=data or {})
