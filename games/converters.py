"""URL converters shared by the apps."""

from __future__ import annotations


class IdConverter:
    """A row id: ASCII digits that fit a 64-bit integer column.

    ``<int:...>`` accepts any length, and an id past 2**63-1 then fails inside the database driver
    (a 500 on SQLite) instead of being a plain "not found". Eighteen digits always fit.
    """

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)
