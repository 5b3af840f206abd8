"""What leagues refuse: the ``Refused`` family (``games.errors``), with a message for the person who asked.

Views catch ``Refused``; ``NotOrganizer`` may be a 403, ``NumbersRefused`` is said beside the numbers on
the season's finish form.
"""

from __future__ import annotations

from games.errors import Refused


class LeagueRefused(Refused):
    """Something a person asked of a club, league or season that cannot be done (the message says why)."""


class NotOrganizer(LeagueRefused):
    """Only the club's organizers may do this; views may answer 403."""


class NumbersRefused(LeagueRefused):
    """The promotion and relegation numbers do not fit the divisions: a form shows it beside the numbers."""
