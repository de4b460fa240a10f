"""A backing service that is down answers 503 with Retry-After, not 500.

When Redis (the cache behind the rate limits, sessions and pages' kept parts) or PostgreSQL
cannot be reached, a request fails whatever it asked: that is no fault of the request, nor a
bug to hide as "something went wrong". The site answers 503 "Service Unavailable" with a
``Retry-After`` the client can wait for, in the API's JSON shape under ``/api/``
(api.json_errors) and as a short page elsewhere (:func:`server_error`, the site's
``handler500``), and logs it as an error. The shared Redis client reconnects by itself once
the server is back, and the database pool replaces connections the server dropped
(tests/test_unavailable.py kills Redis under a running server, and PostgreSQL's connections).

Only a lost or refused connection counts: a transaction's own failure (a serialization
failure, a deadlock: subclasses of psycopg's OperationalError) or any other exception stays
a 500.
"""

from __future__ import annotations

import logging
import sys

from django.core.exceptions import DisallowedHost
from django.db import OperationalError as DatabaseOperationalError
from django.http import HttpRequest, HttpResponse
from django.template import loader
from django.utils.http import url_has_allowed_host_and_scheme
from django.views import defaults

RETRY_AFTER_SECONDS = 30
logger = logging.getLogger(__name__)


def backing_service_down(error: BaseException | None) -> bool:
    """Whether ``error`` says that Redis or PostgreSQL could not be reached (refused, lost, or
    no connection of the pool free in time), rather than that the request failed."""
    import psycopg
    import psycopg_pool
    import redis.exceptions

    if isinstance(error, (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)):
        return True
    if isinstance(error, DatabaseOperationalError):  # Django's wrapper: psycopg's error is its cause
        cause = error.__cause__
        # A plain OperationalError: refused, or lost ("server closed the connection"); the
        # server going down or dropping its connections (its restart) says so with its own.
        server_going = (psycopg.errors.AdminShutdown, psycopg.errors.CrashShutdown, psycopg.errors.CannotConnectNow)
        return (
            type(cause) is psycopg.OperationalError
            or isinstance(cause, psycopg_pool.PoolTimeout)
            or isinstance(cause, server_going)
        )
    return False


def _database_pools_checked(error: BaseException) -> None:
    """After PostgreSQL ended the site's connections (its restart), the pool still holds the
    idle ones, dead. psycopg_pool finds each only when it hands it out, and sleeps longer after
    each (its backoff: 1 s, 2 s, 4 s...), so that with four or more dead the next request waited
    out the pool's timeout. Once a request has met a dead connection, every idle connection of
    the pools it used is checked at once (psycopg_pool's ``check``: the dead are replaced). A
    request that meets them while taking a connection still waits out that backoff first."""
    from django.db import connections

    if not isinstance(error, DatabaseOperationalError):  # Redis's outage: no pool to check
        return
    for connection in connections.all(initialized_only=True):
        pool = getattr(connection, "pool", None)  # PostgreSQL's backend, with a pool configured
        if pool is not None:
            try:
                pool.check()
            except Exception:  # the answer is a 503 already; the pool retries by itself
                logger.warning("checking the database pool after an outage failed", exc_info=True)


def outage_answered(response: HttpResponse, error: BaseException) -> HttpResponse:
    """``response`` made the answer to ``error``, an outage (:func:`backing_service_down`): 503
    with Retry-After, the database pools checked when PostgreSQL was the one out of reach. The
    pages (:func:`server_error`) and the API (api.json_errors) both answer through it."""
    response.status_code = 503
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    _database_pools_checked(error)
    return response


def retry_url(request: HttpRequest) -> str:
    """Where the 503 page's Try again button leads: the same address for a read; for a form
    sent (a move, a message), the page it was sent from when that is this site's, else the home
    page, since the form's own address does not answer a GET."""
    if request.method in ("GET", "HEAD"):
        return request.get_full_path()
    referer = request.META.get("HTTP_REFERER", "")
    try:
        host = request.get_host()
    except DisallowedHost:
        return "/"
    if referer and url_has_allowed_host_and_scheme(referer, allowed_hosts={host}, require_https=request.is_secure()):
        return referer
    return "/"


def server_error(request: HttpRequest, template_name: str = "500.html") -> HttpResponse:
    """``handler500``: Django calls it while the exception is being handled. An outage of a
    backing service gets the 503 page, drawn without the request's context (whose processors
    would ask the database or the cache again); anything else Django's own 500."""
    error = sys.exc_info()[1]
    if error is not None and backing_service_down(error):
        page = loader.render_to_string("503.html", {"retry_url": retry_url(request)})
        return outage_answered(HttpResponse(page, content_type="text/html; charset=utf-8"), error)
    return defaults.server_error(request, template_name)
