"""Every result of a season as a CSV: a line per seat of each counted table, for spreadsheets and club records.

Whoever may read the season's standings may download it, as the standings' own CSV: everyone for a
public club, its members for a private one (a private club is a 404 to anyone outside it). It takes
no input but its address.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.views.decorators.http import require_GET

from accounts.http import HtmxHttpRequest
from games.spreadsheets import write_csv
from leagues import selectors
from leagues.access import season_access
from leagues.presenters import RESULT_COLUMNS, result_lines


@require_GET
def results_export(request: HtmxHttpRequest, club_slug: str, league_slug: str, number: int) -> HttpResponse:
    season, _role = season_access(request, club_slug, league_slug, number)
    lines = result_lines(selectors.season_results(season=season))
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    # Names are the players' own text: write_csv keeps a spreadsheet from running one as a formula.
    write_csv(response, fieldnames=RESULT_COLUMNS, rows=lines)
    response["Content-Disposition"] = f'attachment; filename="{season.league.slug}-season-{season.number}-results.csv"'
    return response
