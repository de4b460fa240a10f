"""Django's Redis cache, keeping one redis-py client per connection pool, and one set of pools
per process.

``django.core.cache.backends.redis.RedisCacheClient.get_client`` builds a new ``redis.Redis``
for every cache operation, and each copies its table of reply callbacks: about a tenth of a
millisecond, several times per page. A ``redis.Redis`` over a pool holds no connection of its
own (each command borrows one from the pool, which starts afresh in a forked child), so one
per pool serves every thread and operation of the process alike.

Django keeps a cache backend per thread and, under ASGI, per request (``caches`` is an asgiref
``Local`` that is not thread-critical, so every request's context starts without one). Each new
backend made its own client, its own pools and so a new TCP connection to Redis: one for every
API request (its rate limits) under the production server, counted in bench/. The backends of a
process now share one client per server list and options, and so its pools and connections.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class RedisCacheClientKeepingClients(RedisCacheClient):
    """The same operations, with the client of each pool made once."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # Django's private helpers (the stubs do not declare them): the pool for reads or
        # writes, and the redis-py client class.
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)  # type: ignore[attr-defined]
        return client


# The cache clients of this process, by server list and options: every backend instance (one per
# thread, and per request under ASGI) with the same configuration shares one, and its pools.
_PROCESS_CLIENTS: dict[tuple[tuple[str, ...], str], RedisCacheClientKeepingClients] = {}
_PROCESS_CLIENTS_LOCK = threading.Lock()


class RedisCacheKeepingClients(RedisCache):
    """``CACHE_URL=redis://...`` is served by this backend (maatasite.settings)."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClientKeepingClients
        # Django's server list and options (private: the stubs do not declare them)
        servers, options = self._servers, self._options  # type: ignore[attr-defined]
        self._client_made_of = ((tuple(servers), repr(sorted(options.items()))), servers, options)

    @property  # Django's is a cached_property that makes a client for each backend instance
    def _cache(self) -> Any:
        key, servers, options = self._client_made_of
        client = _PROCESS_CLIENTS.get(key)
        if client is None:
            with _PROCESS_CLIENTS_LOCK:
                client = _PROCESS_CLIENTS.get(key)
                if client is None:
                    client = _PROCESS_CLIENTS[key] = self._class(servers, **options)
        return client

    def incr_in_window(self, key: str, *, timeout: int) -> int:
        """Add one to the counter at ``key``, made at 0 with ``timeout`` seconds to live when it
        is not there, and return it: one round trip (SET NX EX and INCR in one MULTI), where
        ``add`` then ``incr`` take three (Django's ``incr`` asks EXISTS first). The rate
        limits' counters are spent so, several at once (:meth:`incr_many_in_window`)."""
        return self.incr_many_in_window([(key, timeout)])[0]

    def incr_many_in_window(self, counters: list[tuple[str, int]]) -> list[int]:
        """:meth:`incr_in_window` for each (key, timeout) of ``counters``, all in one round trip
        (one MULTI): an API request spends its user's and its address's budgets together
        (api.base.ApiView.check_throttles). Every write goes to the first server (Django's
        client), so one client serves them all."""
        cache_keys = [(self.make_and_validate_key(key), timeout) for key, timeout in counters]
        if not cache_keys:
            return []
        client = self._cache.get_client(cache_keys[0][0], write=True)
        with client.pipeline(transaction=True) as pipeline:
            for cache_key, timeout in cache_keys:
                pipeline.set(cache_key, 0, ex=timeout, nx=True)
                pipeline.incr(cache_key)
            answers = pipeline.execute()
        return [int(count) for count in answers[1::2]]
