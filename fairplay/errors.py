"""Refusals of the fair-play services (reports and checks): games' error classes with fair
play's own messages."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.errors import Conflict, InvalidInput, NotAllowed, NotFound

FAIRPLAY_MESSAGES: dict[str, Any] = {
    "report_bad_kind": _("Choose abuse, suspected engine help, stalling or other."),
    "report_no_reason": _("Say why you report this."),
    "report_reason_too_long": _("The reason is too long (at most %(limit)s characters)."),
    "report_bad_target": _("Report either a player or a game."),
    "report_self": _("You cannot report yourself."),
    "report_repeated": _("You have already reported this today."),
    "report_not_found": _("This report does not exist."),
    "report_bad_status": _("Mark a report reviewed or dismissed."),
    "not_staff": _("Only staff review reports."),
    "fairplay_not_staff": _("Only staff run fair-play checks."),
    "fairplay_bad_games": _("Choose from 1 to %(limit)s recent games."),
}


class FairPlayMessages:
    """The fair-play messages come first."""

    app_messages: Mapping[str, Any] = FAIRPLAY_MESSAGES


class FairPlayInvalid(FairPlayMessages, InvalidInput):
    pass


class FairPlayNotAllowed(FairPlayMessages, NotAllowed):
    pass


class FairPlayNotFound(FairPlayMessages, NotFound):
    pass


class FairPlayConflict(FairPlayMessages, Conflict):
    pass
