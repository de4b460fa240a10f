"""Rate-limit counters live in Django's cache (CACHE_URL), not in a process's memory:
separate clients, and separate processes sharing a Redis cache, spend one budget."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache

from .conftest import token_client

ROOT = Path(__file__).resolve().parents[2]


def _counter_key(user) -> str:
    return "throttle_user_%s" % user.pk


@pytest.mark.django_db
def test_two_clients_of_one_user_share_the_counter_in_the_cache(settings, alice):
    settings.API_THROTTLE_RATES = {"user": "2/min", "ip": "1000/min", "auth": "1000/min"}
    phone, laptop = token_client(alice), token_client(alice)
    assert phone.get("/api/v1/me/").status_code == 200
    assert len(cache.get(_counter_key(alice))) == 1  # the count is in the cache, under the user's key
    assert laptop.get("/api/v1/me/").status_code == 200
    assert len(cache.get(_counter_key(alice))) == 2
    refused = phone.get("/api/v1/me/")
    assert refused.status_code == 429 and refused.json()["code"] == "throttled"


@pytest.mark.django_db
def test_an_emptied_cache_gives_the_budget_back(settings, alice):
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
def test_another_process_sees_and_spends_the_same_redis_counter(settings, alice):
    """Two gunicorn workers are two processes: one with the same CACHE_URL sees the
    counter this process wrote and adds to it, so the next request here is refused."""
    prefix = django_settings.CACHES["default"]["KEY_PREFIX"]
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": _redis_url(), "KEY_PREFIX": prefix}}
    settings.API_THROTTLE_RATES = {"user": "3/min", "ip": "1000/min", "auth": "1000/min"}
    client = token_client(alice)
    assert [client.get("/api/v1/me/").status_code for _ in range(2)] == [200, 200]
    other_process = (
        "import django, sys, time\n"
        "django.setup()\n"
        "from django.core.cache import cache\n"
        "cache.key_prefix = sys.argv[2]  # the test's own namespace\n"
        "key = sys.argv[1]\n"
        "history = cache.get(key)\n"
        "print(len(history))\n"
        "cache.set(key, [time.time()] + history, 60)\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "maatasite.settings",
           "CACHE_URL": _redis_url()}
    seen = subprocess.run([sys.executable, "-c", other_process, _counter_key(alice), prefix], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert seen.returncode == 0, seen.stderr
    assert seen.stdout.strip() == "2"
    refused = client.get("/api/v1/me/")
    assert refused.status_code == 429 and refused.json()["code"] == "throttled"
    cache.delete(_counter_key(alice))
