"""Rate limits per user and per IP address; over the limit: 429 with Retry-After.

Rates come from ``settings.API_THROTTLE_RATES`` (read at each request, so tests and
deployments can change them): ``user`` per signed-in user, ``ip`` per client
address, ``auth`` per address for the credential endpoints (sign-up, token, reset).
A rate is ``"<count>/<second|minute|hour|day>"``.

Counting is a fixed window: one counter per (scope, client, window) in Django's
default cache (CACHE_URL), created with ``cache.add`` and raised with
``cache.incr``, both atomic in Redis, so several web processes spend one budget
and simultaneous requests never lose a count. (The default local-memory cache
counts per process.) A client may spend up to twice its rate across a window
boundary; that is the price of an exact, lock-free count.
"""
from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from rest_framework.throttling import BaseThrottle

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def _now() -> float:
    return time.time()


def parse_rate(rate: str) -> tuple[int, int]:
    """``"30/min"`` -> (30, 60): the number of requests and the window in seconds."""
    count, _, period = rate.partition("/")
    return int(count), PERIODS[period.strip()[:1].lower()]


def counter_key(scope: str, ident: object, *, period: int, now: float) -> str:
    """The cache key counting ``ident``'s requests in ``scope`` during the window holding ``now``."""
    return "throttle_%s_%s_%d" % (scope, ident, int(now // period))


class _CacheCounterThrottle(BaseThrottle):
    scope = ""

    def __init__(self) -> None:
        self._wait: float | None = None

    def ident(self, request: Any) -> object | None:
        """Whom this throttle counts (None: it does not apply to the request)."""
        raise NotImplementedError

    def allow_request(self, request: Any, view: Any) -> bool:
        rate = settings.API_THROTTLE_RATES.get(self.scope)
        ident = self.ident(request)
        if rate is None or ident is None:
            return True
        limit, period = parse_rate(rate)
        now = _now()
        key = counter_key(self.scope, ident, period=period, now=now)
        cache.add(key, 0, timeout=period + 1)
        try:
            count = cache.incr(key)
        except ValueError:  # the window's counter expired between add and incr
            cache.add(key, 1, timeout=period + 1)
            count = 1
        if count <= limit:
            return True
        self._wait = (int(now // period) + 1) * period - now
        return False

    def wait(self) -> float | None:
        return self._wait


class UserRateThrottle(_CacheCounterThrottle):
    scope = "user"

    def ident(self, request: Any) -> object | None:
        user = getattr(request, "user", None)
        return user.pk if user is not None and user.is_authenticated else None


class IPRateThrottle(_CacheCounterThrottle):
    scope = "ip"

    def ident(self, request: Any) -> object | None:
        return self.get_ident(request)


class AuthRateThrottle(IPRateThrottle):
    scope = "auth"
