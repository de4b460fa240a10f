"""Refusals of the ops services: games' error classes (status, code, params) with ops' messages."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.errors import Conflict, InvalidInput, NotAllowed, NotFound

OPS_MESSAGES: dict[str, Any] = {
    "report_bad_kind": _("Choose abuse, suspected engine help, stalling or other."),
    "report_no_reason": _("Say why you report this."),
    "report_reason_too_long": _("The reason is too long (at most %(limit)s characters)."),
    "report_bad_target": _("Report either a player or a game."),
    "report_self": _("You cannot report yourself."),
    "report_repeated": _("You have already reported this today."),
    "report_not_found": _("This report does not exist."),
    "report_bad_status": _("Mark a report reviewed or dismissed."),
    "not_staff": _("Only staff review reports."),
    "player_not_found": _("This player does not exist."),
    "suspend_self": _("You cannot suspend yourself."),
    "already_suspended": _("This player is already suspended."),
    "not_suspended": _("This player is not suspended."),
}


class OpsMessages:
    """The ops messages come first."""

    app_messages: Mapping[str, Any] = OPS_MESSAGES


class OpsInvalid(OpsMessages, InvalidInput):
    pass


class OpsNotAllowed(OpsMessages, NotAllowed):
    pass


class OpsNotFound(OpsMessages, NotFound):
    pass


class OpsConflict(OpsMessages, Conflict):
    pass
