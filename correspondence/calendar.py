"""The iCal (RFC 5545) text of a user's move deadlines, written by hand (no dependency).

Its texts are in the user's language, whatever the calendar client asks for."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from accounts.mail import user_language
from games.models import Game


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y%m%dT%H%M%SZ")


def _fold(line: str) -> str:
    """Lines longer than 75 octets continue on the next line after a space."""
    out, data = [], line.encode("utf-8")
    while len(data) > 75:
        cut = 75
        while (data[cut] & 0xC0) == 0x80:
            cut -= 1
        out.append(data[:cut].decode("utf-8"))
        data = b" " + data[cut:]
    out.append(data.decode("utf-8"))
    return "\r\n".join(out)


def ical_text(*, user: Any, games: Iterable[Game], now: datetime) -> str:
    with user_language(user):
        return _ical_text(user=user, games=games, now=now)


def _ical_text(*, user: Any, games: Iterable[Game], now: datetime) -> str:
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Maatasite//Move deadlines//EN",
        "CALSCALE:GREGORIAN",
        "X-WR-CALNAME:%s" % _escape(_("Maatasite move deadlines")),
    ]
    for game in games:
        assert game.deadline is not None  # selectors.calendar_games keeps the games with a deadline
        deadline = game.deadline.astimezone(UTC)
        mine = game.to_move_user_id == user.pk
        names = ", ".join(s.player_name for s in game.seats.all() if s.user_id != user.pk)
        if mine:
            summary = _("Your move: %(game)s #%(id)s against %(opponent)s")
        else:
            summary = _("%(opponent)s to move: %(game)s #%(id)s")
        summary = summary % {"game": game.get_kind_display(), "id": game.pk, "opponent": names}
        lines += [
            "BEGIN:VEVENT",
            "UID:game-%d-turn-%d@maatasite" % (game.pk, game.turn),
            "DTSTAMP:%s" % _stamp(now.astimezone(UTC)),
            "DTSTART:%s" % _stamp(deadline),
            "DTEND:%s" % _stamp(deadline),
            "SUMMARY:%s" % _escape(summary),
            "URL:%s%s" % (settings.SITE_URL, game.get_absolute_url()),
            "END:VEVENT",
        ]
    lines.append("END:VCALENDAR")
    return "\r\n".join(_fold(line) for line in lines) + "\r\n"
