"""The client's address: the one place that decides who sent a request.

Why: every rate limit counts per address, so an address the client can choose (a header
it writes itself) dodges every limit and lets a stranger spend a real user's budget.
``X-Forwarded-For`` is a list that each proxy appends to; only the entries our own
proxies added can be believed. ``TRUSTED_PROXY_COUNT`` says how many proxies stand in
front of the site:

* 0 (the default): the socket's address (``REMOTE_ADDR``); the header is ignored.
* N: the N-th address from the right of ``X-Forwarded-For``, the one our outermost proxy
  saw the request come from. Anything to its left was written by the client.

A header that is missing, too short or not an address falls back to ``REMOTE_ADDR``,
which a client cannot choose (at worst it is our proxy's, shared by all). Imports no
domain app, so shared API infrastructure can sit on it.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings
from django.core import checks

FORWARDED_FOR_HEADER = "HTTP_X_FORWARDED_FOR"
UNKNOWN_ADDRESS = "unknown"
IPV6_BUCKET_PREFIX = 64  # one IPv6 subscriber usually holds a whole /64


def _address(text: str) -> str | None:
    """``text`` as a normalised IP address, or None when it is not one."""
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return None


def trusted_proxy_count() -> int:
    return settings.TRUSTED_PROXY_COUNT


def client_address(request: Any) -> str:
    """The address the request came from, as far as our own proxies can vouch for it."""
    meta = request.META
    remote = _address(meta.get("REMOTE_ADDR", "") or "") or UNKNOWN_ADDRESS
    proxies = trusted_proxy_count()
    if proxies == 0:
        return remote
    hops = [hop.strip() for hop in (meta.get(FORWARDED_FOR_HEADER, "") or "").split(",")]
    hops = [hop for hop in hops if hop]
    if len(hops) < proxies:  # the request did not pass all our proxies: only the socket is known
        return remote
    return _address(hops[-proxies]) or remote


def address_bucket(address: str) -> str:
    """What a rate limit counts for ``address``: the address itself, or for IPv6 its /64,
    since one subscriber can use every address of their /64 in turn."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if parsed.version == 6 and parsed.ipv4_mapped is None:
        return str(ipaddress.ip_network("%s/%d" % (parsed, IPV6_BUCKET_PREFIX), strict=False))
    if parsed.version == 6:
        return str(parsed.ipv4_mapped)
    return str(parsed)


def client_address_bucket(request: Any) -> str:
    """The rate-limit identity of the request's client (see :func:`address_bucket`)."""
    return address_bucket(client_address(request))


@checks.register(checks.Tags.security)
def proxy_settings_check(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """Behind a load balancer (``USE_X_FORWARDED_PROTO``) with no trusted proxy, every
    client has the balancer's address: they would all share one rate-limit budget."""
    if settings.SECURE_PROXY_SSL_HEADER and trusted_proxy_count() == 0:
        return [
            checks.Warning(
                "USE_X_FORWARDED_PROTO is on but TRUSTED_PROXY_COUNT is 0: every client is seen with "
                "the load balancer's address and all share one rate-limit budget.",
                hint="Set TRUSTED_PROXY_COUNT to the number of proxies in front of the site (1 for one load balancer).",
                id="maatasite.W001",
            )
        ]
    return []
