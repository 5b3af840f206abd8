"""The standings page's plain data: rows of ready strings, the sort, the points chart and the export lines.

A 500-player table is 500 rows of a dozen cells: every number is formatted here once, as a string,
so that the template only looks variables up (a filter or a localized number per cell is what made
the page slow). Markup stays in ``templates/leagues/standings.html``.
"""

from __future__ import annotations

import math
from typing import Any, TypedDict

from django.utils.safestring import SafeString

from leagues import ratings, selectors, tiebreaks
from leagues.models import Fixture, Season

# Columns sorted lowest first; every other column puts the biggest number on top.
ASCENDING = {"name", "rank", "fewest_bot_moves", "fewest_timeouts", "lowest_bot_share"}
SORTS = {"rank", "name", "played", "points", "rating", *tiebreaks.TIEBREAKS}
# Column headings short enough for a phone; the league page names each tie-break in full.
COLUMN_LABELS = {
    "wins": "Wins",
    "head_to_head": "Head-to-head",
    "game_score": "Game score",
    "opponents_rating": "Opponents' rating",
    "fewest_bot_moves": "Bot moves",
    "fewest_timeouts": "Timeouts",
    "lowest_bot_share": "By bot",
}
# A league table is read from the top: the first rows of each division by default, "show all" for the rest.
PAGE_ROWS = 100
CHART_PLAYERS = 5
# A dot (with its value on hover) per leader and round while they are far enough apart to point at;
# a longer season draws the lines and a dot for the last round only.
CHART_DOTS = 12
CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 320, 140, 12
# Room left of the y-axis for its labels (three digits at the chart's small type).
CHART_LEFT = 30
NONE = "–"


def number(value: float | None) -> str:
    """As ``floatformat:"-2"`` shows it: whole numbers bare, others with two decimals; a dash for none."""
    if value is None:
        return NONE
    if value == int(value):
        return _figure(str(int(value)))
    return _figure(f"{value:.2f}")


def rating(value: float | None) -> str:
    """A stored rating on the shown scale (``ratings.shown``: a newcomer has 1,000), or a dash for none."""
    return NONE if value is None else _figure(ratings.shown_text(value))


def shown_rating(value: float | None) -> int | None:
    """A stored rating on the shown scale as a number, for the exports."""
    return None if value is None else ratings.shown(value)


def opponents_rating(row: selectors.StandingRow) -> int | None:
    """The average rating of the people a player has met, on the shown scale; None before they met anyone."""
    return ratings.shown(row.opponents_rating) if row.opponents_met else None


def _cell(row: selectors.StandingRow, key: str) -> float | None:
    """A tie-break column's value: ratings on the shown scale, every other number as it is."""
    return opponents_rating(row) if key == "opponents_rating" else row.value(key)


def _cell_text(row: selectors.StandingRow, key: str) -> str:
    if key == "opponents_rating":
        return rating(row.opponents_rating if row.opponents_met else None)
    if key == "lowest_bot_share":
        return share(row.bot_share)
    return number(row.value(key))


def share(value: float | None) -> str:
    """A share as a whole percentage ("12%"), or a dash before there is anything to share."""
    return NONE if value is None else _figure(f"{round(100 * value)}%")


def reliability(row: selectors.StandingRow) -> str:
    """The reliability column: timeouts, then the share of the player's moves a bot made ("2 · 12%")."""
    return _figure(f"{row.timeouts} · {share(row.bot_share)}")


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
    reliability: str  # timeouts and the share a bot played, apart from skill
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
            cells=[_cell_text(row, key) for key in keys],
            rating=rating(row.rating),
            reliability=reliability(row),
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
    Leaders whose totals are the same in every round are one line under one legend entry naming them all:
    drawn apart, the later line would hide the earlier one and the legend would name a line nobody sees.
    The y-axis is labelled at round numbers of points (``_y_ticks``).
    """
    leaders = rows[:CHART_PLAYERS]
    # The leaders' rounds only: reading every player's rounds was a third of a big table's time.
    played = max((row.last_round for row in leaders), default=0)
    if not played:
        return None
    lines: dict[tuple[float, ...], list[str]] = {}
    for row in leaders:
        lines.setdefault(tuple(row.cumulative[:played]), []).append(row.name)
    # With the game's own score as points a total can be below nothing: the axis then starts below 0.
    top = max(0.0, *(max(totals) for totals in lines))
    low = min(0.0, *(min(totals) for totals in lines))
    top = top if top > low else low + 1.0
    step = (CHART_WIDTH - CHART_LEFT - CHART_PAD) / played
    bottom = CHART_HEIGHT - CHART_PAD

    def y(total: float) -> str:
        return _coordinate(bottom - (total - low) / (top - low) * (CHART_HEIGHT - 2 * CHART_PAD))

    series = []
    for n, (totals, names) in enumerate(lines.items(), start=1):
        dots = [
            {"x": _coordinate(CHART_LEFT + (i + 1) * step), "y": y(total), "round": str(i + 1), "total": number(total)}
            for i, total in enumerate(totals)
        ]
        points = " ".join([f"{CHART_LEFT},{y(0.0)}", *(f"{d['x']},{d['y']}" for d in dots)])
        shown = dots if played <= CHART_DOTS else dots[-1:]
        series.append({"name": ", ".join(names), "n": str(n), "points": points, "dots": shown})
    ticks = [{"x": _coordinate(CHART_LEFT + r * step), "round": str(r)} for r in range(1, played + 1)]
    levels = [{"y": y(value), "label": number(value)} for value in _y_ticks(low, top)]
    return {
        **{"width": str(CHART_WIDTH), "height": str(CHART_HEIGHT), "pad": str(CHART_PAD), "left": str(CHART_LEFT)},
        **{
            "bottom": str(bottom),
            "right": str(CHART_WIDTH - CHART_PAD),
            "label_x": str(CHART_LEFT - 4),
            "zero": y(0.0),
        },
        **{"rounds": played, "top": number(top), "series": series, "ticks": ticks, "levels": levels},
        **{"leaders": str(len(leaders))},
    }


def _y_ticks(low: float, top: float) -> list[float]:
    """The y-axis labels: ``low`` and ``top`` (the leader's total) and round steps between them, with 0 among them.

    A step is 1, 2 or 5 times a power of ten, about a third of the range; a step too close to the top is left
    out so that two labels never overlap.
    """
    span = top - low
    magnitude = 10 ** math.floor(math.log10(span / 3))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= span / 3)
    first = math.ceil(low / step - 1e-9)
    inside = [round(step * i, 9) for i in range(first, math.floor(top / step + 1e-9) + 1)]
    near = 0.15 * span
    kept = [v for v in inside if v - low >= near or v == low]
    return sorted({low, *(v for v in kept if top - v >= near), top})


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
            **{key: _cell(row, key) for key in columns},
            "rating": shown_rating(row.rating),
            "form": " ".join(str(f.get("place", "")) for f in row.form),
            # Reliability, whatever the tie-breaks: timeouts, every move at their seats, the bot's part of them.
            "timeouts": row.timeouts,
            "moves": row.moves,
            "bot_moves": row.bot_moves,
            "bot_share": None if row.bot_share is None else round(row.bot_share, 4),
        }
        for row in rows
    ]


# How each counted table was decided, in the words of the results export.
DECIDED: dict[str, str] = {
    Fixture.How.PLAYED: "played",
    Fixture.How.FORFEIT: "forfeit",
    Fixture.How.ADJUSTED: "adjusted",
    Fixture.How.AS_STANDS: "as it stands",
    Fixture.How.VOID: "void",
}
RESULT_COLUMNS = ["round", "division", "table", "seat", "player", "place", "points", "game_score", "decided"]
BOT = "Bot"


def result_lines(found: selectors.SeasonResults) -> list[dict[str, Any]]:
    """A line per seat of every counted table, in playing order: the rows of the season's results CSV.

    A void table has its players and no place, points or score; a bot's seat is named "Bot".
    """
    lines = []
    for fixture in found.fixtures:
        result = fixture.result or {}
        for seat, entrant in enumerate(fixture.seats):
            lines.append(
                {
                    "round": fixture.round.number,
                    "division": fixture.round.division,
                    "table": fixture.table_number,
                    "seat": seat + 1,
                    "player": BOT if entrant is None else found.names.get(entrant, "?"),
                    "place": _at(result, "places", seat),
                    "points": _at(result, "points", seat),
                    "game_score": _at(result, "scores", seat),
                    "decided": DECIDED.get(fixture.how, fixture.how),
                }
            )
    return lines


def _at(result: dict[str, Any], key: str, seat: int) -> Any:
    values = result.get(key) or []
    return values[seat] if seat < len(values) else None
