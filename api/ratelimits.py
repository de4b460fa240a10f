"""Rate-limit budgets counted in Django's cache, shared by the API's throttles and the pages.

Why one module: a budget is one counter per (scope, who, window) in the default cache
(CACHE_URL; Redis in production, so every web process spends one budget). The API's
throttles (api/throttling.py) and the HTML forms' budgets (accounts/ratelimits.py, the
login, sign-up, reset and resend pages and ``/admin/login/``) count the same way, here.

Counting is a fixed window: the counter is created with ``cache.add`` and raised with
``cache.incr``, both atomic in Redis, so simultaneous requests never lose a count. A client
may spend up to twice its rate across a window boundary; that is the price of an exact,
lock-free count. A rate is ``"<count>/<second|minute|hour|day>"``.

Over a budget, code raises :class:`RateLimited`; a page answers it with
:func:`rate_limited_page` (the form again, the message, status 429 and ``Retry-After``),
the API with its JSON error (api/errors.py). Imports no domain app.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import messages
from django.core.cache import cache
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def _now() -> float:
    return time.time()


class RateLimited(Exception):
    """A budget is spent: retry after ``wait`` seconds. ``message`` is for the user."""

    def __init__(self, message: str, *, wait: float, scope: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.wait = max(1.0, float(wait))
        self.scope = scope

    @property
    def retry_after(self) -> int:
        """Whole seconds for the Retry-After header (never 0: that would invite a retry now)."""
        return int(self.wait + 0.999)


def parse_rate(rate: str) -> tuple[int, int]:
    """``"30/min"`` -> (30, 60): the number of requests and the window in seconds."""
    count, _sep, period = rate.partition("/")
    return int(count), PERIODS[period.strip()[:1].lower()]


def counter_key(scope: str, ident: object, *, period: int, now: float) -> str:
    """The cache key counting ``ident``'s requests in ``scope`` during the window holding ``now``."""
    return "throttle_%s_%s_%d" % (scope, ident, int(now // period))


def hashed(text: str) -> str:
    """A short stable digest of ``text`` (an e-mail, a username) for a counter's key: keeps
    the cache free of personal data and of characters a cache backend may refuse."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _window_end_wait(period: int, now: float) -> float:
    return (int(now // period) + 1) * period - now


def budget_spend(*, scope: str, ident: object, rate: str | None, now: float | None = None) -> float | None:
    """Spend one request of ``ident``'s budget in ``scope``: None while within ``rate``,
    else the seconds until the window ends. ``rate`` None means no limit."""
    return budgets_spend([BudgetSpend(scope=scope, ident=ident, rate=rate, now=_now() if now is None else now)])[0]


@dataclass(frozen=True)
class BudgetSpend:
    """One request to count in ``ident``'s budget in ``scope`` at ``now`` (see :func:`budget_spend`)."""

    scope: str
    ident: object
    rate: str | None
    now: float


def budgets_spend(spends: list[BudgetSpend]) -> list[float | None]:
    """:func:`budget_spend` of each of ``spends``, the counters raised together: in one round trip
    to Redis (an API request's user and address budgets). Each answer is None while within its
    rate, else the seconds until its window ends; every budget is spent, refused or not."""
    counted: list[tuple[int, int, int, str]] = []  # (index, limit, period, key)
    for index, spend in enumerate(spends):
        if spend.rate is None or spend.ident is None:
            continue
        limit, period = parse_rate(spend.rate)
        counted.append((index, limit, period, counter_key(spend.scope, spend.ident, period=period, now=spend.now)))
    incr_many_in_window = getattr(cache, "incr_many_in_window", None)  # Redis (maatasite/redis_cache.py)
    if incr_many_in_window is not None:
        counts = incr_many_in_window([(key, period + 1) for _index, _limit, period, key in counted])
    else:
        counts = [_count_one(key, period) for _index, _limit, period, key in counted]
    waits: list[float | None] = [None] * len(spends)
    for (index, limit, period, _key), count in zip(counted, counts, strict=True):
        if count > limit:
            waits[index] = _window_end_wait(period, spends[index].now)
    return waits


def _count_one(key: str, period: int) -> int:
    """Raise one counter through Django's cache API (a backend without incr_many_in_window)."""
    cache.add(key, 0, timeout=period + 1)
    try:
        return cache.incr(key)
    except ValueError:  # the window's counter expired between add and incr
        cache.add(key, 1, timeout=period + 1)
        return 1


def budget_spent(*, scope: str, ident: object, rate: str | None, now: float | None = None) -> float | None:
    """Whether ``ident``'s budget in ``scope`` is used up, without spending any: None while
    some is left, else the seconds until the window ends. For budgets of failures, which
    are checked before an attempt and spent only when it fails."""
    if rate is None or ident is None:
        return None
    limit, period = parse_rate(rate)
    now = _now() if now is None else now
    count = cache.get(counter_key(scope, ident, period=period, now=now)) or 0
    if count < limit:
        return None
    return _window_end_wait(period, now)


def budget_clear(*, scope: str, ident: object, rate: str | None, now: float | None = None) -> None:
    """Give ``ident`` its whole budget in ``scope`` back (e.g. failures after a success)."""
    if rate is None or ident is None:
        return
    _limit, period = parse_rate(rate)
    now = _now() if now is None else now
    cache.delete(counter_key(scope, ident, period=period, now=now))


def wait_text(wait: float) -> str:
    """``wait`` seconds as the user reads it ("14 minutes", in their language)."""
    now = timezone.now()
    return timeuntil(now + timedelta(minutes=max(1, math.ceil(wait / 60))), now)


def too_many_attempts(*, wait: float, scope: str) -> RateLimited:
    """The refusal of a budget of attempts (sign-in, sign-up, reset and resend requests)."""
    return RateLimited(
        _("Too many attempts. Please try again in %(wait)s.") % {"wait": wait_text(wait)}, wait=wait, scope=scope
    )


def rate_limited_page(request: Any, limit: RateLimited, *, template_name: str, context: dict[str, Any]) -> HttpResponse:
    """The page of a form refused by a budget: the form again with the message, status 429
    and ``Retry-After``. Build ``context`` with an unbound form (see :func:`form_initial`),
    so that rendering it runs no check again."""
    messages.error(request, limit.message)
    response = render(request, template_name, context, status=429)
    response["Retry-After"] = str(limit.retry_after)
    return response


def form_initial(form_class: Any, data: Any) -> dict[str, Any]:
    """The posted values of ``form_class``'s fields to show again, passwords left out."""
    return {
        name: data.get(name)
        for name, field in form_class.base_fields.items()
        if name in data and not isinstance(field.widget, forms.PasswordInput)
    }
