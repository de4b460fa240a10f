"""Refusals of the privacy services: games' error classes with privacy's own messages."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.errors import Conflict, NotAllowed

PRIVACY_MESSAGES: dict[str, Any] = {
    "wrong_password": _("The password is wrong: the account was not deleted."),
    "already_deleted": _("This account is already deleted."),
}


class PrivacyMessages:
    """The privacy messages come first."""

    app_messages: Mapping[str, Any] = PRIVACY_MESSAGES


class PrivacyNotAllowed(PrivacyMessages, NotAllowed):
    pass


class PrivacyConflict(PrivacyMessages, Conflict):
    pass
