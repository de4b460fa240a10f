"""What every API view shares: authentication, scopes, rate limits, the error shape,
conditional GETs (ETag / Last-Modified / 304) and idempotent writes (Idempotency-Key).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.utils import translation
from django.utils.http import http_date, parse_http_date_safe
from django.utils.translation import gettext as _
from rest_framework import exceptions, permissions
from rest_framework.authentication import SessionAuthentication
from rest_framework.response import Response
from rest_framework.views import APIView

from maatasite.errors import ServiceError

from . import services
from .authentication import BearerTokenAuthentication
from .errors import ApiError, api_exception_handler
from .permissions import TokenHasScope
from .ratelimits import budgets_spend
from .throttling import CacheCounterThrottle, IPRateThrottle, UserRateThrottle

IDEMPOTENCY_HEADER = "Idempotency-Key"


def _has_body(request: Any) -> bool:
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    return length > 0 or "HTTP_TRANSFER_ENCODING" in request.META


class ApiView(APIView):
    """Base of every endpoint: signed-in by default; anonymous reads where a view allows."""

    authentication_classes = [BearerTokenAuthentication, SessionAuthentication]
    permission_classes = [permissions.IsAuthenticated, TokenHasScope]
    throttle_classes = [UserRateThrottle, IPRateThrottle]

    def get_exception_handler(self) -> Callable[..., Response | None]:
        return api_exception_handler

    def check_throttles(self, request: Any) -> None:
        """DRF's check, with every budget spent in one round trip to the cache: DRF asks each
        throttle in turn, a round trip each (two for every request, the user's and the
        address's). As in DRF, each budget is spent even when another refuses, and a refusal
        waits for the longest of the windows."""
        throttles = self.get_throttles()
        counters = [throttle for throttle in throttles if isinstance(throttle, CacheCounterThrottle)]
        if len(counters) != len(throttles):
            super().check_throttles(request)
            return
        waits = budgets_spend([throttle.spend_of(request) for throttle in counters])
        refused: list[float] = []
        for throttle, wait in zip(counters, waits, strict=True):
            if not throttle.counted(wait) and wait is not None:
                refused.append(wait)
        if refused:
            self.throttled(request, max(refused))

    def initial(self, request: Any, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        user = request.user
        if user is not None and user.is_authenticated and getattr(user, "language", ""):
            translation.activate(user.language)
            request.LANGUAGE_CODE = user.language
        if _has_body(request):
            # Read the body now, once authenticated, permitted and within the rate limits: one
            # the API cannot read is a 400 (api/json_body.py) even where a view ignores it.
            request.data  # noqa: B018

    def finalize_response(self, request: Any, response: Any, *args: Any, **kwargs: Any) -> Any:
        response = super().finalize_response(request, response, *args, **kwargs)
        response["Vary"] = "Accept, Accept-Language, Authorization, Cookie"
        return response


class PublicReadView(ApiView):
    """Anyone may read (GET); writes need a signed-in user."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly, TokenHasScope]


# ---------------------------------------------------------------- conditional GET


def _etag(source: str) -> str:
    return '"%s"' % hashlib.sha256(source.encode()).hexdigest()[:32]


def _not_modified(request: Any, etag: str, last_modified: datetime | None) -> bool:
    if_none_match = request.headers.get("If-None-Match")
    if if_none_match:
        tags = [tag.strip() for tag in if_none_match.split(",")]
        return "*" in tags or etag in tags or ("W/" + etag) in tags
    since = request.headers.get("If-Modified-Since")
    if since and last_modified is not None:
        parsed = parse_http_date_safe(since)
        return parsed is not None and int(last_modified.timestamp()) <= parsed
    return False


def _validators(response: Response, etag: str, last_modified: datetime | None) -> Response:
    response["ETag"] = etag
    if last_modified is not None:
        response["Last-Modified"] = http_date(last_modified.timestamp())
    response["Cache-Control"] = "private, no-cache"
    return response


def conditional_response(
    request: Any, *, version: str, last_modified: datetime | None, build: Callable[[], Response]
) -> Response:
    """Answer 304 when the client's copy (If-None-Match / If-Modified-Since) is current,
    judged from ``version`` alone, before ``build`` does the expensive work."""
    user_part = request.user.pk if request.user.is_authenticated else "-"
    etag = _etag("%s|%s|%s" % (version, user_part, translation.get_language()))
    if _not_modified(request, etag, last_modified):
        return _validators(Response(status=304), etag, last_modified)
    return _validators(build(), etag, last_modified)


def body_conditional_response(request: Any, response: Response) -> Response:
    """ETag of the body itself (lists, events): saves the transfer, not the query."""
    if response.status_code != 200:
        return response
    body = json.dumps(response.data, cls=DjangoJSONEncoder, sort_keys=True)
    user_part = request.user.pk if request.user.is_authenticated else "-"
    etag = _etag("%s|%s|%s" % (body, user_part, translation.get_language()))
    if _not_modified(request, etag, None):
        return _validators(Response(status=304), etag, None)
    return _validators(response, etag, None)


# ---------------------------------------------------------------- idempotent writes


def _request_hash(request: Any) -> str:
    try:
        body = json.dumps(request.data, sort_keys=True, cls=DjangoJSONEncoder)
    except (TypeError, ValueError):
        body = repr(request.data)
    return hashlib.sha256(("%s %s\n%s" % (request.method, request.path, body)).encode()).hexdigest()


def idempotent(request: Any, action: Callable[[], Response]) -> Response:
    """Run a write once per Idempotency-Key: a repeat gets the first answer back.

    Without the header the action simply runs. The key is claimed in the same
    transaction as the action, so two simultaneous requests with one key run the
    action once; the same key with a different request is refused (422).
    """
    key = request.headers.get(IDEMPOTENCY_HEADER)
    if key is None:
        return action()
    key = key.strip()
    if not key or len(key) > 255:
        raise ApiError("bad_idempotency_key", _("The Idempotency-Key header must be 1 to 255 characters."))
    request_hash = _request_hash(request)
    with transaction.atomic():
        record, is_new = services.idempotency_claim(user=request.user, key=key, request_hash=request_hash)
        if not is_new:
            if record.request_hash != request_hash:
                raise ApiError(
                    "idempotency_key_reused",
                    _("This Idempotency-Key was used for a different request."),
                    status_code=422,
                )
            replay = Response(record.response_body, status=record.status_code)
            replay["Idempotent-Replayed"] = "true"
            return replay
        try:
            response = action()
        except (ServiceError, exceptions.APIException, DjangoValidationError) as error:
            handled = api_exception_handler(error, {"request": request})
            if handled is None:
                raise
            response = handled
        services.idempotency_store(record=record, status_code=response.status_code, body=response.data)
    return response
