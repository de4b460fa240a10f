"""A datetime in a named localized format (``DATETIME_FORMAT``), as Django's
``django.utils.formats.date_format`` writes it, with the format split into its parts once
per format string instead of at every call.

Django's formatter splits the format string with a regular expression each time it formats a
value: for the lobby's 50 rows of deadlines that was most of the time their titles took
(about 45 µs a row against 20 µs; bench/profile_game.py --lobby 1000). The parts are then
written by Django's own ``DateFormat`` methods, so the text is Django's
(tests/test_date_formats.py compares both across languages, time zones and a
daylight-saving change).
"""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache

from django.utils.dateformat import DateFormat, re_escaped, re_formatchars
from django.utils.formats import get_format


@lru_cache(maxsize=64)
def _parts(format_string: str) -> tuple[tuple[bool, str], ...]:
    """(is a format character, the character or the literal text) for each part of
    ``format_string``, split as Django's ``Formatter.format`` splits it."""
    parts = []
    for index, piece in enumerate(re_formatchars.split(format_string)):
        if index % 2:
            parts.append((True, piece))
        elif piece:
            parts.append((False, re_escaped.sub(r"\1", piece)))
    return tuple(parts)


def datetime_format(value: datetime, format_name: str = "DATETIME_FORMAT") -> str:
    """``date_format(value, format_name)`` for a datetime (aware values as given: convert to
    the viewer's time first, as ``timezone.localtime`` does), in the active language."""
    formatter = DateFormat(value)
    return "".join(
        str(getattr(formatter, piece)()) if is_character else piece
        for is_character, piece in _parts(str(get_format(format_name)))
    )
