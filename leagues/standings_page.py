"""The standings page's tables, rendered once for every reader who sees them alike.

What the tables show comes from the season's Standing lines, the players' names and ratings, the league's
tie-breaks and the season's rounds and divisions. The season's read brings a digest of the first two
(``selectors.STANDINGS_DIGEST``: the lines' count, newest id and revisions, which every result, adjustment,
rebuild, division set and rename moves (``leagues.revisions`` for the renames), and the ratings' matches);
the key adds the rest, the page's address and query (the column sorted by, all rows or the first ones) and
the reader when they play in the season (their line is marked, and found under the first rows). A change is
a new key: nothing is ever invalidated, and the page cache's timeout only bounds memory. The key is read
before the tables are, so a table kept under a key is never older than the key. The tables hold nothing for
organizers alone: the page around them, which is rendered for each reader, has the controls.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.cache import caches
from django.utils.safestring import SafeString, mark_safe

from config.cache import part_key
from leagues.models import Season
from leagues.presenters import SORTS


def tables_key(
    *, season: Season, path: str, sort: str, show_all: bool, limit: int | None, viewer: int | None
) -> str | None:
    """The key of the season's tables as this reader asks for them; None for a column nobody links to."""
    if sort and sort not in SORTS:
        return None  # a made-up ?sort= is shown as asked, and makes no entry for each string tried
    if not hasattr(season, "standings_digest"):
        return None  # read without its digest (selectors.season_get's with_standings): nothing to key by
    league = season.league
    # The season's creation time too: ids come round again in a test database rolled back.
    digest = season.standings_digest or {}  # a season with no line yet has no row to aggregate
    lines = (season.pk, season.created_at.isoformat(), sorted(digest.items()))
    shown = (league.game, list(league.tiebreaks), season.rounds, season.divisions, limit)
    return "leagues:standings:" + part_key(*lines, *shown, path, sort, show_all, viewer)


def tables_html(*, key: str | None, render: Callable[[], str]) -> SafeString:
    """The tables from the page cache under ``key``, or ``render``-ed and kept there; without a key, rendered."""
    # mark_safe: the text is a template's output, escaped where the template rendered it.
    if key is None:
        return mark_safe(render())
    cache = caches["template_fragments"]
    html = cache.get(key)
    if html is None:
        html = render()
        cache.set(key, html)
    return mark_safe(html)
