"""Chat's rows in the events feed (games.events): ``message``, what the other player of a
game wrote to the user, hidden after a block as the game page hides it (chat.selectors)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.events import Event, EventKind, event_source_register

from .models import Message
from .selectors import messages_to_user


def _message_event(message: Message) -> Event:
    return Event(
        EventKind.MESSAGE,
        message.created_at,
        message.pk,
        game_id=message.game_id,
        data={"author": message.author.username, "text": message.text, "ply": message.ply},
    )


def _messages_source(
    user: Any, between: Callable[[str], dict[str, Any]], limit: int
) -> tuple[list[Any], str, Callable[[Any], Event]]:
    rows = (
        messages_to_user(user=user)
        .filter(**between("created_at"))
        .select_related("author")
        .order_by("created_at", "pk")[:limit]
    )
    return list(rows), "created_at", _message_event


def register() -> None:
    event_source_register(kind=EventKind.MESSAGE, source=_messages_source)
