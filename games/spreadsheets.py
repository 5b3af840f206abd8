"""CSV that a spreadsheet opens as data: no cell it reads can start a formula (OWASP's CSV-injection rule).

Excel, LibreOffice and Google Sheets take a cell that starts with ``=``, ``+``, ``-`` or ``@`` for a
formula (a leading tab or carriage return can hide one), and a formula can fetch an address, show a
link to a phishing page or, in older versions, run a program on the reader's computer. A display name
is enough to plant one in a league's standings. Every CSV the app writes goes through ``write_csv``;
it lives beside the other shared pieces in ``games`` so that any app's export can use it.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> int | float | str:
    """A value as it may go into a CSV cell: a number the app computed stays a number, text is defused.

    Only a real ``int`` or finite ``float`` counts as a number: the csv module writes it as digits with
    at most a leading minus and an exponent, which every spreadsheet reads as that number, so a score
    of -3 stays -3 (and sorts as one). Anything else is text (a name, a "-1+1" someone typed, "-inf"),
    and text that starts like a formula gets a leading ``'``, which spreadsheets read as "this is text".
    """
    if value is None:
        return ""
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return value
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def write_csv(out: SupportsWrite[str], *, fieldnames: Sequence[str], rows: Iterable[Mapping[str, object]]) -> None:
    """The heading line and a line per row, every cell (headings too) through ``csv_cell``.

    Every cell is also wrapped in double quotes, OWASP's other half of the rule: a spreadsheet set to
    split on ``;`` keeps ``"a;=1+2"`` as one cell, where an unquoted ``a;=1+2`` would give it a second
    cell that starts a formula. The csv module doubles a quote inside a cell, so text cannot end its
    cell early.
    """
    writer = csv.writer(out, quoting=csv.QUOTE_ALL)
    writer.writerow([csv_cell(name) for name in fieldnames])
    writer.writerows([csv_cell(row.get(name)) for name in fieldnames] for row in rows)
