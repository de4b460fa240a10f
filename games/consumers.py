"""The game page's WebSocket (``/ws/games/<id>/``): the viewer's own view, pushed on every change.

A socket is refused (closed before it is accepted, so the handshake fails with 403) when its
Origin is not this site's, when nobody is signed in (a session cookie, or an API token sent as
``Authorization: Bearer mta_...`` with the read scope), or when the game does not exist.

The channel layer tells the socket only that its game changed (games/live.py). The socket then
reads the game as its own viewer sees it (games.selectors.game_for_viewer) and sends it shaped
as the API's game (games.serializers.GameDetailSerializer): a player's view with their legal
moves, a spectator's view with neither side's hidden parts. Events of the apps above games
(chat's messages) are rendered by the handler they registered (games.live.register_event),
which decides for this viewer whether they get anything at all.

Sent to the client, as JSON: ``{"type": "game", "game": {...}}`` on connecting and after each
change, and what the registered handlers send (chat: ``{"type": "message", ...}``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import weakref
from collections import OrderedDict
from typing import Any
from urllib.parse import urlsplit

from channels.auth import get_user
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.http.request import split_domain_port, validate_host

from api.selectors import token_for_secret

from . import live
from .models import Game
from .selectors import game_for_viewer
from .serializers import GameDetailSerializer

logger = logging.getLogger(__name__)

# Close codes of a refused socket (4000-4999 are the application's own).
CLOSE_ORIGIN = 4403
CLOSE_ANONYMOUS = 4401
CLOSE_NOT_FOUND = 4404
CLOSE_NO_PUSH = 4503

# Joins and leaves of a game's group in flight at once, per process (its event loop): redis-py
# refuses a command beyond its pool's 100 connections (since redis-py 8) instead of waiting,
# and a burst of pages opening (a server restart: every page reconnects) would exceed it.
LAYER_CONCURRENCY = 50
_layer_slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = weakref.WeakKeyDictionary()


def layer_slot() -> asyncio.Semaphore:
    loop = asyncio.get_running_loop()
    slot = _layer_slots.get(loop)
    if slot is None:
        slot = _layer_slots[loop] = asyncio.Semaphore(LAYER_CONCURRENCY)
    return slot


# The view each kind of viewer gets after one announce, rendered once per process and sent by
# each of their sockets: a player's own (keyed by their seat), and the spectators' (None), the
# same for every spectator and with nothing hidden from one that another may see. A thousand
# spectators of one game then cost one render, not a thousand. The newest RENDERED_KEPT are kept.
RENDERED_KEPT = 256
RenderedViews = OrderedDict[tuple[str, int | None], "asyncio.Future[str | None]"]
_rendered: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, RenderedViews] = weakref.WeakKeyDictionary()


def rendered_views() -> RenderedViews:
    loop = asyncio.get_running_loop()
    views = _rendered.get(loop)
    if views is None:
        views = _rendered[loop] = OrderedDict()
    return views


def header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin1")
    return None


def origin_allowed(scope: dict[str, Any]) -> bool:
    """The socket's Origin is this site: the same host and port the socket was opened on (an
    allowed host), or one of CSRF_TRUSTED_ORIGINS (a proxy in front of the site). A client
    that sends no Origin is no browser, and no browser's cookies come with it: it may connect
    with a token, never with a session."""
    origin = header(scope, b"origin")
    if origin is None:
        return header(scope, b"cookie") is None
    if origin in settings.CSRF_TRUSTED_ORIGINS:
        return True
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    host = header(scope, b"host") or ""
    domain, _port = split_domain_port(parts.netloc)
    return parts.netloc == host and bool(domain) and validate_host(domain, settings.ALLOWED_HOSTS)


def token_user(scope: dict[str, Any]) -> Any | None:
    """The user of the API token in the Authorization header (read scope), or None."""
    value = header(scope, b"authorization") or ""
    keyword, _, secret = value.partition(" ")
    if keyword.lower() != "bearer" or not secret.strip():
        return None
    token = token_for_secret(secret=secret.strip())
    if token is None or not token.user.is_active or "read" not in token.scopes:
        return None
    return token.user


class GamePageConsumer(AsyncJsonWebsocketConsumer):
    """One open game page: its viewer, the game it watches, and what it sends them."""

    game_id: int
    user: Any = None
    seat_id: int | None = None  # the viewer's seat in the game; None for a spectator
    joined: bool = False

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        if not origin_allowed(self.scope):
            await self.close(code=CLOSE_ORIGIN)
            return
        if self.channel_layer is None:
            await self.close(code=CLOSE_NO_PUSH)
            return
        user = await database_sync_to_async(token_user)(self.scope)
        if user is None and "session" in self.scope:
            user = await get_user(self.scope)
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_ANONYMOUS)
            return
        self.user = user
        # In the group first, then read: a change committed in between is not missed.
        async with layer_slot():
            await self.channel_layer.group_add(live.group_name(self.game_id), self.channel_name)
        self.joined = True
        text = await database_sync_to_async(self.viewer_text)()
        if text is None:
            await self.disconnect(CLOSE_NOT_FOUND)
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.accept()
        await self.send(text_data=text)

    async def disconnect(self, code: int) -> None:
        if self.joined and self.channel_layer is not None:
            self.joined = False
            async with layer_slot():
                await self.channel_layer.group_discard(live.group_name(self.game_id), self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """The page sends nothing: moves and messages go through their forms and the API."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = live.event_handler(message.get("type", ""))
        if handler is not None:
            if message.get("game") == self.game_id:
                await handler(self, message)
            return
        await super().dispatch(message)

    async def game_changed(self, event: dict[str, Any]) -> None:
        event_id = event.get("event")
        if not isinstance(event_id, str):
            text = await database_sync_to_async(self.viewer_text)()
        else:
            views = rendered_views()
            key = (event_id, self.seat_id)
            future = views.get(key)
            if future is None:
                future = views[key] = asyncio.get_running_loop().create_future()
                while len(views) > RENDERED_KEPT:
                    views.popitem(last=False)
                try:
                    future.set_result(await database_sync_to_async(self.viewer_text)())
                except Exception:  # this socket's read failed: those waiting for it read for themselves
                    views.pop(key, None)
                    future.set_result(None)
                    raise
            text = await future
            if text is None and views.get(key) is not future:
                text = await database_sync_to_async(self.viewer_text)()
        if text is not None:
            await self.send(text_data=text)

    def viewer_text(self) -> str | None:
        """The message of the game as this socket's viewer sees it now (None once it is gone)."""
        try:
            page = game_for_viewer(game_id=self.game_id, user=self.user)
        except Game.DoesNotExist:
            return None
        self.seat_id = page.viewer_seat.pk if page.viewer_seat else None
        state = GameDetailSerializer(page, context={"user": self.user}).data
        return json.dumps({"type": "game", "game": state}, cls=DjangoJSONEncoder)
