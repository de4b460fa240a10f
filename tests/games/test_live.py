"""The game page's socket (games/consumers.py, games/live.py, chat/live.py), through an ASGI
client of its own: who may connect, what each viewer receives, what never leaves the server.

The channel layer is the real Redis one when LIVE_TEST_REDIS_URL is set (CI), else Channels'
in-memory layer. The tests are transactional (the consumers read in a thread of their own):
changes are committed for real, and announced after the commit, through ``committed``.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from asgiref.testing import ApplicationCommunicator
from channels.layers import get_channel_layer
from django.test import Client

from accounts import services as account_services
from api import services as api_services
from chat import services as chat_services
from chat.models import Message
from games import live, services
from games.models import GameStatus
from maatasite.asgi import websocket_application
from maatasite.settings import live_channel_layers
from tests.conftest import IN_CI
from tests.factories import first_legal, to_move

from .conftest import play, start_game
from .test_api_play_through import _no_hidden_keys
from .test_sealed_at_rest import full_state, hidden_needles

# Transactional: Channels closes a database connection that is inside a transaction before
# each read of a consumer (channels.db), as it would close a broken one; here rows are
# committed, and so the announces go out after each commit as they would in production.
pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = "http://testserver"
# Long enough for a push through Redis on a busy machine; receive_nothing waits this long too.
WAIT = 5.0
# A scenario that has not ended by then is hung: the test fails rather than the run.
SCENARIO_LIMIT = 180


# Redis for the channel layer of these tests (CI sets it); the site's LIVE_REDIS_URL stays
# unset in the tests, so that push is off for every other test.
REDIS_URL = os.environ.get("LIVE_TEST_REDIS_URL", "")


@pytest.fixture(autouse=True)
def live_layer(request, settings):
    """Push on, for this test: Redis at LIVE_TEST_REDIS_URL under a key prefix of the test's
    own (a test with a worker takes the worker's, see tests/conftest.py), or Channels'
    in-memory layer without it."""
    prefix = "%s-test-%s" % (settings.LIVE_KEY_PREFIX, uuid.uuid4().hex[:8])
    if request.node.get_closest_marker("services"):
        if not REDIS_URL and IN_CI:
            pytest.fail("LIVE_TEST_REDIS_URL is not set: a push from the worker needs Redis")
        if not REDIS_URL:
            pytest.skip("needs LIVE_TEST_REDIS_URL (Redis) for a push from the worker")
        prefix = request.getfixturevalue("celery_services_env")["LIVE_KEY_PREFIX"]
    if REDIS_URL:
        settings.CHANNEL_LAYERS = live_channel_layers(REDIS_URL, prefix)
        settings.LIVE_REDIS_URL = REDIS_URL
    else:
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
        settings.LIVE_REDIS_URL = "in-memory (tests)"
    yield
    if not REDIS_URL:
        in_a_loop_of_its_own(get_channel_layer().flush)


@pytest.fixture
def committed():
    """``await committed(fn, *args)``: run ``fn`` (which commits, and so announces) in the
    test's thread, from a scenario."""

    async def run(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return await sync_to_async(fn)(*args, **kwargs)

    return run


# The sockets a scenario opened and has not ended; scenario() ends them before its loop closes.
_unended_sockets: list[WebsocketCommunicator] = []


class WebsocketCommunicator(ApplicationCommunicator):
    """An ASGI WebSocket client of the application, in-process (what channels.testing's one
    does; that module needs daphne, which the site does not use)."""

    def __init__(self, application: Any, path: str, headers: list[tuple[bytes, bytes]], query: bytes = b"") -> None:
        super().__init__(
            application,
            {"type": "websocket", "path": path, "query_string": query, "headers": headers, "subprotocols": []},
        )
        _unended_sockets.append(self)

    async def connect(self, timeout: float) -> tuple[bool, Any]:
        """(True, None) when accepted; (False, close code) when refused."""
        await self.send_input({"type": "websocket.connect"})
        response = await self.receive_output(timeout)
        if response["type"] == "websocket.close":
            return False, response.get("code", 1000)
        assert response["type"] == "websocket.accept"
        return True, None

    async def receive_json_from(self, timeout: float) -> Any:
        response = await self.receive_output(timeout)
        assert response["type"] == "websocket.send" and "text" in response, response
        return json.loads(response["text"])

    async def disconnect(self, timeout: float = WAIT) -> None:
        """What a server sends once the client went (or after the application closed): the
        consumer leaves its group and ends by itself. Never ended so, a socket's task would be
        cancelled when the communicator is collected, inside channels_redis's wait on the
        layer, which can then hang the loop's close for ever (a CI run timed out so)."""
        if self in _unended_sockets:
            _unended_sockets.remove(self)
        if self._future is None or self.future.done():
            return
        await self.send_input({"type": "websocket.disconnect", "code": 1000})
        await self.wait(timeout)


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return "sessionid=%s" % client.cookies["sessionid"].value


def socket(
    game_id: int,
    *,
    cookie: str | None = None,
    origin: str | None = ORIGIN,
    token: str | None = None,
    host: str = "testserver",
    query: str = "",
) -> WebsocketCommunicator:
    headers = [(b"host", host.encode())]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    if cookie is not None:
        headers.append((b"cookie", cookie.encode()))
    if token is not None:
        headers.append((b"authorization", b"Bearer " + token.encode()))
    return WebsocketCommunicator(
        websocket_application, "/ws/games/%d/" % game_id, headers=headers, query=query.encode()
    )


def in_a_loop_of_its_own(fn: Callable[[], Awaitable[None]]) -> None:
    """Run ``fn`` on a new event loop in a thread of its own: the main thread may already have
    one running (Playwright's, once a browser test ran: tests/conftest.py), where no loop can
    be run. The consumers' database reads then run in asgiref's thread for them, and are closed
    at the end (the rows they read are committed: the tests are transactional)."""
    from django.db import connections

    async def main() -> None:
        try:
            await fn()
            while _unended_sockets:  # ended as a server ends them, each consumer by itself
                await _unended_sockets[0].disconnect()
        finally:
            for left in list(_unended_sockets):  # the scenario failed: its own error is the one reported
                _unended_sockets.remove(left)
                left.stop(exceptions=False)
            await sync_to_async(connections.close_all)()

    failures: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(main())
        except BaseException as error:  # handed to the test's thread
            failures.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=SCENARIO_LIMIT)
    assert not thread.is_alive(), "the scenario's loop did not end within %d s" % SCENARIO_LIMIT
    if failures:
        raise failures[0]


def scenario(fn: Callable[[], Awaitable[None]]) -> None:
    """Run one async scenario: its communicators and the layer live on one event loop."""
    in_a_loop_of_its_own(fn)


async def opened(communicator: WebsocketCommunicator) -> dict[str, Any]:
    """Connect, expect acceptance and the first view; returns that view."""
    connected, code = await communicator.connect(timeout=WAIT)
    assert connected, "refused with %s" % code
    first = await communicator.receive_json_from(timeout=WAIT)
    assert first["type"] == "game"
    return first["game"]


async def refused(communicator: WebsocketCommunicator) -> int:
    connected, code = await communicator.connect(timeout=WAIT)
    assert not connected
    return code


# --- Who may connect -------------------------------------------------------------------


def test_a_player_gets_their_own_view_then_the_opponents_move(alice, bob, carol, committed):
    game = start_game(alice, bob, "onitama", {"cards": "base"})
    mover = to_move(game)
    waiter = bob if mover == alice else alice
    cookie, waiter_side, move_text = session_cookie(waiter), game.seats.get(user=waiter).side, first_legal(game)
    spectator_cookie = session_cookie(carol)

    async def run() -> None:
        page, spectator = socket(game.pk, cookie=cookie), socket(game.pk, cookie=spectator_cookie)
        view = await opened(page)
        await opened(spectator)
        assert view["ply"] == 0 and view["your_turn"] is False and view["legal_moves"] == []
        await committed(services.move_submit, game_id=game.pk, user=mover, move_text=move_text, expected_ply=0)
        update = await page.receive_json_from(timeout=WAIT)
        assert update["type"] == "game"
        assert update["game"]["ply"] == 1 and update["game"]["your_turn"] is True
        assert update["game"]["your_side"] == waiter_side
        assert update["game"]["legal_moves"], "the player to move gets their legal moves"
        # the same change, rendered for a spectator in the same process: their own view, not the player's
        seen = (await spectator.receive_json_from(timeout=WAIT))["game"]
        assert seen["ply"] == 1 and seen["your_side"] is None and seen["legal_moves"] == []
        assert not any(seat["is_you"] for seat in seen["seats"])
        await page.disconnect()
        await spectator.disconnect()

    scenario(run)


def test_the_end_of_the_game_reaches_both_players_and_a_spectator(alice, bob, carol, committed):
    game = start_game(alice, bob, "onitama", {"cards": "base"})
    cookies = {user.username: session_cookie(user) for user in (alice, bob, carol)}
    sides = {seat.user.username: seat.side for seat in game.seats.select_related("user") if seat.user}

    async def run() -> None:
        pages = {name: socket(game.pk, cookie=cookie) for name, cookie in cookies.items()}
        for page in pages.values():
            await opened(page)
        await committed(services.game_resign, game_id=game.pk, user=alice)
        for name, page in pages.items():
            update = (await page.receive_json_from(timeout=WAIT))["game"]
            assert update["status"] == GameStatus.FINISHED and update["result"]["reason"] == "resign", name
            assert update["your_side"] == sides.get(name)
            await page.disconnect()

    scenario(run)


def test_a_wrong_origin_is_refused(alice, bob):
    game = start_game(alice, bob)
    cookie = session_cookie(alice)

    async def run() -> None:
        for origin in ("http://evil.example", "https://testserver.evil.example", "null", "http://testserver:81"):
            assert await refused(socket(game.pk, cookie=cookie, origin=origin)) == 4403, origin
        # a browser always sends an Origin: a cookie without one is refused too
        assert await refused(socket(game.pk, cookie=cookie, origin=None)) == 4403
        # a host that is not allowed does not become an allowed origin by naming itself
        assert await refused(socket(game.pk, cookie=cookie, origin="http://evil.example", host="evil.example")) == 4403
        await opened(socket(game.pk, cookie=cookie))

    scenario(run)


def test_anonymous_and_unknown_games_are_refused(alice, bob):
    game = start_game(alice, bob)
    cookie = session_cookie(alice)

    async def run() -> None:
        assert await refused(socket(game.pk)) == 4401
        assert await refused(socket(game.pk, cookie="sessionid=not-a-session")) == 4401
        assert await refused(socket(game.pk + 1000, cookie=cookie)) == 4404

    scenario(run)


def test_an_api_token_with_the_read_scope_opens_a_socket(alice, bob):
    game = start_game(alice, bob)
    _token, reader = api_services.token_create(user=alice, name="app", scopes=["read"])
    _token, player_only = api_services.token_create(user=alice, name="play", scopes=["play"])
    revoked, revoked_secret = api_services.token_create(user=alice, name="old", scopes=["read", "play"])
    api_services.token_revoke(user=alice, token_id=revoked.pk)
    side = game.seats.get(user=alice).side

    async def run() -> None:
        view = await opened(socket(game.pk, token=reader, origin=None))  # an app sends no Origin
        assert view["your_side"] == side
        for secret in (player_only, revoked_secret, "mta_made-up"):
            assert await refused(socket(game.pk, token=secret, origin=None)) == 4401
        # a token does not excuse a foreign Origin
        assert await refused(socket(game.pk, token=reader, origin="http://evil.example")) == 4403

    scenario(run)


def test_a_socket_that_leaves_does_not_stop_the_pushes_to_those_that_stay(alice, bob, carol, committed):
    """Each socket that leaves cancels its wait on the layer, which all the sockets of a process
    share (channels_redis: one receive lock per layer): the others still get the next move."""
    game = start_game(alice, bob)
    mover = to_move(game)
    cookies = [session_cookie(user) for user in (alice, bob, carol)]
    move_text = first_legal(game)

    async def run() -> None:
        leaving, staying, also_leaving = (socket(game.pk, cookie=cookie) for cookie in cookies)
        for page in (leaving, staying, also_leaving):
            await opened(page)
        await leaving.disconnect()
        await also_leaving.disconnect()
        await committed(services.move_submit, game_id=game.pk, user=mover, move_text=move_text, expected_ply=0)
        assert (await staying.receive_json_from(timeout=WAIT))["game"]["ply"] == 1
        await staying.disconnect()

    scenario(run)


def test_an_idle_socket_outlives_the_layers_blocking_reads(alice, bob, committed):
    """A page left open for longer than a blocking read of the layer (5 s) still gets the
    next move (redis-py's 5 s default read timeout once killed such a socket: settings)."""
    game = start_game(alice, bob)
    mover = to_move(game)
    cookie, move_text = session_cookie(bob if mover == alice else alice), first_legal(game)

    async def run() -> None:
        page = socket(game.pk, cookie=cookie)
        await opened(page)
        assert await page.receive_nothing(timeout=7)
        await committed(services.move_submit, game_id=game.pk, user=mover, move_text=move_text, expected_ply=0)
        assert (await page.receive_json_from(timeout=WAIT))["game"]["ply"] == 1
        await page.disconnect()

    scenario(run)


@pytest.mark.services
def test_a_bots_move_made_by_the_worker_reaches_the_page(celery_worker, committed):
    """The bot moves in the Celery worker's process: its push crosses to this one's socket."""
    from tests.factories import make_user

    alice = make_user("alice")
    game = services.game_create_solo(user=alice, kind="onitama", bot_level=1, options={"cards": "base"})
    cookie = session_cookie(alice)

    def alice_moves() -> int:
        game.refresh_from_db()
        services.move_submit(game_id=game.pk, user=alice, move_text=first_legal(game), expected_ply=game.ply)
        return game.ply + 1

    async def run() -> None:
        page = socket(game.pk, cookie=cookie)
        view = await opened(page)
        # The bot may have moved first (the cards decide), before the page opened: then alice.
        while not view["your_turn"]:
            view = (await page.receive_json_from(timeout=60))["game"]
        played = await committed(alice_moves)
        # Only the bot's reply, made and announced by the worker, gives alice the turn again.
        view = (await page.receive_json_from(timeout=60))["game"]
        while not view["your_turn"]:
            view = (await page.receive_json_from(timeout=60))["game"]
        assert view["ply"] == played + 1 and view["moves"][-1]["side"] != view["your_side"]
        await page.disconnect()

    scenario(run)


# --- What each viewer receives ----------------------------------------------------------


def test_the_layer_carries_ids_only_never_a_view(alice, bob, committed):
    """What crosses processes is "game 12 changed"; each socket renders its own viewer's view."""
    game = start_game(alice, bob, "maatatahay", {"variant": "standard"})

    async def run() -> None:
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add(live.group_name(game.pk), channel)
        await committed(play, game, 1)
        event = await layer.receive(channel)
        assert set(event) <= {"type", "game", "event", "ply", "status", "draw_offer", "message"}, event
        assert event["type"] == live.GAME_CHANGED and event["game"] == game.pk and event["ply"] == 1
        await layer.group_discard(live.group_name(game.pk), channel)

    scenario(run)


def test_no_payload_holds_the_hidden_order_of_maatatahay(alice, bob, carol, committed):
    game = start_game(alice, bob, "maatatahay", {"variant": "standard"})
    needles: set[str] = set()

    def move_and_remember() -> None:
        needles.update(hidden_needles(full_state(game)))
        play(game, 1)
        needles.update(hidden_needles(full_state(game)))

    cookies = [session_cookie(user) for user in (alice, bob, carol)]
    salt_hex, seed = services.game_secret(game)
    secrets = {str(seed), salt_hex, game.sealed_seed}

    async def run() -> None:
        pages = [socket(game.pk, cookie=cookie) for cookie in cookies]
        payloads = [await opened(page) for page in pages]
        for _ in range(4):
            await committed(move_and_remember)
            for page in pages:
                message = await page.receive_json_from(timeout=WAIT)
                payloads.append(message["game"])
        for page in pages:
            await page.disconnect()
        assert needles
        for payload in payloads:
            text = json.dumps(payload)
            for needle in needles | secrets:
                assert needle not in text, "hidden information %r left the server" % needle[:60]
            _no_hidden_keys(payload)

    scenario(run)


def test_a_message_reaches_the_other_player_only(alice, bob, carol, committed):
    game = start_game(alice, bob)
    cookies = [session_cookie(user) for user in (bob, carol)]

    async def run() -> None:
        bobs, carols = (socket(game.pk, cookie=cookie) for cookie in cookies)
        await opened(bobs)
        await opened(carols)
        await committed(chat_services.message_create, game_id=game.pk, author=alice, text="good <luck>")
        message = await bobs.receive_json_from(timeout=WAIT)
        assert message["type"] == "message"
        assert "good &lt;luck&gt;" in message["html"] and 'id="message-%d"' % message["id"] in message["html"]
        assert "report-message" in message["html"]  # bob may report alice's message
        assert await carols.receive_nothing(timeout=WAIT), "a spectator got a message of the players"
        await bobs.disconnect()
        await carols.disconnect()

    scenario(run)


def test_a_message_of_a_blocked_player_is_not_delivered(alice, bob, committed):
    """bob blocks alice while her message is on its way: the push checks the block as the page
    does, so bob never gets it (alice, its author, still sees it in her other tab)."""
    game = start_game(alice, bob)

    def write_after_the_block() -> None:
        account_services.block_create(blocker=bob, blocked=alice)
        Message.objects.create(game=game, author=alice, text="you will not read this", ply=game.ply)

    cookies = [session_cookie(user) for user in (bob, alice)]

    async def run() -> None:
        bobs, alices = (socket(game.pk, cookie=cookie) for cookie in cookies)
        await opened(bobs)
        await opened(alices)
        await committed(write_after_the_block)
        mine = await alices.receive_json_from(timeout=WAIT)
        assert mine["type"] == "message" and "you will not read this" in mine["html"]
        assert "report-message" not in mine["html"]
        assert await bobs.receive_nothing(timeout=WAIT)
        await bobs.disconnect()
        await alices.disconnect()

    scenario(run)


# --- The page ---------------------------------------------------------------------------


def test_the_page_names_its_socket_only_with_push_on_and_someone_signed_in(client, alice, bob, settings):
    game = start_game(alice, bob)
    path = "/ws/games/%d/" % game.pk
    assert 'data-live-url=""' in client.get("/games/%d/" % game.pk).content.decode()  # anonymous
    client.force_login(alice)
    assert 'data-live-url="%s"' % path in client.get("/games/%d/" % game.pk).content.decode()
    settings.LIVE_REDIS_URL = ""
    assert 'data-live-url=""' in client.get("/games/%d/" % game.pk).content.decode()
    assert not live.push_enabled()


# --- The game page's own socket: its parts, pushed (?view=page) ---------------------------


def page_socket(game_id: int, cookie: str, lang: str = "en") -> WebsocketCommunicator:
    return socket(game_id, cookie=cookie, query="view=page&lang=%s" % lang)


async def said_hello(communicator: WebsocketCommunicator) -> dict[str, Any]:
    connected, code = await communicator.connect(timeout=WAIT)
    assert connected, "refused with %s" % code
    first = await communicator.receive_json_from(timeout=WAIT)
    assert set(first) == {"type", "ply", "status"} and first["type"] == "hello"
    return first


def test_a_page_is_pushed_its_own_parts_in_its_language_with_no_refetch(alice, bob, carol, committed):
    """The page's socket says hello with the ply only, then after a move brings each viewer the
    parts of their own page: the player to move gets their move form, the other player and a
    spectator none, each in the page's language; no part holds a CSRF token (the page adds its own)."""
    game = start_game(alice, bob, "onitama", {"cards": "base"})
    mover = to_move(game)
    waiter = bob if mover == alice else alice
    cookies = {"waiter": session_cookie(waiter), "mover": session_cookie(mover), "spectator": session_cookie(carol)}
    move_text = first_legal(game)

    async def run() -> None:
        pages = {
            name: page_socket(game.pk, cookie, "ar" if name == "spectator" else "en")
            for name, cookie in cookies.items()
        }
        for page in pages.values():
            assert (await said_hello(page))["ply"] == 0
        await committed(services.move_submit, game_id=game.pk, user=mover, move_text=move_text, expected_ply=0)
        got = {name: await page.receive_json_from(timeout=WAIT) for name, page in pages.items()}
        for name, message in got.items():
            assert message["type"] == "page" and message["ply"] == 1 and message["status"] == GameStatus.ACTIVE, name
            assert set(message["parts"]) == {"header", "board", "actions", "moves"}
            assert move_text in message["parts"]["moves"]
            assert "csrfmiddlewaretoken" not in json.dumps(message["parts"])
        assert 'id="move-data"' in got["waiter"]["parts"]["board"] and got["waiter"]["poll"] is False
        assert 'id="move-data"' not in got["mover"]["parts"]["board"] and got["mover"]["poll"] is True
        assert 'id="move-data"' not in got["spectator"]["parts"]["board"]
        assert "Resign" in got["mover"]["parts"]["actions"] and "Resign" not in got["spectator"]["parts"]["actions"]
        assert "النقلات" in got["spectator"]["parts"]["moves"]  # "Moves", in the page's Arabic
        for page in pages.values():
            await page.disconnect()

    scenario(run)


def test_no_pushed_part_holds_the_hidden_order_of_maatatahay(alice, bob, carol, committed):
    game = start_game(alice, bob, "maatatahay", {"variant": "standard"})
    needles: set[str] = set()

    def move_and_remember() -> None:
        needles.update(hidden_needles(full_state(game)))
        play(game, 1)
        needles.update(hidden_needles(full_state(game)))

    cookies = [session_cookie(user) for user in (alice, bob, carol)]
    salt_hex, seed = services.game_secret(game)
    secrets = {str(seed), salt_hex, game.sealed_seed}

    async def run() -> None:
        pages = [page_socket(game.pk, cookie) for cookie in cookies]
        payloads = [await said_hello(page) for page in pages]
        for _ in range(4):
            await committed(move_and_remember)
            for page in pages:
                payloads.append(await page.receive_json_from(timeout=WAIT))
        for page in pages:
            await page.disconnect()
        assert needles
        for payload in payloads:
            text = json.dumps(payload)
            for needle in needles | secrets:
                assert needle not in text, "hidden information %r left the server" % needle[:60]

    scenario(run)


async def only_member(layer: Any, game_id: int) -> str:
    """The one channel in the game's group (in-memory or Redis layer)."""
    group = live.group_name(game_id)
    if hasattr(layer, "groups"):  # Channels' in-memory layer
        members = list(layer.groups.get(group, {}))
    else:  # channels-redis: a sorted set of channel names
        connection = layer.connection(layer.consistent_hash(group))
        members = [m.decode() for m in await connection.zrange(layer._group_key(group), 0, -1)]
    assert len(members) == 1, members
    return members[0]


def test_a_ping_renews_the_sockets_place_in_the_group_after_the_layer_expired_it(alice, bob, carol, committed):
    """The layer forgets a group's member after its expiry (a day in production): a page's
    ping puts its socket back, so the next move still reaches it; the pong says where the
    game stands, so a page that missed a change fetches it."""
    game = start_game(alice, bob, "onitama", {"cards": "base"})
    mover = to_move(game)
    cookie, move_text = session_cookie(carol), first_legal(game)

    async def run() -> None:
        page = page_socket(game.pk, cookie)
        await said_hello(page)
        layer = get_channel_layer()
        # What the layer does when the membership expires: the socket is no member any more.
        await layer.group_discard(live.group_name(game.pk), await only_member(layer, game.pk))
        await committed(services.move_submit, game_id=game.pk, user=mover, move_text=move_text, expected_ply=0)
        assert await page.receive_nothing(timeout=1.0)
        await page.send_input({"type": "websocket.receive", "text": json.dumps({"type": "ping"})})
        pong = await page.receive_json_from(timeout=WAIT)
        assert pong == {"type": "pong", "ply": 1, "status": GameStatus.ACTIVE}  # the page fetches the move it missed
        await committed(services.draw_offer, game_id=game.pk, user=mover)
        assert (await page.receive_json_from(timeout=WAIT))["type"] == "page"
        await page.disconnect()

    scenario(run)
