"""How leagues put counts, tables, rounds and results into words, for refusals and the season's record. Pure.

No Django here: the pure standings rules (``leagues.standings``) say their refusals with these too.
Places are ordinals as the match pages write them (``games.presenters.base.ordinal``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.presenters.base import ordinal

if TYPE_CHECKING:
    from leagues.models import Fixture, Round, Season


def plural(count: int, word: str, words: str | None = None) -> str:
    """ "1 table", "2 tables": audit texts are shown as they are written."""
    return f"{count} {word if count == 1 else words or word + 's'}"


def table_name(fixture: Fixture) -> str:
    return f"Table {fixture.table_number} of round {fixture.round.number}"


def round_name(round_: Round, season: Season) -> str:
    return f"Round {round_.number}" + (f" of division {round_.division}" if season.divisions > 1 else "")


def result_text(fixture: Fixture, result: dict[str, Any], names: dict[int, str]) -> str:
    """A table's result in one line, best place first: "Ann 1st (4), a bot 2nd (2), ..."."""
    order = sorted(range(len(fixture.seats)), key=lambda i: result["places"][i])
    parts = []
    for i in order:
        entrant = fixture.seats[i]
        who = names.get(entrant, "?") if entrant is not None else "a bot"
        parts.append(f"{who} {ordinal(result['places'][i])} ({result['points'][i]:g})")
    return ", ".join(parts)
