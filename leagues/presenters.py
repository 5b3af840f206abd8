"""The standings page's plain data: rows of ready strings, the sort, the points chart and the export lines.

A 500-player table is 500 rows of a dozen cells: every number is formatted here once, as a string,
so that the template only looks variables up (a filter or a localized number per cell is what made
the page slow). Markup stays in ``templates/leagues/standings.html``.
"""

from __future__ import annotations

from typing import Any, TypedDict

from django.utils.safestring import SafeString

from leagues import selectors, tiebreaks
from leagues.models import Season

# Columns sorted lowest first; every other column puts the biggest number on top.
ASCENDING = {"name", "rank", "fewest_bot_moves"}
SORTS = {"rank", "name", "played", "points", "rating", *tiebreaks.TIEBREAKS}
# Column headings short enough for a phone; the league page names each tie-break in full.
COLUMN_LABELS = {
    "wins": "Wins",
    "head_to_head": "Head-to-head",
    "game_score": "Game score",
    "opponents_rating": "Opponents' rating",
    "fewest_bot_moves": "Bot moves",
}
# A league table is read from the top: the first rows of each division by default, "show all" for the rest.
PAGE_ROWS = 100
CHART_PLAYERS = 5
# A dot (with its value on hover) per leader and round while they are far enough apart to point at;
# a longer season draws the lines and a dot for the last round only.
CHART_DOTS = 12
CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 320, 140, 12
NONE = "–"


def number(value: float | None) -> str:
    """As ``floatformat:"-2"`` shows it: whole numbers bare, others with two decimals; a dash for none."""
    if value is None:
        return NONE
    if value == int(value):
        return _figure(str(int(value)))
    return _figure(f"{value:.2f}")


def rating(value: float | None) -> str:
    return NONE if value is None else _figure(f"{value:.1f}")


def _figure(text: str) -> SafeString:
    # Digits, a sign and a point have nothing to escape: marked so, the template does not escape each of
    # the thousands of figures of a big table again (escaping was a third of its rendering time).
    return SafeString(text)


# Dictionaries rather than objects: a template looks a name up in a dictionary first, and an object's
# attribute only after that lookup has failed (an exception for each of the dozen cells of every row).
class FormMark(TypedDict):
    place: str
    title: str  # "2 of 4"
    css: str  # "place first", "place last" or "place"


class DisplayRow(TypedDict):
    """One standings line as the template shows it: strings only."""

    rank: str
    name: str
    url: str
    played: str
    points: str
    cells: list[str]  # one per tie-break column after points, in the league's order
    rating: str
    form: list[FormMark]
    me: bool


def standings_table(
    division: int | None,
    rows: list[selectors.StandingRow],
    season: Season,
    *,
    sort: str,
    limit: int | None,
    keys: list[str],
    player_url: str,
    reader_id: int | None,
) -> dict[str, Any]:
    """One division's table: its rows sorted and cut to ``limit`` (None: all), and the chart of its leaders."""
    ordered = sort_rows(rows, sort)
    shown = ordered if limit is None else ordered[:limit]
    # A player far down a big table still finds their own line, under the first rows.
    mine = [row for row in ordered[len(shown) :] if row.user_id == reader_id]
    return {
        "division": division,
        "rows": display_rows(shown, keys=keys, player_url=player_url, reader_id=reader_id),
        "mine": display_rows(mine, keys=keys, player_url=player_url, reader_id=reader_id),
        "chart": chart_for(rows, season),
        "hidden": len(rows) > len(shown),
        "shown": str(len(shown)),
        "total": str(len(rows)),
    }


def display_rows(
    rows: list[selectors.StandingRow], *, keys: list[str], player_url: str, reader_id: int | None
) -> list[DisplayRow]:
    """``player_url`` is a player's page address with ``{}`` where the user id goes (one reverse for all rows)."""
    return [
        DisplayRow(
            rank=_figure(f"{row.rank}=" if row.shared else str(row.rank)),
            name=row.name,
            url=player_url.format(row.user_id),
            played=_figure(str(row.played)),
            points=number(row.points),
            cells=[number(row.value(key)) for key in keys],
            rating=rating(row.rating),
            form=[_mark(f) for f in row.form],
            me=row.user_id == reader_id,
        )
        for row in rows
    ]


def _mark(entry: dict[str, Any]) -> FormMark:
    place, of = entry.get("place"), entry.get("of")
    css = "place first" if place == 1 else "place last" if place == of else "place"
    return FormMark(place=_figure(str(place)), title=f"{place} of {of}", css=css)


def sort_rows(rows: list[selectors.StandingRow], sort: str) -> list[selectors.StandingRow]:
    """The rows by one column, best first; ties (and an unknown column) keep the official order."""
    if sort not in SORTS or sort == "rank":
        return rows
    if sort == "name":
        return sorted(rows, key=lambda row: row.name.casefold())
    known = [(value, row) for row in rows if (value := _sort_value(row, sort)) is not None]
    sign = 1 if sort in ASCENDING else -1
    known.sort(key=lambda pair: sign * pair[0])
    return [row for _v, row in known] + [row for row in rows if _sort_value(row, sort) is None]


def _sort_value(row: selectors.StandingRow, sort: str) -> float | None:
    if sort == "rating":
        return row.rating
    if sort == "played":
        return row.played
    return row.value(sort)


def chart_for(rows: list[selectors.StandingRow], season: Season) -> dict[str, Any] | None:
    """The leaders' running totals after each round as SVG coordinates (strings), from nothing at the start.

    None until a leader has a result. A dot per leader and round played; the lines start at the origin.
    """
    leaders = rows[:CHART_PLAYERS]
    # The leaders' rounds only: reading every player's rounds was a third of a big table's time.
    played = max((row.last_round for row in leaders), default=0)
    if not played:
        return None
    top = max(max(row.cumulative[:played]) for row in leaders) or 1.0
    step = (CHART_WIDTH - 2 * CHART_PAD) / played
    bottom = CHART_HEIGHT - CHART_PAD

    def y(total: float) -> str:
        return _coordinate(bottom - total / top * (CHART_HEIGHT - 2 * CHART_PAD))

    series = []
    for n, row in enumerate(leaders, start=1):
        dots = [
            {"x": _coordinate(CHART_PAD + (i + 1) * step), "y": y(total), "round": str(i + 1), "total": number(total)}
            for i, total in enumerate(row.cumulative[:played])
        ]
        points = " ".join([f"{CHART_PAD},{bottom}", *(f"{d['x']},{d['y']}" for d in dots)])
        shown = dots if played <= CHART_DOTS else dots[-1:]
        series.append({"name": row.name, "n": str(n), "points": points, "dots": shown})
    ticks = [{"x": _coordinate(CHART_PAD + r * step), "round": str(r)} for r in range(1, played + 1)]
    return {
        **{"width": str(CHART_WIDTH), "height": str(CHART_HEIGHT), "pad": str(CHART_PAD)},
        **{"bottom": str(bottom), "right": str(CHART_WIDTH - CHART_PAD)},
        **{"rounds": played, "top": number(top), "series": series, "ticks": ticks, "leaders": str(len(series))},
    }


def _coordinate(value: float) -> str:
    return f"{round(value, 1):g}"


def export_rows(rows: list[selectors.StandingRow], keys: list[str]) -> list[dict[str, Any]]:
    """One flat record per player, in the official order, for CSV and JSON alike: every player, never a page."""
    columns = [k for k in keys if k != "points"]
    return [
        {
            "rank": row.rank,
            "player": row.name,
            "division": row.division,
            "played": row.played,
            "points": row.points,
            **{key: row.value(key) for key in columns},
            "rating": None if row.rating is None else round(row.rating, 2),
            "form": " ".join(str(f.get("place", "")) for f in row.form),
        }
        for row in rows
    ]
