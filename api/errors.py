"""The API's one error shape: ``{"code": ..., "message": ..., "details": {...}}``.

``api_exception_handler`` turns every refusal into it: a service's
:class:`maatasite.errors.ServiceError` (games.errors.GameActionError and the apps'
subclasses: status, code and translated message kept),
accounts' ValidationError, the budgets shared with the pages (api.ratelimits'
RateLimited: 429 with Retry-After), a body over DATA_UPLOAD_MAX_MEMORY_SIZE, and Django
REST framework's own exceptions (validation, authentication, permission, not found,
throttling with Retry-After, unreadable bodies). Errors that never reach a view are put in
the same shape by api/json_errors.py.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from api.json_errors import body_too_large_message, error_body
from api.ratelimits import RateLimited
from maatasite.errors import ServiceError


class ApiError(exceptions.APIException):
    """A refusal of the API itself, with a stable code and free-form details."""

    def __init__(
        self, code: str, message: str, *, status_code: int = 400, details: dict[str, Any] | None = None
    ) -> None:
        super().__init__(detail=message, code=code)
        self.status_code = status_code
        self.error_code = code
        self.message = message
        self.details = details or {}


def service_error_response(error: ServiceError, details: dict[str, Any] | None = None) -> Response:
    """The response to a service's refusal (``details`` adds to its params)."""
    body_details = {key: _jsonable(value) for key, value in error.params.items()}
    body_details.update(details or {})
    return Response(error_body(error.code, error.message, body_details), status=error.status)


def _jsonable(value: Any) -> Any:
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return str(value)


_DRF_CODES = {
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.PermissionDenied: "permission_denied",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
    exceptions.ParseError: "parse_error",
}


class _ThrottledFor(exceptions.Throttled):
    """DRF's Throttled, given its ``wait`` after the message (DRF's own constructor would
    add a second "expected available in" sentence); declared here as its stubs lack it."""

    wait: float | None


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ServiceError):
        return service_error_response(exc)
    if isinstance(exc, ApiError):
        return Response(error_body(exc.error_code, exc.message, exc.details), status=exc.status_code)
    if isinstance(exc, DjangoValidationError):
        code = getattr(exc, "code", None) or "invalid"
        return Response(error_body(code, " ".join(exc.messages), {}), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, RequestDataTooBig):  # over DATA_UPLOAD_MAX_MEMORY_SIZE
        return Response(error_body("body_too_large", body_too_large_message()), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, RateLimited):  # a budget shared with the pages (accounts/ratelimits.py)
        throttled = _ThrottledFor(detail=exc.message)  # its message already says how long
        throttled.wait = exc.retry_after
        exc = throttled
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response  # None: not an error DRF knows (the caller raises it again)
    if isinstance(exc, exceptions.ValidationError):
        response.data = error_body("invalid", _("Some fields are not valid."), {"fields": _jsonable(exc.detail)})
        return response
    code = _DRF_CODES.get(type(exc))
    if code is None:
        code = next((c for cls, c in _DRF_CODES.items() if isinstance(exc, cls)), "error")
    details: dict[str, Any] = {}
    wait: float | None = getattr(exc, "wait", None)  # DRF's Throttled sets it; its stubs do not declare it
    if isinstance(exc, exceptions.Throttled) and wait is not None:
        details["retry_after"] = int(wait + 0.999)
    if (
        isinstance(exc, exceptions.ParseError)
        and isinstance(exc.get_codes(), str)
        and exc.get_codes() != exc.default_code
    ):
        details["reason"] = exc.get_codes()  # bad_json, too_deep, bad_encoding (api/json_body.py)
    message = exc.detail if isinstance(exc.detail, str) else str(exc.default_detail)
    response.data = error_body(code, message, details)
    return response
