"""The season's record: every change to a season writes an entry here, in words its players read.

The entries are ``AuditEntry`` rows, shown on the season's page (``selectors.season_audit``); their
sentences are put together with ``leagues.wording``.
"""

from __future__ import annotations

from typing import Any

from accounts.models import User
from leagues.models import AuditEntry, Fixture, Season


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
