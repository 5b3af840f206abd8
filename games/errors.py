"""The refusals of matches and seats; their base, ``Refused``, is ``accounts.errors.Refused``, imported here.

Games and leagues code takes ``Refused`` from here too (``from games.errors import Refused``).

Services raise a ``Refused`` (or a subclass) whose message is a sentence for
the person; views catch this family only. Anything else that escapes a service
(a ``ValueError`` from a bug, an engine error) is a bug and is treated as one.
"""

from __future__ import annotations

from accounts.errors import Refused


class MoveRefused(Refused):
    """A move the app will not take: not this seat, not this turn, not a move of the game."""


class NotSeated(MoveRefused):
    """The person has no seat at this table; ``private`` says whether they may even know it exists."""

    def __init__(self, message: str, *, private: bool) -> None:
        super().__init__(message)
        self.private = private


class Stale(MoveRefused):
    """The move was chosen on a table that has changed since."""


class IllegalMove(MoveRefused):
    """The engine refused the action; the message is the engine's, which names what is wrong."""
