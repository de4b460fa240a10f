"""New messages on open game pages: chat announces its own (games never imports chat).

A message's commit sends "message 34 of game 12" to the game's sockets (games.live.announce);
each socket (games/consumers.py) then asks :func:`deliver` what its viewer gets: the message
rendered as on their page, or nothing at all for a viewer not seated in the game or one who
blocked its author (chat.selectors.message_for_viewer decides, as for the page).
"""

from __future__ import annotations

import zoneinfo
from typing import Any

from channels.db import database_sync_to_async
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.template.loader import render_to_string
from django.utils import timezone, translation

from games import live

from .models import Message
from .selectors import message_for_viewer

CHAT_MESSAGE = "chat.message"


@receiver(post_save, sender=Message, dispatch_uid="chat.live.message_saved")
def _message_saved(sender: type[Message], instance: Message, created: bool, raw: bool = False, **kwargs: Any) -> None:
    if created and not raw:
        live.announce(instance.game_id, {"type": CHAT_MESSAGE, "message": instance.pk})


def message_html(*, message_id: int, user: Any) -> str | None:
    """The message's entry of the messages panel, in ``user``'s language and time zone, or None
    when ``user`` does not see it. Its report form carries no CSRF token: the page adds its own."""
    message = message_for_viewer(message_id=message_id, user=user)
    if message is None:
        return None
    try:
        zone = zoneinfo.ZoneInfo(user.time_zone) if user.time_zone else None
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = None
    with translation.override(user.language or None), timezone.override(zone):
        return render_to_string(
            "chat/_message.html", {"message": message, "viewer_id": user.pk, "game_id": message.game_id}
        )


async def deliver(consumer: Any, event: dict[str, Any]) -> None:
    html = await database_sync_to_async(message_html)(message_id=event["message"], user=consumer.user)
    if html is not None:
        await consumer.send_json({"type": "message", "id": event["message"], "html": html})


def register() -> None:
    live.register_event(CHAT_MESSAGE, deliver)
