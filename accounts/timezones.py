"""The time zones a player chooses from: the usual Area/City names, not every entry of the database."""

from __future__ import annotations

import zoneinfo
from functools import cache

# Areas people live in; "Etc/GMT+3", "Factory", "localtime", "posixrules", "US/Pacific" and the like are
# aliases or technical entries that make the list long and confusing.
AREAS = ("Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific")


@cache
def time_zone_names() -> tuple[str, ...]:
    """Sorted Area/City names (``Europe/Berlin``, ``America/Argentina/Buenos_Aires``), plus ``UTC``."""
    names = {
        name
        for name in zoneinfo.available_timezones()
        if "/" in name
        and name.split("/", 1)[0] in AREAS
        and not name.startswith("posix")
        and not name.startswith("right/")
    }
    return ("UTC", *sorted(names))


def time_zone_choices() -> list[tuple[str, str]]:
    """For a form's select: the value, and the name as people read it (``America/New York``)."""
    return [(name, name.replace("_", " ")) for name in time_zone_names()]
