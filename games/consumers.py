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

The game page opens its socket with ``?view=page&lang=<its language>``. It is then sent, on
connecting, only ``{"type": "hello", "ply", "status"}`` (the page knows whether it missed a
change), and after each change the parts of its own page that change, rendered for this viewer
in the page's language (``{"type": "page", "ply", "status", "parts": {"header", "board",
"actions", "moves"}}``, games/templates/games/_*.html): the page swaps them in without fetching
itself again. A page sends ``{"type": "ping"}`` now and then: the socket renews its place in
the game's group (the layer drops a member after its group expiry, 24 h) and answers
``{"type": "pong", "ply", "status"}``; a page that gets no answer reopens its socket, polling
meanwhile (static/games/live.js).
"""

from __future__ import annotations

import asyncio
import json
import logging
import weakref
import zoneinfo
from collections import OrderedDict
from typing import Any
from urllib.parse import parse_qs, urlsplit

from channels.auth import get_user
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.http.request import split_domain_port, validate_host
from django.template.loader import render_to_string
from django.utils import timezone, translation

from api.selectors import token_for_secret

from . import live
from .models import Game
from .selectors import game_for_viewer
from .serializers import GameDetailSerializer
from .views import game_page_context

# The parts of the game page pushed to it after a change, by the name the page knows them by.
PAGE_PARTS = {
    "header": "games/_game_header.html",
    "board": "games/_board_column.html",
    "actions": "games/_game_actions.html",
    "moves": "games/_move_list.html",
}

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
RenderedViews = OrderedDict[tuple[Any, ...], "asyncio.Future[str | None]"]
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


def page_language(asked: str, user: Any) -> str:
    """The language the page is shown in (it says so when it opens its socket), if the site has
    it; else the viewer's own, else the site's."""
    codes = {code for code, _name in settings.LANGUAGES}
    if asked in codes:
        return asked
    return user.language if getattr(user, "language", "") in codes else settings.LANGUAGE_CODE


class GamePageConsumer(AsyncJsonWebsocketConsumer):
    """One open game page: its viewer, the game it watches, and what it sends them."""

    game_id: int
    user: Any = None
    seat_id: int | None = None  # the viewer's seat in the game; None for a spectator
    joined: bool = False
    page_view: bool = False  # the game page's socket: sent its page's parts (module docstring)
    language: str = ""

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
        query = parse_qs(self.scope.get("query_string", b"").decode("latin1"))
        self.page_view = query.get("view") == ["page"]
        self.language = page_language(query.get("lang", [""])[0], user)
        # In the group first, then read: a change committed in between is not missed.
        async with layer_slot():
            await self.channel_layer.group_add(live.group_name(self.game_id), self.channel_name)
        self.joined = True
        reader = self.hello_text if self.page_view else self.viewer_text
        text = await database_sync_to_async(reader)()
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
        """A page sends only its pings (moves and messages go through their forms and the API):
        the socket renews its place in the group and answers with where the game stands."""
        if not isinstance(content, dict) or content.get("type") != "ping" or self.channel_layer is None:
            return
        async with layer_slot():
            await self.channel_layer.group_add(live.group_name(self.game_id), self.channel_name)
        text = await database_sync_to_async(self.hello_text)("pong")
        if text is not None:
            await self.send(text_data=text)

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
            text = await database_sync_to_async(self.reader())()
        else:
            views = rendered_views()
            key: tuple[Any, ...] = (event_id, self.seat_id)
            if self.page_view:  # a page's parts also depend on its language and time zone
                key = (event_id, self.seat_id, self.language, self.user.time_zone or "")
            future = views.get(key)
            if future is None:
                future = views[key] = asyncio.get_running_loop().create_future()
                while len(views) > RENDERED_KEPT:
                    views.popitem(last=False)
                try:
                    future.set_result(await database_sync_to_async(self.reader())())
                except Exception:  # this socket's read failed: those waiting for it read for themselves
                    views.pop(key, None)
                    future.set_result(None)
                    raise
            text = await future
            if text is None and views.get(key) is not future:
                text = await database_sync_to_async(self.reader())()
        if text is not None:
            await self.send(text_data=text)

    def reader(self) -> Any:
        return self.page_text if self.page_view else self.viewer_text

    def hello_text(self, kind: str = "hello") -> str | None:
        """Where the game stands (ply and status), cheaply; None once it is gone. The viewer's
        seat is read here too (for the key of the parts rendered once per kind of viewer)."""
        game = Game.objects.filter(pk=self.game_id).only("pk", "ply", "status").first()
        if game is None:
            return None
        seat = game.seats.filter(user_id=self.user.pk).order_by("position").values_list("pk", flat=True).first()
        self.seat_id = seat
        return json.dumps({"type": kind, "ply": game.ply, "status": game.status})

    def page_text(self) -> str | None:
        """The parts of the game page that change, as this socket's viewer sees them now, in
        the page's language and the viewer's time zone (None once the game is gone). A form
        among them carries no CSRF token: the page puts its own in (static/games/live.js)."""
        try:
            page = game_for_viewer(game_id=self.game_id, user=self.user)
        except Game.DoesNotExist:
            return None
        self.seat_id = page.viewer_seat.pk if page.viewer_seat else None
        try:
            zone = zoneinfo.ZoneInfo(self.user.time_zone) if self.user.time_zone else None
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            zone = None
        with translation.override(self.language), timezone.override(zone):
            context = game_page_context(page)
            parts = {name: render_to_string(template, context) for name, template in PAGE_PARTS.items()}
        game = page.game
        poll = game.is_active and not page.my_turn  # as data-poll on the page (games/game.html)
        return json.dumps({"type": "page", "ply": game.ply, "status": game.status, "poll": poll, "parts": parts})

    def viewer_text(self) -> str | None:
        """The message of the game as this socket's viewer sees it now (None once it is gone)."""
        try:
            page = game_for_viewer(game_id=self.game_id, user=self.user)
        except Game.DoesNotExist:
            return None
        self.seat_id = page.viewer_seat.pk if page.viewer_seat else None
        state = GameDetailSerializer(page, context={"user": self.user}).data
        return json.dumps({"type": "game", "game": state}, cls=DjangoJSONEncoder)
