"""Refusals of the chat services: games' error classes (status, code, params) with chat's messages."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.errors import GameActionError, InvalidInput, NotAllowed

CHAT_MESSAGES: dict[str, Any] = {
    "message_empty": _("Write a message first."),
    "message_too_long": _("A message may have at most %(limit)s characters."),
    "message_blocked": _("This player does not accept your messages."),
    "message_no_reader": _("Messages are for games between two players."),
    "message_rate_limited": _("You have written %(limit)s messages in this game within an hour: please wait a little."),
}


class ChatMessages:
    """The chat messages come first."""

    app_messages: Mapping[str, Any] = CHAT_MESSAGES


class ChatInvalid(ChatMessages, InvalidInput):
    pass


class ChatNotAllowed(ChatMessages, NotAllowed):
    pass


class ChatRateLimited(ChatMessages, GameActionError):
    """Too many messages lately (429): the API and the page say so and keep nothing."""

    status = 429
