"""Redis or PostgreSQL out of reach: 503 with Retry-After, never a 500, and the site recovers by
itself once the service is back (maatasite/unavailable.py)."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
import uuid

import psycopg
import psycopg_pool
import pytest
import redis
from django.db import OperationalError
from django.test import Client

from api import services as api_services
from maatasite.unavailable import RETRY_AFTER_SECONDS, backing_service_down
from tests.api_clients import token_client
from tests.factories import make_user
from tests.helpers import asgi_served, wait_for

SITE_REDIS_CACHE = "maatasite.redis_cache.RedisCacheKeepingClients"


def _database_down() -> OperationalError:
    """What Django raises when PostgreSQL refuses a connection: its error, caused by psycopg's."""
    try:
        try:
            raise psycopg.OperationalError("connection failed: Connection refused")
        except psycopg.OperationalError as cause:
            raise OperationalError(*cause.args) from cause
    except OperationalError as error:
        return error


def _wrapped(cause: Exception) -> OperationalError:
    error = OperationalError("wrapped")
    error.__cause__ = cause
    return error


def test_only_a_lost_or_refused_connection_counts_as_a_service_down():
    assert backing_service_down(redis.exceptions.ConnectionError("Connection refused"))
    assert backing_service_down(redis.exceptions.TimeoutError("Timeout reading from socket"))
    assert backing_service_down(_database_down())
    assert backing_service_down(_wrapped(psycopg_pool.PoolTimeout("couldn't get a connection after 10.00 sec")))
    assert backing_service_down(_wrapped(psycopg.errors.AdminShutdown("terminating connection")))
    assert backing_service_down(_wrapped(psycopg.errors.CannotConnectNow("the database system is starting up")))
    # A transaction's own failure is the request's (retried or reported), not an outage.
    assert not backing_service_down(_wrapped(psycopg.errors.SerializationFailure("could not serialize")))
    assert not backing_service_down(_wrapped(psycopg.errors.DeadlockDetected("deadlock detected")))
    assert not backing_service_down(redis.exceptions.ResponseError("WRONGTYPE"))
    assert not backing_service_down(ValueError("a bug"))
    assert not backing_service_down(None)


@pytest.mark.django_db
def test_a_page_whose_database_is_down_answers_503_with_retry_after(monkeypatch):
    from games import selectors

    player = make_user("outage")
    client = Client(raise_request_exception=False)
    client.force_login(player)

    def database_down(**_kwargs):
        raise _database_down()

    monkeypatch.setattr(selectors, "player_game_ids", database_down)
    response = client.get("/lobby/")
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert "Back in a moment" in response.content.decode()

    # Try again leads to the same address for a read; a form sent there goes back to the page it
    # was sent from (the form's own address does not answer a GET), if that is this site's.
    assert 'href="/lobby/?page=2"' in client.get("/lobby/?page=2").content.decode()
    sent_from = "http://testserver/games/7/"
    assert ('href="%s"' % sent_from) in client.post("/lobby/", HTTP_REFERER=sent_from).content.decode()
    elsewhere = client.post("/lobby/", HTTP_REFERER="https://elsewhere.example/phish").content.decode()
    assert 'href="/"' in elsewhere and "elsewhere" not in elsewhere
    assert 'href="/"' in client.post("/lobby/").content.decode()

    def deadlock(**_kwargs):
        raise _wrapped(psycopg.errors.DeadlockDetected("deadlock detected"))

    monkeypatch.setattr(selectors, "player_game_ids", deadlock)
    response = client.get("/lobby/")
    assert response.status_code == 500 and not response.has_header("Retry-After")


@pytest.mark.django_db
def test_the_503_page_is_in_the_viewers_language(monkeypatch):
    from games import selectors

    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="ar")
    client.force_login(make_user("outage_ar"))

    def database_down(**_kwargs):
        raise _database_down()

    monkeypatch.setattr(selectors, "player_game_ids", database_down)
    html = client.get("/lobby/").content.decode()
    assert 'lang="ar" dir="rtl"' in html and "نعود بعد قليل" in html


@pytest.mark.django_db
def test_an_api_request_whose_redis_is_down_answers_503_in_the_api_shape(monkeypatch, caplog):
    from api import base

    client = token_client(make_user("outage_api"))
    client.raise_request_exception = False

    def redis_down(*_args, **_kwargs):
        raise redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(base, "budgets_spend", redis_down)
    response = client.get("/api/v1/me/")
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    body = response.json()
    assert body["code"] == "service_unavailable" and "try again" in body["message"]
    assert "6379" not in response.content.decode()  # the service's address stays in the log
    logged = [record for record in caplog.records if record.name == "django.request"]
    assert len(logged) == 1 and logged[0].exc_info is not None  # once, with the exception
    assert logged[0].getMessage() == "Service Unavailable: /api/v1/me/"

    def a_bug(*_args, **_kwargs):
        raise ValueError("a bug")

    monkeypatch.setattr(base, "budgets_spend", a_bug)
    response = client.get("/api/v1/me/")
    assert response.status_code == 500 and response.json()["code"] == "server_error"
    assert not response.has_header("Retry-After")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _redis_started(port: int) -> subprocess.Popen[bytes]:
    """A redis-server of this test's own on ``port``, keeping nothing on disk, once it answers."""
    server = subprocess.Popen(
        [shutil.which("redis-server") or "redis-server", "--port", str(port), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )

    def answers() -> bool:
        try:
            return bool(redis.Redis(port=port, socket_timeout=1).ping())
        except redis.exceptions.ConnectionError:
            return False

    wait_for(answers, "redis-server on port %d" % port, timeout=20)
    return server


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, _lowered(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, _lowered(error.headers), error.read().decode()


def _lowered(headers) -> dict[str, str]:
    """The answer's headers by lowercase name (uvicorn sends them lowercase)."""
    return {name.lower(): value for name, value in headers.items()}


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_redis_killed_under_a_running_server_is_503_and_the_server_recovers_when_it_is_back(settings):
    """The cache's Redis dies with SIGKILL while the production server's worker runs, then
    comes back on the same port, empty. Meanwhile pages and the API answer 503 with
    Retry-After; afterwards the same worker, through its one shared client (maatasite/
    redis_cache.py), serves them again, and the signed-in player is still signed in (the
    session is in the database too)."""
    from maatasite.asgi import django_application

    port = _free_port()
    server = _redis_started(port)
    settings.CACHES = {
        "default": {
            "BACKEND": SITE_REDIS_CACHE,
            "LOCATION": "redis://127.0.0.1:%d/0" % port,
            "KEY_PREFIX": "outage-%s" % uuid.uuid4().hex,
        }
    }
    player = make_user("outage_live")
    browser = Client()
    browser.force_login(player)
    cookie = {"Cookie": "sessionid=%s" % browser.cookies["sessionid"].value}
    _token, secret = api_services.token_create(user=player, name="outage", scopes=["read"])
    bearer = {"Authorization": "Bearer " + secret}
    try:
        with asgi_served(django_application) as base:
            assert _get(base + "/lobby/", cookie)[0] == 200
            assert _get(base + "/api/v1/me/", bearer)[0] == 200

            server.kill()
            server.wait(timeout=20)
            for url, headers in (
                (base + "/lobby/", cookie),
                (base + "/api/v1/me/", bearer),
                (base + "/api/v1/ping/", {}),
            ):
                status, answer_headers, body = _get(url, headers)
                assert status == 503, (url, status, body[:300])
                assert answer_headers["retry-after"] == str(RETRY_AFTER_SECONDS), url
                assert str(port) not in body, url
            status, answer_headers, body = _get(base + "/api/v1/me/", bearer)
            assert answer_headers["content-type"].startswith("application/json")
            assert json.loads(body)["code"] == "service_unavailable"

            server = _redis_started(port)
            status, _headers, body = _get(base + "/lobby/", cookie)
            assert status == 200 and "outage_live" in body  # still signed in
            assert _get(base + "/api/v1/me/", bearer)[0] == 200
            assert _get(base + "/api/v1/ping/")[0] == 200
    finally:
        server.kill()
        server.wait(timeout=20)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_postgresql_dropping_its_connections_mid_request_is_503_and_the_pool_replaces_them(monkeypatch):
    """PostgreSQL ends every connection of the site (as its restart does) while a request is in
    its view, with several more idle in the pool: that request answers 503 with Retry-After, and
    the next ones are served at once by new connections. (psycopg_pool finds a dead idle
    connection only when it hands it out, and backs off 1 s, 2 s, 4 s... after each: with four
    dead, the next request waited out the pool's timeout and answered 503 too.)"""
    from django.db import connection, connections

    from games import selectors
    from maatasite.asgi import django_application

    player = make_user("dropped")
    browser = Client()
    browser.force_login(player)
    cookie = {"Cookie": "sessionid=%s" % browser.cookies["sessionid"].value}
    pool = getattr(connection, "pool", None)  # PostgreSQL's backend only
    assert pool is not None, "the site's PostgreSQL settings use a pool (maatasite/settings.py)"
    read_ids, in_view, go_on = selectors.player_game_ids, threading.Semaphore(0), threading.Event()

    def held_game_ids(**kwargs):
        if not go_on.is_set():  # requests wait here, each with its connection open
            in_view.release()
            assert go_on.wait(30)
        return read_ids(**kwargs)

    def lobby_in_thread(answers: list) -> threading.Thread:
        thread = threading.Thread(target=lambda: answers.append(_get(base + "/lobby/", cookie)))
        thread.start()
        return thread

    monkeypatch.setattr(selectors, "player_game_ids", held_game_ids)
    # Room in the pool for six more connections, whatever this process holds already.
    stats = pool.get_stats()
    sizes = (pool.min_size, pool.max_size)
    pool.resize(pool.min_size, max(pool.max_size, stats["pool_size"] - stats["pool_available"] + 6))
    try:
        with asgi_served(django_application) as base:
            # Five requests at once leave five connections idle in the pool.
            warm: list = []
            threads = [lobby_in_thread(warm) for _ in range(5)]
            for _ in threads:
                assert in_view.acquire(timeout=30)
            go_on.set()
            for thread in threads:
                thread.join(timeout=60)
            assert [answer[0] for answer in warm] == [200] * 5
            wait_for(lambda: pool.get_stats()["pool_available"] >= 5, "five idle connections in the pool", timeout=10)

            go_on.clear()
            held_answer: list = []
            held = lobby_in_thread(held_answer)
            assert in_view.acquire(timeout=30)
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
                assert len(cursor.fetchall()) >= 5, "the held request's connection and four idle"
            go_on.set()
            held.join(timeout=60)
            ((status, headers, body),) = held_answer
            assert status == 503 and headers["retry-after"] == str(RETRY_AFTER_SECONDS), body[:300]
            for _ in range(10):
                started = time.monotonic()
                status, _headers, body = _get(base + "/lobby/", cookie)
                assert status == 200, body[:300]
                assert time.monotonic() - started < 1.0, "the request waited on dead connections"
            assert "dropped" in body
    finally:
        pool.resize(*sizes)
    assert getattr(connections["default"], "pool", None) is pool  # the same pool, resized back
