"""The one exception family for what a person did wrong, at the bottom of the house where every app can raise it.

Services raise a ``Refused`` (or a subclass) whose message is a sentence for
the person; views catch this family only. Anything else that escapes a service
(a ``ValueError`` from a bug, an engine error) is a bug and is treated as one.
The subclasses live with the app whose refusals they name (a move, a seat: the app of matches).
"""

from __future__ import annotations


class Refused(Exception):
    """The base of every refusal in the project; ``str(exc)`` is the message for the person."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message
