"""Rate-limit counters live in Django's cache (CACHE_URL), not in a process's memory:
separate clients, and separate processes sharing a Redis cache, spend one budget,
and simultaneous requests never lose a count."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from types import SimpleNamespace

import pytest
import redis
from django.conf import settings as django_settings
from django.core.cache import cache

from api import throttling
from maatasite.redis_cache import RedisCacheKeepingClients
from tests.helpers import asgi_served, settings_in_subprocess

from .conftest import token_client

ROOT = Path(__file__).resolve().parents[2]
# The backend the settings choose for CACHE_URL=redis://... (maatasite/redis_cache.py).
SITE_REDIS_CACHE = "maatasite.redis_cache.RedisCacheKeepingClients"
FROZEN = 1_800_000_000.0  # a fixed clock, far from a window boundary


def freeze_throttles(monkeypatch, at: float) -> None:
    """Every API throttle reads ``at`` as the time (their ``timer``, as in DRF's throttles)."""
    for throttle in (throttling.UserRateThrottle, throttling.IPRateThrottle, throttling.AuthRateThrottle):
        monkeypatch.setattr(throttle, "timer", staticmethod(lambda: at))


@pytest.fixture
def frozen_clock(monkeypatch):
    freeze_throttles(monkeypatch, FROZEN + 1.0)


def _counter_key(user, period: int = 60, now: float = FROZEN + 1.0) -> str:
    return throttling.counter_key("user", user.pk, period=period, now=now)


@pytest.mark.django_db
def test_two_clients_of_one_user_share_the_counter_in_the_cache(settings, alice, frozen_clock):
    settings.API_THROTTLE_RATES = {"user": "2/min", "ip": "1000/min", "auth": "1000/min"}
    phone, laptop = token_client(alice), token_client(alice)
    assert phone.get("/api/v1/me/").status_code == 200
    assert cache.get(_counter_key(alice)) == 1  # the count is in the cache, under the user's key
    assert laptop.get("/api/v1/me/").status_code == 200
    assert cache.get(_counter_key(alice)) == 2
    refused = phone.get("/api/v1/me/")
    assert refused.status_code == 429 and refused.json()["code"] == "throttled"


@pytest.mark.django_db
def test_an_emptied_cache_gives_the_budget_back(settings, alice, frozen_clock):
    """Nothing counts outside the cache: a request is refused only by what the cache holds."""
    settings.API_THROTTLE_RATES = {"user": "1/min", "ip": "1000/min", "auth": "1000/min"}
    client = token_client(alice)
    assert client.get("/api/v1/me/").status_code == 200
    assert client.get("/api/v1/me/").status_code == 429
    cache.delete(_counter_key(alice))
    assert client.get("/api/v1/me/").status_code == 200


def _redis_url() -> str:
    configured = os.environ.get("CACHE_URL", "")
    return configured if configured.startswith("redis") else os.environ["CELERY_BROKER_URL"]


@pytest.mark.services
@pytest.mark.django_db
def test_another_process_sees_and_spends_the_same_redis_counter(settings, alice, frozen_clock):
    """Two gunicorn workers are two processes: one with the same CACHE_URL sees the
    counter this process wrote and adds to it, so the next request here is refused."""
    prefix = django_settings.CACHES["default"]["KEY_PREFIX"]
    settings.CACHES = {
        "default": {
            "BACKEND": SITE_REDIS_CACHE,
            "LOCATION": _redis_url(),
            "KEY_PREFIX": prefix,
        }
    }
    settings.API_THROTTLE_RATES = {"user": "3/min", "ip": "1000/min", "auth": "1000/min"}
    client = token_client(alice)
    assert [client.get("/api/v1/me/").status_code for _ in range(2)] == [200, 200]
    other_process = (
        "import django, sys\n"
        "django.setup()\n"
        "from django.core.cache import cache\n"
        "cache.key_prefix = sys.argv[2]  # the test's own namespace\n"
        "print(cache.incr(sys.argv[1]))\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "maatasite.settings", "CACHE_URL": _redis_url()}
    seen = subprocess.run(
        [sys.executable, "-c", other_process, _counter_key(alice), prefix],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert seen.returncode == 0, seen.stderr
    assert seen.stdout.strip() == "3"  # it saw our 2 and spent the last one
    refused = client.get("/api/v1/me/")
    assert refused.status_code == 429 and refused.json()["code"] == "throttled"
    cache.delete(_counter_key(alice))


def _race(throttle_class, threads: int) -> list[bool]:
    """``threads`` requests of one user checked by the throttle at the same moment."""
    request = SimpleNamespace(user=SimpleNamespace(pk=4242, is_authenticated=True))
    start = threading.Barrier(threads)
    answers: list[bool] = []
    lock = threading.Lock()

    def one() -> None:
        start.wait()
        allowed = throttle_class().allow_request(request, None)
        with lock:
            answers.append(allowed)

    workers = [threading.Thread(target=one) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return answers


def test_simultaneous_requests_spend_the_budget_exactly(settings, frozen_clock):
    settings.API_THROTTLE_RATES = {"user": "5/min", "ip": "1000/min", "auth": "1000/min"}
    answers = _race(throttling.UserRateThrottle, 24)
    assert answers.count(True) == 5 and answers.count(False) == 19


@pytest.mark.services
def test_simultaneous_requests_spend_the_budget_exactly_in_redis(settings, frozen_clock):
    prefix = django_settings.CACHES["default"]["KEY_PREFIX"]
    settings.CACHES = {
        "default": {
            "BACKEND": SITE_REDIS_CACHE,
            "LOCATION": _redis_url(),
            "KEY_PREFIX": prefix,
        }
    }
    settings.API_THROTTLE_RATES = {"user": "5/min", "ip": "1000/min", "auth": "1000/min"}
    answers = _race(throttling.UserRateThrottle, 24)
    assert answers.count(True) == 5 and answers.count(False) == 19
    cache.delete(throttling.counter_key("user", 4242, period=60, now=FROZEN + 1.0))


def test_a_redis_cache_url_gets_the_backend_that_keeps_its_clients():
    result = settings_in_subprocess({"CACHE_URL": "redis://127.0.0.1:6379/3"}, "CACHES")
    assert result.returncode == 0, result.stderr
    configured = json.loads(result.stdout.splitlines()[-1])["CACHES"]["default"]
    assert configured["BACKEND"] == SITE_REDIS_CACHE and configured["LOCATION"] == "redis://127.0.0.1:6379/3"


@pytest.mark.services
def test_the_redis_cache_makes_one_client_per_pool_and_serves_every_operation():
    """Django's own backend builds a redis-py client per operation; ours keeps one per
    connection pool, and reads, writes and deletes still reach Redis through it."""
    backend = RedisCacheKeepingClients(_redis_url(), {"KEY_PREFIX": "keeping-clients-%d" % os.getpid()})
    client = backend._cache
    assert client.get_client(write=True) is client.get_client(write=True)
    assert client.get_client(write=False) is client.get_client("any key", write=False)
    backend.set("counter", 1, timeout=30)
    assert backend.incr("counter") == 2 and backend.get("counter") == 2
    assert backend.get_many(["counter", "absent"]) == {"counter": 2}
    backend.delete("counter")
    assert backend.get("counter") is None
    # the rate limits' counter: made with its time to live, then counted, read back as an int
    assert [backend.incr_in_window("window", timeout=30) for _ in range(3)] == [1, 2, 3]
    assert backend.get("window") == 3 and 0 < client.get_client().ttl(backend.make_key("window")) <= 30
    backend.delete("window")
    # a forked child (a gunicorn worker) reaches Redis through the same kept client
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child reports through the pipe
        try:
            backend.set("from-child", "yes", timeout=30)
            os.write(write, b"ok" if backend.get("from-child") == "yes" else b"no")
        finally:
            os._exit(0)
    os.waitpid(child, 0)
    assert os.read(read, 2) == b"ok" and backend.get("from-child") == "yes"
    backend.delete("from-child")


def test_refusal_waits_until_the_window_ends(settings, monkeypatch):
    settings.API_THROTTLE_RATES = {"user": "1/min", "ip": "1000/min", "auth": "1000/min"}
    freeze_throttles(monkeypatch, FROZEN + 15.0)  # FROZEN is a whole minute
    request = SimpleNamespace(user=SimpleNamespace(pk=77, is_authenticated=True))
    assert throttling.UserRateThrottle().allow_request(request, None) is True
    refused = throttling.UserRateThrottle()
    assert refused.allow_request(request, None) is False
    assert refused.wait() == pytest.approx(45.0)


def test_rates_are_read_as_count_and_window():
    assert throttling.parse_rate("30/min") == (30, 60)
    assert throttling.parse_rate("10/second") == (10, 1)
    assert throttling.parse_rate("1000/hour") == (1000, 3600)
    assert throttling.parse_rate("5/day") == (5, 86400)


@pytest.mark.services
def test_the_redis_cache_raises_many_counters_in_one_round_trip(monkeypatch):
    """incr_many_in_window: each counter made with its time to live and counted, in one MULTI."""
    backend = RedisCacheKeepingClients(_redis_url(), {"KEY_PREFIX": "many-counters-%d" % os.getpid()})
    client = backend._cache.get_client(write=True)
    sent: list[int] = []
    pipeline_class = type(client.pipeline())
    original = pipeline_class.execute

    def execute(self, *args, **kwargs):
        sent.append(len(self.command_stack))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(pipeline_class, "execute", execute)
    assert backend.incr_many_in_window([("a", 30), ("b", 90)]) == [1, 1]
    assert backend.incr_many_in_window([("a", 30), ("b", 90), ("c", 30)]) == [2, 2, 1]
    assert backend.incr_many_in_window([]) == []
    monkeypatch.undo()
    assert sent == [4, 6]  # one round trip each: SET NX EX and INCR per counter
    assert 0 < client.ttl(backend.make_key("a")) <= 30 and 30 < client.ttl(backend.make_key("b")) <= 90
    assert backend.get_many(["a", "b", "c"]) == {"a": 2, "b": 2, "c": 1}
    backend.delete_many(["a", "b", "c"])


def test_budgets_are_spent_together_each_counted_even_when_another_refuses(settings):
    """budgets_spend counts every budget it is given (as DRF's throttles do), answers each on
    its own, and counts nothing for a budget without a rate or without someone to count."""
    from api.ratelimits import BudgetSpend, budgets_spend

    cache.clear()
    now = FROZEN + 15.0
    spends = [
        BudgetSpend(scope="user", ident=5, rate="1/min", now=now),
        BudgetSpend(scope="ip", ident="10.0.0.1", rate="3/min", now=now),
        BudgetSpend(scope="auth", ident=None, rate="1/min", now=now),  # nobody to count
        BudgetSpend(scope="other", ident=5, rate=None, now=now),  # no limit
    ]
    assert budgets_spend(spends) == [None, None, None, None]
    assert budgets_spend(spends) == [pytest.approx(45.0), None, None, None]
    assert budgets_spend(spends) == [pytest.approx(45.0), None, None, None]
    assert budgets_spend(spends) == [pytest.approx(45.0), pytest.approx(45.0), None, None]  # the 4th of 3/min
    assert cache.get(throttling.counter_key("ip", "10.0.0.1", period=60, now=now)) == 4
    assert cache.get(throttling.counter_key("auth", None, period=60, now=now)) is None
    assert budgets_spend([]) == []


@pytest.mark.django_db
def test_an_api_request_spends_its_budgets_in_one_call(settings, alice, frozen_clock, monkeypatch):
    """The API's views spend the user's and the address's budgets in one budgets_spend (one
    round trip to Redis), and refuse with the longest wait when either is spent."""
    from api import base

    settings.API_THROTTLE_RATES = {"user": "2/min", "ip": "1000/min", "auth": "1000/min"}
    calls: list[list[str]] = []
    original = base.budgets_spend

    def spy(spends):
        calls.append([spend.scope for spend in spends])
        return original(spends)

    monkeypatch.setattr(base, "budgets_spend", spy)
    phone = token_client(alice)
    assert phone.get("/api/v1/me/").status_code == 200
    assert calls == [["user", "ip"]]
    assert phone.get("/api/v1/me/").status_code == 200
    refused = phone.get("/api/v1/me/")
    assert refused.status_code == 429 and refused.json()["code"] == "throttled"
    assert 0 < int(refused["Retry-After"]) <= 60
    assert len(calls) == 3
    # the address's budget was spent by the refused request too, as DRF's throttles spend it
    assert cache.get(throttling.counter_key("ip", "127.0.0.1", period=60, now=FROZEN + 1.0)) == 3


class ConnectionsCountingPool(redis.ConnectionPool):
    """A redis-py pool that counts the connections every pool of its class opens."""

    made = 0

    def make_connection(self):
        type(self).made += 1
        return super().make_connection()


@pytest.mark.services
def test_requests_served_over_asgi_share_one_redis_connection(settings):
    """Under ASGI, Django makes a cache backend for every request (``caches`` is not
    thread-critical: each request's context starts without one). Each used to open its own
    pool and a new TCP connection to Redis for the API's rate limits: one per request. The
    production server's worker, serving requests one after another, now opens one."""
    from maatasite.asgi import django_application

    settings.CACHES = {
        "default": {
            "BACKEND": SITE_REDIS_CACHE,
            "LOCATION": _redis_url(),
            "KEY_PREFIX": "%s-asgi-%s" % (django_settings.CACHES["default"]["KEY_PREFIX"], uuid.uuid4().hex),
            "OPTIONS": {"pool_class": "%s.ConnectionsCountingPool" % __name__},
        }
    }
    settings.API_THROTTLE_RATES = {"user": "1000/min", "ip": "15/min", "auth": "1000/min"}
    ConnectionsCountingPool.made = 0

    def status(url: str) -> int:
        try:
            return urllib.request.urlopen(url, timeout=30).status
        except urllib.error.HTTPError as error:
            return error.code

    with asgi_served(django_application) as base:
        answers = [status(base + "/api/v1/ping/") for _ in range(20)]
    # every request spent the address's budget in Redis, through one connection
    assert answers == [200] * 15 + [429] * 5
    assert ConnectionsCountingPool.made == 1
