"""Refusals of the tournament services, with stable codes and translated messages.

They subclass games' error classes so that views and the API answer them the
same way (HTTP 400/403/404/409 with ``code`` and ``message``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from games import errors as game_errors

MESSAGES: dict[str, Any] = {
    "tournament_not_found": _("This tournament does not exist."),
    "round_not_found": _("This round does not exist."),
    "registration_closed": _("Registration for this tournament is not open."),
    "already_registered": _("You are already registered."),
    "not_registered": _("You are not registered in this tournament."),
    "tournament_full": _("This tournament is full (%(max)s players)."),
    "rating_too_low": _("Your rating (%(rating)s) is below this tournament's minimum of %(min)s."),
    "rating_too_high": _("Your rating (%(rating)s) is above this tournament's maximum of %(max)s."),
    "unrated": _("This tournament has rating limits and you have no rating in this game yet."),
    "already_started": _("This tournament has already started."),
    "too_few_players": _("At least %(min)s players are needed; %(count)s registered."),
    "bad_status": _("This cannot be done while the tournament is %(status)s."),
    "end_date_reached": _("The tournament's end date has passed: its games are being adjudicated."),
    "bad_settings": _("These tournament settings are not valid: %(reason)s"),
    "result_used": _(
        "A later round was already paired from this game's result, or the "
        "tournament is over: the game cannot run again."
    ),
}


class _Translated:
    """The tournament messages come first."""

    app_messages: Mapping[str, Any] = MESSAGES


class InvalidInput(_Translated, game_errors.InvalidInput):
    pass


class NotFound(_Translated, game_errors.NotFound):
    pass


class Conflict(_Translated, game_errors.Conflict):
    pass
