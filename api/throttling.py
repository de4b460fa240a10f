"""Rate limits per user and per IP address; over the limit: 429 with Retry-After.

Rates come from ``settings.API_THROTTLE_RATES`` (read at each request, so tests and
deployments can change them): ``user`` per signed-in user, ``ip`` per client
address, ``auth`` per address for the credential endpoints (sign-up, token, reset).
Counters live in Django's default cache (CACHE_URL): with Redis there, every web
process counts against one budget; the default local-memory cache counts per process.
"""
from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle


class _SettingsRateThrottle(SimpleRateThrottle):
    def get_rate(self) -> str | None:
        return settings.API_THROTTLE_RATES.get(self.scope)


class UserRateThrottle(_SettingsRateThrottle):
    scope = "user"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        if not (request.user and request.user.is_authenticated):
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


class IPRateThrottle(_SettingsRateThrottle):
    scope = "ip"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class AuthRateThrottle(IPRateThrottle):
    scope = "auth"
