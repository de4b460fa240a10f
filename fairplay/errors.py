"""Refusals of the fair-play services: games' error classes with fair play's own messages."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.errors import InvalidInput, NotAllowed

FAIRPLAY_MESSAGES: dict[str, Any] = {
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
