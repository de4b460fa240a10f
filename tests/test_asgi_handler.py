"""The pages' ASGI handler (maatasite/asgi_handler.py): the middleware chain and the view run
as one sync call per request, and what the site answers through it is what Django's own ASGI
handler answered (the trivial view and its headers, the API's JSON errors and ping, CSRF
refusals), and a client that hangs up mid-request leaves no database connection behind."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from asgiref import sync
from asgiref.testing import ApplicationCommunicator
from django.core.handlers.asgi import ASGIHandler

from maatasite.asgi import application, django_application
from maatasite.asgi_handler import SyncChainASGIHandler
from tests.helpers import asgi_served, wait_for


def _crossings_of_one_request(monkeypatch, handler, path: str) -> tuple[int, int]:
    """How many times one GET of ``path`` through ``handler`` went from the event loop to a
    thread (sync_to_async) and back (async_to_sync), and its status."""
    counted = {"crossings": 0}
    to_thread, to_loop = sync.SyncToAsync.__call__, sync.AsyncToSync.__call__

    async def counting_to_thread(self, *args, **kwargs):
        counted["crossings"] += 1
        return await to_thread(self, *args, **kwargs)

    def counting_to_loop(self, *args, **kwargs):
        counted["crossings"] += 1
        return to_loop(self, *args, **kwargs)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"host", b"127.0.0.1")],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 80),
    }

    async def one_request() -> int:
        communicator = ApplicationCommunicator(handler, scope)
        await communicator.send_input({"type": "http.request", "body": b"", "more_body": False})
        start = await communicator.receive_output(timeout=30)
        while (await communicator.receive_output(timeout=30)).get("more_body"):
            pass
        await communicator.wait(timeout=30)
        return start["status"]

    monkeypatch.setattr(sync.SyncToAsync, "__call__", counting_to_thread)
    monkeypatch.setattr(sync.AsyncToSync, "__call__", counting_to_loop)
    try:
        # in a thread of its own: the browser tests' Playwright keeps a loop running in this one
        with ThreadPoolExecutor(max_workers=1) as pool:
            status = pool.submit(asyncio.run, one_request()).result()
    finally:
        monkeypatch.undo()
    return counted["crossings"], status


def test_the_pages_are_served_by_the_sync_chain_handler():
    assert isinstance(django_application, SyncChainASGIHandler)
    assert not asyncio.iscoroutinefunction(getattr(django_application, "_middleware_chain"))  # noqa: B009


def test_a_request_enters_the_sync_chain_once(monkeypatch):
    """Django's own handler crossed between the loop and a thread at each middleware whose mode
    changed; this one crosses for the request's signals, the chain, and closing the answer."""
    ours, status = _crossings_of_one_request(monkeypatch, SyncChainASGIHandler(), "/floor/")
    djangos, django_status = _crossings_of_one_request(monkeypatch, ASGIHandler(), "/floor/")
    assert status == django_status == 200
    assert ours <= 4
    assert djangos > ours


def _fetch(url: str, data: bytes | None = None) -> tuple[int, Any, bytes]:
    """The status, headers (any case) and body of one request (a POST when ``data`` is given)."""
    request = urllib.request.Request(url, data=data)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def test_through_uvicorn_the_site_answers_as_before():
    """The production server's worker in front of the whole ASGI application (pages and sockets)."""
    with asgi_served(application) as base:
        status, headers, body = _fetch(base + "/floor/")
        assert status == 200 and headers["Content-Type"].startswith("application/json")
        assert headers.get("X-Request-ID") and "Content-Security-Policy" in headers
        status, headers, body = _fetch(base + "/api/v1/no-such-thing/")
        assert status == 404 and b'"code": "not_found"' in body
        # a form POST without its CSRF token is refused before any view runs
        status, headers, body = _fetch(base + "/accounts/login/", data=b"username=a&password=b")
        assert status == 403
        status, headers, body = _fetch(base + "/api/v1/ping/")
        assert status == 200 and headers["Content-Type"].startswith("application/json")


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_clients_that_hang_up_mid_request_give_back_every_database_connection(monkeypatch):
    """More clients than the database pool has free (its 8, less what this process holds) each
    send a slow request and hang up before the answer. Each request still runs to its end in
    its own thread and gives its connection back to the pool: the next request is served at
    once, not after the pool's timeout (and a 503 with the pool exhausted), and the pool has as
    many connections out as before."""
    from django.db import connections
    from django.test import Client

    from games import selectors
    from tests.factories import make_user

    player = make_user("hangs_up")
    browser = Client()
    browser.force_login(player)
    cookie = "sessionid=%s" % browser.cookies["sessionid"].value
    pool = getattr(connections["default"], "pool", None)  # PostgreSQL's backend only
    assert pool is not None, "the site's PostgreSQL settings use a pool (maatasite/settings.py)"

    def connections_out() -> int:
        """Connections taken from the pool and not given back (this test's own, and any an
        earlier test of this process left in a thread of its own)."""
        stats = pool.get_stats()
        return stats["pool_size"] - stats["pool_available"]

    out_before = connections_out()
    clients = pool.max_size - out_before + 2
    read_ids, slow, entered, finished = selectors.player_game_ids, threading.Event(), threading.Semaphore(0), []

    def slow_game_ids(**kwargs):
        if slow.is_set():
            entered.release()
            time.sleep(1.0)  # the client hangs up meanwhile
        ids = read_ids(**kwargs)
        finished.append(threading.get_ident())
        return ids

    monkeypatch.setattr(selectors, "player_game_ids", slow_game_ids)
    slow.set()
    with asgi_served(django_application) as base:
        port = int(base.rsplit(":", 1)[1])
        for _ in range(clients):
            with socket.create_connection(("127.0.0.1", port)) as hanging_up:
                hanging_up.sendall(b"GET /lobby/ HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: %s\r\n\r\n" % cookie.encode())
                assert entered.acquire(timeout=30), "the request did not reach the view"  # then the client goes
        wait_for(lambda: len(finished) == clients, "the abandoned requests' ends", timeout=60)
        slow.clear()
        started = time.monotonic()
        request = urllib.request.Request(base + "/lobby/", headers={"Cookie": cookie})
        with urllib.request.urlopen(request, timeout=60) as answer:
            assert answer.status == 200 and "hangs_up" in answer.read().decode()
        assert time.monotonic() - started < pool.timeout / 2, "the request waited for a connection"
        # Every connection comes back (the last request's once its answer is closed): none is
        # left with an abandoned request.
        wait_for(lambda: connections_out() <= out_before, "the connections back in the pool", timeout=10)
        assert pool.get_stats().get("requests_waiting", 0) == 0
