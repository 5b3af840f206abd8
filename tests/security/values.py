"""Crafted values the fuzz probes share: numbers no form should take, the calendar's ends, and text and JSON
that a database cannot store.

Each probe file draws from these as well as from its own values; they are the inputs that were a 500 once.
"""

from __future__ import annotations

from hypothesis import strategies as st

UNICODE_DIGITS = "0123456789²³¹٣۴߅१๓໕༣၃႓៣０１９𝟎𝟗-+.eE_ "
# float() takes every one of these; the first ones are no number at all, the rest too large for a timedelta,
# a JSON column or any count the site keeps.
NON_FINITE = ["1e309", "-1e309", "inf", "-inf", "Infinity", "nan", "NaN", "9" * 5000]
HUGE_NUMBERS = ["1e10", "1e30", str(10**30), "24000000000", "-1e30", "0x10", "１２", "1_000", "1e-300"]
ODD_NUMBERS = st.one_of(
    st.sampled_from(NON_FINITE),
    st.sampled_from(HUGE_NUMBERS),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.floats().map(str),
    st.text(alphabet=UNICODE_DIGITS, max_size=8),
)
# The first and last days Python and the databases hold, and moments a time zone or a few weeks push past them.
CALENDAR_ENDS = ["0001-01-01", "9999-12-31", "9999-12-25", "0001-01-02", "1999-12-31", "2200-01-01"]
CALENDAR_END_TIMES = ["0001-01-01T00:00", "9999-12-31T23:59", "9999-12-31T16:00", "0001-01-01T07:59"]
# Text PostgreSQL refuses (NUL) or that is blank to the eye; posted form data arrives as UTF-8, so a lone
# surrogate can only come inside JSON, as an escape.
ODD_TEXT = ["", " ", "\x00", "a\x00b", "\u202e", "\u200b", "\ufffd", "x" * 5000, "<script>alert(1)</script>"]
TEXT = st.one_of(st.text(max_size=60), st.sampled_from(ODD_TEXT))
# JSON that json.loads takes and a database does not: lone surrogates and NUL as escapes, numbers past a float.
JSON_ESCAPES = [
    '"\\ud800"',
    '"\\udfff"',
    '"a\\ud800b"',
    '"\\u0000"',
    '{"\\ud800": 1}',
    '["\\u0000"]',
    "1e400",
    "-1e400",
]
