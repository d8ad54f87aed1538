"""What every file format shares: a match with its stored details, numbers as people write them,
spreadsheet-safe text, and core messages worded in a given language."""

from __future__ import annotations

import gettext
from typing import Any

from ..canasta import Match
from ..records import MatchInfo

# Spreadsheets run a cell that starts with one of these as a formula; names typed at the table
# must never do that (OWASP "CSV injection"), so such text gets a leading apostrophe.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
ENGLISH = gettext.NullTranslations()

Pair = tuple[Match, MatchInfo]


def thousands(number: int) -> str:
    """A score as people write it: ``5,120``, ``-1,250``.

    >>> thousands(5120), thousands(-1250), thousands(0)
    ('5,120', '-1,250', '0')
    """
    return f"{number:,}"


def safe_text(text: str) -> str:
    """Text for a CSV cell that a spreadsheet will not run as a formula.

    >>> safe_text("=1+1"), safe_text("Ann")
    ("'=1+1", 'Ann')
    """
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def rendered(value: Any, translations: Any) -> str:
    """A core message (a ``str`` with ``render``) in the given language; any other text as it is."""
    render = getattr(value, "render", None)
    return render(translations) if callable(render) and isinstance(value, str) else value
