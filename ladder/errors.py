"""Refusals of the ladder services: games' error classes with the ladder's own messages."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.errors import Conflict, InvalidInput, NotAllowed, NotFound

LADDER_MESSAGES: dict[str, Any] = {
    "ladder_not_found": _("This ladder does not exist."),
    "ladder_closed": _("This ladder is closed."),
    "already_member": _("You are already on this ladder."),
    "not_a_member": _("You are not on this ladder."),
    "defender_not_member": _("This player is not on the ladder."),
    "not_above": _("You can only challenge players above you."),
    "too_far": _("You can challenge at most %(places)s places above you."),
    "pair_busy": _("You are already playing a ladder game against this player."),
    "too_many_outgoing": _("You already have %(limit)s ladder challenges running."),
    "too_many_incoming": _("This player already has %(limit)s ladder challenges to answer."),
    "too_soon": _("You challenged this player less than %(days)s days ago."),
    "on_vacation": _("This player is on vacation."),
}


class LadderMessages:
    """The ladder's messages come first."""

    app_messages: Mapping[str, Any] = LADDER_MESSAGES


class LadderInvalid(LadderMessages, InvalidInput):
    pass


class LadderNotAllowed(LadderMessages, NotAllowed):
    pass


class LadderNotFound(LadderMessages, NotFound):
    pass


class LadderConflict(LadderMessages, Conflict):
    pass
