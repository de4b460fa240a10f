"""Refusals of the correspondence services: a stable code, params, an HTTP status
and a translated message (the same shape as games.errors.GameActionError)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.errors import GameActionError

MESSAGES: dict[str, Any] = {
    "bad_preference": _("Unknown preference."),
    "bad_link": _("This link is not valid."),
    "bad_days": _("Choose a whole number of days, at least one."),
    "already_on_vacation": _("You are already on vacation."),
    "vacation_too_long": _("You have %(hours)s hours of vacation left."),
    "not_on_vacation": _("You are not on vacation."),
    "bad_json": _("The body is not valid JSON."),
    "bad_bounce_events": _("Send one event or a list of 1 to %(max)s events."),
    "bad_bounce_event": _(
        "Event %(index)s must have an email address and the type bounce (hard or soft) or complaint."
    ),
}


class CorrespondenceError(GameActionError):
    app_messages: Mapping[str, Any] = MESSAGES

    def __init__(self, code: str, fallback: str = "", *, status: int = 400, **params: Any) -> None:
        super().__init__(code, fallback, **params)
        self.status = status
