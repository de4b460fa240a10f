"""Rate limits per user and per client address; over the limit: 429 with Retry-After.

Rates come from ``settings.API_THROTTLE_RATES`` (read at each request, so tests and
deployments can change them): ``user`` per signed-in user, ``ip`` per client
address, ``auth`` per address for the credential endpoints (sign-up, token, reset).
A rate is ``"<count>/<second|minute|hour|day>"``.

The counting (one fixed-window counter per scope, client and window in Django's cache,
atomic in Redis) is api/ratelimits.py's, which the pages' budgets share. The
client's address is api/client_address.py's (``TRUSTED_PROXY_COUNT``), never a
header the client writes: DRF's own ``get_ident`` would believe X-Forwarded-For.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from rest_framework.throttling import BaseThrottle

from api.client_address import client_address_bucket
from api.ratelimits import BudgetSpend, budgets_spend, counter_key, parse_rate  # noqa: F401  (parse_rate, counter_key: the one rule, re-exported)


class CacheCounterThrottle(BaseThrottle):
    scope = ""
    # The clock of the windows, as DRF's own throttles name it (SimpleRateThrottle.timer).
    timer = staticmethod(time.time)

    def __init__(self) -> None:
        self._wait: float | None = None

    def get_ident(self, request: Any) -> str:
        """The client's address from the one function (its /64 for IPv6)."""
        return client_address_bucket(request)

    def ident(self, request: Any) -> object | None:
        """Whom this throttle counts (None: it does not apply to the request)."""
        raise NotImplementedError

    def spend_of(self, request: Any) -> BudgetSpend:
        """What this throttle counts for ``request`` (its scope, whom, its rate, its clock)."""
        rate = settings.API_THROTTLE_RATES.get(self.scope)
        return BudgetSpend(scope=self.scope, ident=self.ident(request), rate=rate, now=self.timer())

    def allow_request(self, request: Any, view: Any) -> bool:
        return self.counted(budgets_spend([self.spend_of(request)])[0])

    def counted(self, wait: float | None) -> bool:
        """Take the answer of this throttle's budget (None: within it); False when refused."""
        self._wait = wait
        return wait is None

    def wait(self) -> float | None:
        return self._wait


class UserRateThrottle(CacheCounterThrottle):
    scope = "user"

    def ident(self, request: Any) -> object | None:
        user = getattr(request, "user", None)
        return user.pk if user is not None and user.is_authenticated else None


class IPRateThrottle(CacheCounterThrottle):
    scope = "ip"

    def ident(self, request: Any) -> object | None:
        return self.get_ident(request)


class AuthRateThrottle(IPRateThrottle):
    scope = "auth"
