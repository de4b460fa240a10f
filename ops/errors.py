"""Refusals of the ops services: games' error classes (status, code, params) with ops' messages."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.errors import Conflict, InvalidInput, NotAllowed, NotFound

OPS_MESSAGES: dict[str, Any] = {
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
