"""Every answer under ``/api/`` that is an error has the API's JSON shape, whoever made it.

Why: the API's views answer ``{"code", "message", "details"}`` (api/errors.py), but some
errors never reach them: a path no URL matches (``/api/v1/%0A``, ``/api/v2/``), a body
over ``DATA_UPLOAD_MAX_MEMORY_SIZE``, a CSRF failure, an unexpected exception, Redis or
PostgreSQL out of reach (503, maatasite.unavailable). Django
answers those with HTML pages (or, under DEBUG, its technical pages), which an app cannot
read. :class:`ApiJsonErrorMiddleware` turns them into the shape, keeping the status and the
headers (``Allow``, ``Retry-After``, CORS); :func:`csrf_failure` answers CSRF failures.
Imports no domain app.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

from django.conf import settings
from django.core import signals
from django.core.exceptions import PermissionDenied, RequestDataTooBig, SuspiciousOperation
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views import csrf

from maatasite.unavailable import backing_service_down, outage_answered

API_PATH_PREFIX = "/api/"
request_logger = logging.getLogger("django.request")


def error_body(code: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    """The API's one error shape."""
    return {"code": code, "message": str(message), "details": details or {}}


def is_api_path(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PATH_PREFIX)


def _status_error(status: int) -> tuple[str, str]:
    """The code and message of a bare error status."""
    known = {
        400: ("bad_request", _("The request could not be read.")),
        403: ("permission_denied", _("You do not have permission to perform this action.")),
        404: ("not_found", _("Not found.")),
        405: ("method_not_allowed", _("This method is not allowed here.")),
        413: ("body_too_large", _("The request body is too large.")),
        500: ("server_error", _("Something went wrong on our side. It has been logged; please try again later.")),
        503: ("service_unavailable", _("Part of the site cannot be reached just now. Please try again in a minute.")),
    }
    if status in known:
        return known[status]
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = _("Error")
    return ("server_error" if status >= 500 else "error"), phrase


def json_error(
    status: int, code: str | None = None, message: str | None = None, details: dict[str, Any] | None = None
) -> JsonResponse:
    default_code, default_message = _status_error(status)
    return JsonResponse(error_body(code or default_code, message or default_message, details), status=status)


def body_too_large_message() -> str:
    return _("The request body is too large (at most %(size)d bytes).") % {
        "size": settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0
    }


def body_too_large_error() -> JsonResponse:
    return json_error(400, "body_too_large", body_too_large_message())


def _is_json(response: HttpResponse) -> bool:
    content_type = response.get("Content-Type", "") or ""
    return content_type.split(";")[0].strip().endswith("json")


class ApiJsonErrorMiddleware:
    """Under /api/: error responses that are not JSON become the error shape; exceptions
    that escape a view become a JSON 500 (logged like Django's own)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code < 400 or not is_api_path(request) or _is_json(response):
            return response
        replacement = json_error(response.status_code)
        for header, value in response.items():
            if header.lower() not in ("content-type", "content-length"):
                replacement[header] = value
        return replacement

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not is_api_path(request):
            return None
        if isinstance(exception, RequestDataTooBig):
            return body_too_large_error()
        if isinstance(exception, SuspiciousOperation):
            return json_error(400)
        if isinstance(exception, Http404):
            return json_error(404)
        if isinstance(exception, PermissionDenied):
            return json_error(403)
        status = 503 if backing_service_down(exception) else 500
        request_logger.error(
            "%s: %s",
            "Service Unavailable" if status == 503 else "Internal Server Error",
            request.path,
            exc_info=sys.exc_info(),
            extra={"status_code": status, "request": request},
        )
        signals.got_request_exception.send(sender=self.__class__, request=request)
        response = json_error(status)
        response._has_been_logged = True  # type: ignore[attr-defined]  # (Django's flag) logged above, not again
        if status == 503:  # Redis or PostgreSQL out of reach (maatasite.unavailable)
            outage_answered(response, exception)
        return response


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: the API's error shape under /api/, Django's page elsewhere."""
    if is_api_path(request):
        return json_error(403, "csrf_failed", _("The CSRF check failed: %(reason)s") % {"reason": reason})
    return csrf.csrf_failure(request, reason=reason)
