"""maatasite.date_formats: a datetime in a named format, the text Django's date_format writes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone, translation
from django.utils.formats import date_format

from maatasite.date_formats import _parts, datetime_format

ZONES = ("UTC", "Europe/Berlin", "America/New_York", "Asia/Jakarta", "Asia/Kolkata")
FORMATS = ("DATETIME_FORMAT", "SHORT_DATETIME_FORMAT", "DATE_FORMAT", "TIME_FORMAT")


def _times() -> list[datetime]:
    """Every hour across the spring daylight-saving change in Europe and America (2026-03-08
    and 03-29), plus noon and midnight, minutes and seconds that are not round, and a year's
    months, so that every part of the formats (p.m., noon, month names) shows."""
    start = datetime(2026, 3, 7, 0, 0, 0, tzinfo=UTC)
    hours = [start + timedelta(hours=h, minutes=7 * h % 60, seconds=13) for h in range(0, 24 * 24, 5)]
    months = [datetime(2026, month, 1 + month, 12, 0, tzinfo=UTC) for month in range(1, 13)]
    return hours + months + [datetime(2026, 12, 31, 0, 0, tzinfo=UTC), datetime(2027, 1, 1, 23, 59, 59, tzinfo=UTC)]


@pytest.mark.parametrize("language", ["en", "id", "ar"])
def test_the_text_is_djangos_in_every_language_zone_and_format(language):
    times = _times()
    compared = 0
    with translation.override(language):
        for zone in ZONES:
            with timezone.override(zone):
                for value in times:
                    local = timezone.localtime(value)
                    for name in FORMATS:
                        assert datetime_format(local, name) == date_format(local, name), (language, zone, name, value)
                        compared += 1
    assert compared == len(ZONES) * len(times) * len(FORMATS)


def test_the_default_format_is_the_datetime_format_and_escaped_letters_stay_literal():
    value = datetime(2026, 12, 7, 18, 1, 5, tzinfo=UTC)
    with translation.override("en"):
        assert datetime_format(value) == date_format(value, "DATETIME_FORMAT") == "Dec. 7, 2026, 6:01 p.m."
    assert _parts(r"\Y\e\s: Y") == ((False, "Yes: "), (True, "Y"))
