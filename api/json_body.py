"""Reading a request's JSON body safely: the one parser of every JSON body the site reads.

Why: ``json.loads`` of a small body of a thousand nested arrays raises ``RecursionError``
(not ``ValueError``), and code that walks or dumps a deep value recurses again, so such a
body was a 500. Here every body that cannot be read is a :class:`JsonBodyError` (a
``ValueError``) with a code and a message for the client: not UTF-8, not JSON, or nested
deeper than :data:`MAX_DEPTH`. The API reads bodies through :class:`JSONBodyParser`
(DRF's parser, REST_FRAMEWORK's default), the webhooks through :func:`json_body_load`.
Imports no domain app.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

# No body of the site's API or webhooks nests nearly this deep (a move is about 3 levels).
MAX_DEPTH = 32


class JsonBodyError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _depth_exceeds(value: Any, limit: int) -> bool:
    """Whether ``value`` nests deeper than ``limit`` lists and objects (iteratively: a deep
    value never recurses here)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children: Iterable[Any]
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


def _refuse_constant(name: str) -> Any:
    raise ValueError("%s is not JSON" % name)


def json_body_load(raw: bytes | str, *, encoding: str = "utf-8") -> Any:
    """The JSON value of ``raw``; JsonBodyError when it is not text, not JSON or too deep."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode(encoding)
        except (UnicodeDecodeError, LookupError):
            raise JsonBodyError("bad_encoding", _("The body is not UTF-8 text.")) from None
    try:
        value = json.loads(raw, parse_constant=_refuse_constant)  # NaN, Infinity: not JSON
    except RecursionError:
        raise JsonBodyError(
            "too_deep", _("The JSON body is nested too deeply (at most %(depth)d levels).") % {"depth": MAX_DEPTH}
        ) from None
    except ValueError as error:
        raise JsonBodyError("bad_json", _("The body is not valid JSON: %(error)s") % {"error": error}) from None
    if _depth_exceeds(value, MAX_DEPTH):
        raise JsonBodyError(
            "too_deep", _("The JSON body is nested too deeply (at most %(depth)d levels).") % {"depth": MAX_DEPTH}
        )
    return value


class JSONBodyParser(JSONParser):
    """DRF's JSON parser on :func:`json_body_load`: an unreadable body is a 400 ParseError
    (the API's ``parse_error``), never a RecursionError."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Mapping[str, Any] | None = None) -> Any:
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding") or "utf-8"
        raw = stream.read() if stream is not None else b""
        try:
            return json_body_load(raw, encoding=encoding)
        except JsonBodyError as error:
            raise ParseError(error.message, code=error.code) from None
