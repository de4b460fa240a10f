"""Two browsers on one game, served over ASGI as in production (uvicorn): the move and the
message made in one appear in the other without a reload, while its message box keeps the
text being typed. The push latency seen there is printed (measured, never asserted)."""

from __future__ import annotations

import json
import os
import time
import uuid
from collections.abc import Iterator

import pytest

from games import services
from games.models import Game
from games.rules import legal_moves_of
from maatasite.settings import live_channel_layers
from tests.helpers import asgi_served, browser_login

from .conftest import make_user, start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# How long the test waits for the other page (a failure, not a measure: the latency is printed).
APPEAR_MS = 10000
HALF_WRITTEN = "I was about to say that your last mo"
# Each page notes when a socket message arrives (the browsers share this machine's clock).
RECORD_SOCKET = """
window.__liveArrivals = [];
(function () {
  var Native = window.WebSocket;
  window.WebSocket = function (url, protocols) {
    var socket = protocols ? new Native(url, protocols) : new Native(url);
    socket.addEventListener("message", function (event) {
      try { window.__liveArrivals.push({at: Date.now(), type: JSON.parse(event.data).type}); } catch (e) {}
    });
    return socket;
  };
  window.WebSocket.prototype = Native.prototype;
})();
"""


@pytest.fixture
def asgi_live_server(settings, transactional_db) -> Iterator[str]:
    """maatasite.asgi served by uvicorn in a thread of this process (the test database), with
    static files from the apps' folders, and push on (Redis at LIVE_TEST_REDIS_URL if set, else the
    in-memory layer, which this one process shares)."""
    from channels.routing import ProtocolTypeRouter
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    from maatasite.asgi import django_application, websocket_application

    url = os.environ.get("LIVE_TEST_REDIS_URL", "")
    prefix = "%s-browser-%s" % (settings.LIVE_KEY_PREFIX, uuid.uuid4().hex[:8])
    settings.CHANNEL_LAYERS = (
        live_channel_layers(url, prefix) if url else {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    )
    settings.LIVE_REDIS_URL = url or "in-memory (tests)"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    application = ProtocolTypeRouter(
        {"http": ASGIStaticFilesHandler(django_application), "websocket": websocket_application}
    )
    with asgi_served(application) as base:
        yield base


def legal_move_texts(game: Game) -> list[str]:
    """The texts of the legal moves of the game as it is now (the engine's)."""
    game.refresh_from_db()
    return [move.text for move in legal_moves_of(kind=game.kind, state=services.game_state(game))]


def socket_open(page) -> None:
    """Wait for the page's socket (the page's CSP forbids wait_for_function's eval)."""
    deadline = time.monotonic() + APPEAR_MS / 1000
    while not page.evaluate("() => Boolean(window.maatasiteLive && window.maatasiteLive.connected)"):
        assert time.monotonic() < deadline, "the page's socket did not open"
        page.wait_for_timeout(50)


def arrival_after(page, type_: str, since_ms: float) -> float:
    """Milliseconds from ``since_ms`` to the first socket message of ``type_`` after it."""
    arrivals = page.evaluate("() => window.__liveArrivals")
    return min(a["at"] for a in arrivals if a["type"] == type_ and a["at"] >= since_ms) - since_ms


def test_a_move_and_a_message_appear_in_the_other_browser_without_reload(asgi_live_server, browser):
    base = asgi_live_server
    make_user("alice")
    make_user("bob")
    from accounts.models import User

    alice, bob = User.objects.get(username="alice"), User.objects.get(username="bob")
    game = start_game(alice, bob, "onitama", {"cards": "base"})
    mover = game.to_move_user
    assert mover is not None
    watcher_name = "bob" if mover.username == "alice" else "alice"
    pages = {}
    for name in ("alice", "bob"):
        context = browser.new_context()
        context.add_init_script(RECORD_SOCKET)
        page = context.new_page()
        browser_login(page, base, name)
        page.goto("%s/games/%d/" % (base, game.pk))
        socket_open(page)
        pages[name] = page
    moving, watching = pages[mover.username], pages[watcher_name]

    # The watcher starts a message; the page must not reload under it (the marker would go).
    watching.evaluate("() => { window.__sameDocument = true; }")
    watching.locator("#message-text").click()
    watching.keyboard.type(HALF_WRITTEN)
    assert watching.locator("#move-form").count() == 0

    # A move in one browser (typed in notation, then confirmed)...
    moving.locator("#move-text").fill(legal_move_texts(game)[0])
    started = time.time() * 1000
    moving.locator("#confirm-move").click()
    # ...appears in the other: its ply, the board, and its turn to play.
    watching.locator(".game-page[data-ply='1']").wait_for(state="attached", timeout=APPEAR_MS)
    shown = time.time() * 1000 - started
    watching.locator("#move-form").wait_for(timeout=APPEAR_MS)
    assert watching.evaluate("() => window.__sameDocument") is True, "the page was reloaded"
    assert watching.locator("#message-text").input_value() == HALF_WRITTEN
    assert watching.evaluate("() => document.activeElement && document.activeElement.id") == "message-text"
    assert watching.locator(".move-list .ply").count() == 1
    move_push = arrival_after(watching, "page", started)  # a page gets its own parts (games/consumers.py)

    # A message in the first browser appears in the other, whose half-written text stays.
    moving.locator("#message-text").fill("well played")
    started = time.time() * 1000
    moving.locator("#send-message").click()
    watching.locator(".message-list .message-text", has_text="well played").wait_for(timeout=APPEAR_MS)
    message_shown = time.time() * 1000 - started
    message_push = arrival_after(watching, "message", started)
    assert watching.evaluate("() => window.__sameDocument") is True, "the page was reloaded"
    assert watching.locator("#message-text").input_value() == HALF_WRITTEN
    # The new message can be reported from the page, with the page's CSRF token.
    report = watching.locator(".message-list .message form.report-message").last
    assert report.locator("input[name=csrfmiddlewaretoken]").input_value()

    # The watcher finishes and sends their own message: nothing was lost.
    watching.keyboard.type("ve was a good one")
    watching.locator("#send-message").click()
    moving.locator(".message-list .message-text", has_text=HALF_WRITTEN + "ve was a good one").wait_for(
        timeout=APPEAR_MS
    )
    # The move form that came with the patch works: its board is set up (choosing a piece marks the
    # squares it reaches), and a move entered on the board plays.
    watching.wait_for_load_state()
    moves = [
        m
        for m in json.loads(watching.locator("#move-data").text_content() or "{}")["moves"]
        if m["parts"]["type"] == "move"
    ]
    chosen = moves[0]["parts"]
    watching.locator(".board-wrap svg rect.space[data-square='%s']" % chosen["from"]).click()
    assert watching.locator(".space.selected[data-square='%s']" % chosen["from"]).count() == 1
    reachable = {m["parts"]["to"] for m in moves if m["parts"]["from"] == chosen["from"]}
    marked = watching.locator(".board-wrap .space.target")
    assert {marked.nth(i).get_attribute("data-square") for i in range(marked.count())} == reachable
    watching.locator(".board-wrap svg rect.space[data-square='%s']" % chosen["to"]).click()
    if watching.locator("#card-choices").is_visible():
        watching.locator("#card-choices button", has_text=chosen["card"].replace("_", " ")).click()
    watching.locator("#confirm-move").click()
    moving.locator(".game-page[data-ply='2']").wait_for(state="attached", timeout=APPEAR_MS)
    assert Game.objects.get(pk=game.pk).ply == 2
    print(
        "\nlive push (onitama, 2 browsers): move click -> socket message %.0f ms, -> page patched %.0f ms; "
        "message send -> socket message %.0f ms, -> shown %.0f ms" % (move_push, shown, message_push, message_shown)
    )
