"""The push to open game pages: "game 12 changed", announced after the commit that changed it.

Whichever process changes a game (a web server for a player's move, the Celery worker for a
bot's, beat's sweep for a timeout) sends one small event to the channel layer (Redis, see
settings.LIVE_REDIS_URL) once its transaction has committed. The event names the game and
what happened (ids, ply, status) and nothing of the table: every socket watching the game
(games/consumers.py) then reads and serialises its own viewer's view, so no viewer ever gets a
payload meant for another with parts hidden.

Games announce their own changes here (post_save of Game and DrawOffer). Apps built on games
announce theirs with :func:`announce`, and say how a socket renders their event with
:func:`register_event`: chat does so for its messages (chat/live.py), which games never imports.

With push off (no LIVE_REDIS_URL, as under `make run`), nothing is sent and pages poll.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from maatasite.task_policy import on_commit_run

from .models import DrawOffer, Game

logger = logging.getLogger(__name__)

GAME_CHANGED = "game.changed"

# What a socket sends its viewer for an event: ``handler(consumer, event)`` renders the event for
# ``consumer.user`` (its own view, or nothing) and sends it. Keyed by the event's "type".
EventHandler = Callable[[Any, dict[str, Any]], Awaitable[None]]
_handlers: dict[str, EventHandler] = {}


def push_enabled() -> bool:
    return bool(settings.LIVE_REDIS_URL)


def group_name(game_id: int) -> str:
    """The channel-layer group of every socket open on game ``game_id``'s page."""
    return "game-%d" % int(game_id)


def register_event(event_type: str, handler: EventHandler) -> None:
    """An app above games says how a socket renders its events (called from its AppConfig.ready)."""
    _handlers[event_type] = handler


def event_handler(event_type: str) -> EventHandler | None:
    return _handlers.get(event_type)


def announce(game_id: int, event: dict[str, Any]) -> None:
    """Send ``event`` (a dict with "type"; ids only, never a view) to the game's sockets after
    the current transaction commits, or at once outside one. Nothing without push."""
    if not push_enabled():
        return
    # "event": this announce's own id, under which a process renders each kind of viewer's view once.
    event = {**event, "game": int(game_id), "event": uuid.uuid4().hex}
    on_commit_run(lambda: send_now(game_id, event), what="live push")


def send_now(game_id: int, event: dict[str, Any]) -> None:
    """Hand ``event`` to the layer. A push that fails is logged and dropped: the change is
    committed, and pages that miss it find it by polling (static/games/game.js)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group_name(game_id), event)
    except Exception:  # the layer's server is down: the commit stands, the pages poll
        logger.warning("live: could not push %s of game %s", event.get("type"), game_id, exc_info=True)


def announce_game_changed(game: Game) -> None:
    announce(game.pk, {"type": GAME_CHANGED, "ply": game.ply, "status": game.status})


@receiver(post_save, sender=Game, dispatch_uid="games.live.game_saved")
def _game_saved(sender: type[Game], instance: Game, created: bool, raw: bool = False, **kwargs: Any) -> None:
    """A move, an end, a clock change: every save of a game row is announced (the sockets send
    their viewer an update only when what the viewer sees has changed)."""
    if not raw:
        announce_game_changed(instance)


@receiver(post_save, sender=DrawOffer, dispatch_uid="games.live.draw_offer_saved")
def _draw_offer_saved(sender: type[DrawOffer], instance: DrawOffer, raw: bool = False, **kwargs: Any) -> None:
    """A draw offered, accepted or declined shows on the other player's page too."""
    if not raw:
        announce(instance.game_id, {"type": GAME_CHANGED, "draw_offer": instance.pk})
