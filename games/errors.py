"""The one exception family for what a person did wrong.

Services raise a ``Refused`` (or a subclass) whose message is a sentence for
the person; views catch this family only. Anything else that escapes a service
(a ``ValueError`` from a bug, an engine error) is a bug and is treated as one.
"""

from __future__ import annotations


class Refused(Exception):
    """A request the app will not carry out; ``str(exc)`` is the message for the person."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message
