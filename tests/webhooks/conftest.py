"""The webhooks tests' receiver: a real HTTP server (http.server in a thread) on 127.0.0.1,
allowed by the test-only setting WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS. It checks every request's
signature and timestamp as the README tells a receiver to, with the secret the test gives it,
and answers as the test scripts it (fail the first n, redirect, be slow)."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from tests.api_clients import alice_api, anon, api_settings, bob_api, carol_api  # noqa: F401  (fixtures)
from webhooks import targets

SIGNATURE_HEADER = "Maatasite-Signature"
#: The padding of a trickled answer: at one byte every ``trickle`` seconds, far longer than the timeout.
TRICKLE_BYTES = 2000


def receiver_verifies(*, secret: str, header: str, body: bytes, now: float) -> bool:
    """A receiver's own check, written from the README (not the site's code): HMAC-SHA256 of
    "<t>.<body>", compared in constant time, and a timestamp at most 5 minutes away."""
    try:
        fields = dict(part.split("=", 1) for part in header.split(","))
        stamp = int(fields["t"])
        given = fields["v1"]
    except (KeyError, ValueError):
        return False
    expected = hmac.new(secret.encode(), ("%d." % stamp).encode() + body, hashlib.sha256).hexdigest()
    return abs(now - stamp) <= 300 and hmac.compare_digest(expected, given)


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    signature_ok: bool
    answered: int

    @property
    def payload(self) -> dict[str, Any]:
        return json.loads(self.body)

    @property
    def timestamp(self) -> int:
        return int(dict(p.split("=", 1) for p in self.headers[SIGNATURE_HEADER].split(","))["t"])


@dataclass
class Receiver:
    port: int
    secret: str = ""
    fail_first: int = 0  # answer 500 to this many requests first
    answer: int = 204
    redirect_to: str = ""
    delay: float = 0.0
    trickle: float = 0.0  # send the answer one byte at a time, this many seconds apart
    trickled: int = 0  # bytes of the trickled answer sent before the site hung up
    cut_off: threading.Event = field(default_factory=threading.Event)  # the site hung up mid-answer
    clock: Any = None  # the receiver's "now" for the timestamp check (default: time.time)
    requests: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def url(self, path: str = "/hook", host: str = "127.0.0.1") -> str:
        return "http://%s:%d%s" % (host, self.port, path)

    @property
    def accepted(self) -> list[Received]:
        return [r for r in self.requests if r.signature_ok and 200 <= r.answered < 300]


@pytest.fixture
def receiver(settings) -> Iterator[Receiver]:
    settings.WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS = True
    settings.API_EVENTS_SETTLE_SECONDS = 0
    settings.WEBHOOKS_TIMEOUT_SECONDS = 5.0
    state = Receiver(port=0)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            now = state.clock() if state.clock else time.time()
            ok = receiver_verifies(
                secret=state.secret, header=self.headers.get(SIGNATURE_HEADER, ""), body=body, now=now
            )
            with state.lock:
                failing = len(state.requests) < state.fail_first
                code = 401 if not ok else 500 if failing else 302 if state.redirect_to else state.answer
                state.requests.append(Received(self.path, dict(self.headers.items()), body, ok, code))
            if state.delay:
                time.sleep(state.delay)
            if state.trickle:
                self.trickle(code)
                return
            self.send_response(code)
            if code == 302:
                self.send_header("Location", state.redirect_to)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def trickle(self, code: int) -> None:
            """A whole answer, one byte at a time: each read of the site's gets a byte well
            within its timeout, so only a deadline on the whole delivery ends it."""
            answer = b"HTTP/1.1 %d OK\r\nX-Padding: %s\r\nContent-Length: 0\r\n\r\n" % (code, b"a" * TRICKLE_BYTES)
            try:
                for index in range(len(answer)):
                    self.wfile.write(answer[index : index + 1])
                    state.trickled += 1
                    time.sleep(state.trickle)
            except OSError:
                state.cut_off.set()
            self.close_connection = True

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    state.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield state
    server.shutdown()
    server.server_close()


@pytest.fixture
def no_private_packets(monkeypatch):
    """Fail the test if anything connects anywhere but loopback (the checks must refuse first)."""
    import ipaddress
    import socket

    real = socket.create_connection

    def guarded(address, *args, **kwargs):
        host = address[0]
        assert ipaddress.ip_address(host).is_loopback, "a connection to %s was attempted" % host
        return real(address, *args, **kwargs)

    monkeypatch.setattr(socket, "create_connection", guarded)


@pytest.fixture
def stub_dns(monkeypatch) -> dict[str, list[str]]:
    """A resolver of the test's own: name -> addresses (an unknown name does not resolve)."""
    table: dict[str, list[str]] = {}

    def resolve(host: str, port: int) -> list[str]:
        if host not in table:
            raise OSError("unknown name %s" % host)
        return list(table[host])

    monkeypatch.setattr(targets, "resolve", resolve)
    return table
