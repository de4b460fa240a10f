"""Pure time helpers of the game clock (no database): quiet hours in a player's time zone.

>>> from datetime import datetime, timezone
>>> late = datetime(2026, 3, 1, 23, 30, tzinfo=timezone.utc)
>>> quiet_hours_shift(late, time_zone="UTC", start=22, end=7).isoformat()
'2026-03-02T07:00:00+00:00'
>>> quiet_hours_shift(late, time_zone="UTC", start=8, end=20) == late
True
"""

from __future__ import annotations

import zoneinfo
from datetime import datetime, time, timedelta


def _zone(name: str) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(name or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def in_quiet_hours(moment: datetime, *, time_zone: str, start: int | None, end: int | None) -> bool:
    """Whether ``moment`` falls in the night from ``start`` to ``end`` o'clock (local time)."""
    if start is None or end is None or start == end:
        return False
    local = moment.astimezone(_zone(time_zone)).time()
    begins, ends = time(start), time(end)
    if begins < ends:
        return begins <= local < ends
    return local >= begins or local < ends


def quiet_hours_shift(moment: datetime, *, time_zone: str, start: int | None, end: int | None) -> datetime:
    """``moment``, or the end of the player's night when it falls inside it.

    The end is the next ``end`` o'clock on the local wall clock, so a change to
    or from daylight saving time during the night is respected.
    """
    if end is None or not in_quiet_hours(moment, time_zone=time_zone, start=start, end=end):
        return moment
    zone = _zone(time_zone)
    local = moment.astimezone(zone)
    day = local.date() if local.time() < time(end) else local.date() + timedelta(days=1)
    wall = datetime.combine(day, time(end), tzinfo=zone)
    # normalise a wall time that does not exist (spring forward) through UTC
    return wall.astimezone(moment.tzinfo or zone)


def quiet_night_before(
    moment: datetime, *, time_zone: str, start: int | None, end: int | None
) -> tuple[datetime, datetime] | None:
    """(start, end) of the player's last night that ends at or before ``moment``, or None
    without quiet hours; both on the local wall clock, returned in ``moment``'s zone.

    >>> from datetime import datetime, timezone
    >>> morning = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)
    >>> start, end = quiet_night_before(morning, time_zone="UTC", start=22, end=7)
    >>> start.isoformat(), end.isoformat()
    ('2026-03-01T22:00:00+00:00', '2026-03-02T07:00:00+00:00')
    """
    if start is None or end is None or start == end:
        return None
    zone = _zone(time_zone)
    local = moment.astimezone(zone)
    day = local.date()
    ends = datetime.combine(day, time(end), tzinfo=zone)
    if ends > local:
        ends = datetime.combine(day - timedelta(days=1), time(end), tzinfo=zone)
    begins = datetime.combine(ends.date(), time(start), tzinfo=zone)
    if begins >= ends:
        begins = datetime.combine(ends.date() - timedelta(days=1), time(start), tzinfo=zone)
    target = moment.tzinfo or zone
    return begins.astimezone(target), ends.astimezone(target)


def local_hour_next(after: datetime, *, time_zone: str, hour: int) -> datetime:
    """The first moment strictly after ``after`` when the local clock shows ``hour``:00."""
    zone = _zone(time_zone)
    local = after.astimezone(zone)
    day = local.date()
    for _ in range(3):
        candidate = datetime.combine(day, time(hour), tzinfo=zone).astimezone(after.tzinfo or zone)
        if candidate > after:
            return candidate
        day += timedelta(days=1)
    raise AssertionError("unreachable: a local hour recurs within three days")
