"""What a display name may be: something a person is called, not something the table says.

Names are shown at every table, in the log, the chat and the mails, next to bots and empty seats
whose names the site makes up ("Bot 2 (basic)", "Seat 3", "Bob (invited)"). A name must not pass for
one of those, nor for the site itself, and must not hide characters that reorder or disguise text
(right-to-left overrides, zero-width joiners, control characters).
"""

from __future__ import annotations

import functools
import re
import unicodedata

from django.core.exceptions import ValidationError
from django.utils.deconstruct import deconstructible

# Unicode categories that are invisible or steer rendering: controls, format characters (bidi overrides,
# zero-width spaces and joiners), line and paragraph separators, private-use, surrogates and unassigned.
REFUSED_CATEGORIES = {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}
# Letters and symbols that render as blanks although Unicode does not call them spaces.
BLANK_LOOKING = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u180e"}
# Words the site itself uses for seats, people and roles.
RESERVED_WORDS = {
    "bot", "bots", "parlour", "admin", "administrator", "staff", "system", "moderator", "you", "spectator",
    "invited", "seat", "nobody", "everyone",
}  # fmt: skip
# Lookalikes folded before comparing: digits for letters, and Cyrillic or Greek letters that look Latin.
LOOKALIKES = str.maketrans(
    {
        "0": "o", "1": "l", "3": "e", "4": "a", "5": "s", "7": "t", "$": "s", "@": "a", "|": "l", "!": "i",
        "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i", "ѕ": "s", "в": "b",
        "т": "t", "ο": "o", "α": "a", "ε": "e", "τ": "t", "ι": "i", "ν": "v", "β": "b",
    }
)  # fmt: skip
# A 1, a pipe or an l can stand for an i as well as an l ("Adm1n", "Admln"): both readings are checked.
AS_I = str.maketrans({"1": "i", "|": "i", "l": "i"})
SEAT_LIKE = [
    re.compile(r"^bots?\W*\d"),  # "Bot 2", "bot#3", "BOT_4 (strong)"
    re.compile(r"^seat\W*\d"),  # "Seat 3"
    re.compile(r"^invited\b"),  # "Invited: someone@example.org"
    re.compile(r"\((?:random|basic|strong|bot|invited|you|spectator|staff|admin)\)"),  # "Ann (invited)"
]


def _plain(name: str) -> str:
    """Compatibility-folded, case-folded, with runs of spaces and underscores made one space."""
    text = unicodedata.normalize("NFKC", name).casefold()
    return re.sub(r"[\s_]+", " ", text).strip()


@functools.lru_cache(maxsize=4096)
def display_name_problem(name: str) -> str | None:
    """The sentence that says what is wrong with ``name`` as a display name, or None when it is fine.

    Remembered per name: ``User.name`` asks it of an address's start every time a name is shown (every
    seat of every table a page lists), and the answer depends on the name alone.
    """
    for char in name:
        if unicodedata.category(char) in REFUSED_CATEGORIES or char in BLANK_LOOKING:
            return "A display name cannot contain invisible or control characters."
        if unicodedata.category(char) == "Zs" and char != " ":
            return "A display name can contain ordinary spaces only."
    plain = _plain(name)
    for form in (plain, plain.translate(LOOKALIKES), plain.translate(AS_I).translate(LOOKALIKES)):
        if any(pattern.search(form) for pattern in SEAT_LIKE):
            return "A display name cannot look like a bot or a seat: choose a name of your own."
        if re.sub(r"[^\w]", "", form) in RESERVED_WORDS:
            return "That name is one the site uses itself: choose another."
    return None


@deconstructible
class DisplayNameValidator:
    """Refuses names that could pass for a bot, a seat or the site, or that hide characters."""

    def __call__(self, value: str) -> None:
        problem = display_name_problem(value)
        if problem:
            raise ValidationError(problem, code="display_name")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DisplayNameValidator)

    def __hash__(self) -> int:
        return hash(type(self))


validate_display_name = DisplayNameValidator()
