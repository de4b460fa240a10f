"""Structured logs: every record carries the request id and the game id it belongs to.

Why: one move touches a web process, the database and a worker; when something goes
wrong, staff search the logs for one request id or one game id and see all of it.

* ``RequestIdMiddleware`` gives each HTTP request an id (the client's ``X-Request-ID``
  when it is a sane token, else a new one), answers it in the ``X-Request-ID`` header,
  and binds the ``game_id`` of URLs that name a game.
* Celery: the request id travels with every task sent while handling a request (a
  message header), and a task's ``game_id`` argument is bound while it runs, with the
  task's name and id.
* ``log_context(game_id=...)`` binds fields for a block of code anywhere else.
* ``ContextFilter`` copies the bound fields onto each record; ``JsonFormatter`` writes one
  JSON object per line (``LOG_FORMAT=json``), the ``kv`` format writes ``key=value`` pairs.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import re
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

FIELDS = ("request_id", "game_id", "user_id", "task", "task_id")
# No default: a mutable default would be one dict shared by every context; reads pass a fresh `{}`.
_context: contextvars.ContextVar[dict[str, Any]] = contextvars.ContextVar("log_context")
REQUEST_ID_HEADER = "X-Request-ID"
_SANE_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{8,64}$")
request_log = logging.getLogger("maatasite.requests")
task_log = logging.getLogger("maatasite.tasks")


def bound() -> dict[str, Any]:
    """The fields bound to the code running now."""
    return dict(_context.get({}))


@contextlib.contextmanager
def log_context(**fields: Any) -> Iterator[None]:
    """Bind fields (e.g. ``game_id``) to every record logged inside the block."""
    token = _context.set({**_context.get({}), **{k: v for k, v in fields.items() if v is not None}})
    try:
        yield
    finally:
        _context.reset(token)


def new_request_id(offered: str | None = None) -> str:
    """The client's id when it is a sane token (so a proxy's id links up), else a fresh one."""
    if offered and _SANE_REQUEST_ID.match(offered):
        return offered
    return uuid.uuid4().hex


class ContextFilter(logging.Filter):
    """Put the bound fields on each record ("-" when unbound, so formats never fail)."""

    def filter(self, record: logging.LogRecord) -> bool:
        fields = _context.get({})
        for name in FIELDS:
            if not hasattr(record, name):
                setattr(record, name, fields.get(name, "-"))
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, msg, the bound fields, any error."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, tz=UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
            "process": record.process,
        }
        for name in FIELDS:
            value = getattr(record, name, "-")
            if value not in (None, "-"):
                entry[name] = value
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


class RequestIdMiddleware:
    """Bind a request id (and the game a URL names, and the user) for the whole request."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request_id = new_request_id(request.headers.get(REQUEST_ID_HEADER))
        request.request_id = request_id
        token = _context.set({"request_id": request_id})
        started = time.monotonic()
        try:
            response = self.get_response(request)
            request_log.info(
                "%s %s %s %.0fms",
                request.method,
                request.path,
                response.status_code,
                (time.monotonic() - started) * 1000,
            )
        finally:
            _context.reset(token)
        response[REQUEST_ID_HEADER] = request_id
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        fields = dict(_context.get({}))
        if "game_id" in view_kwargs:
            fields["game_id"] = view_kwargs["game_id"]
        # a view that reads no user (accounts.middleware.reads_no_user) is not made to read one here
        user = None if getattr(view_func, "reads_no_user", False) else getattr(request, "user", None)
        if user is not None and getattr(user, "is_authenticated", False):
            fields["user_id"] = user.pk
        _context.set(fields)  # reset with the request's token in __call__
        return None


# ---------------------------------------------------------------- Celery


def task_publish_add_request_id(headers: dict | None = None, **kwargs: Any) -> None:
    """before_task_publish: carry the current request id in the task message."""
    request_id = _context.get({}).get("request_id")
    if headers is not None and request_id:
        headers.setdefault("maatasite_request_id", request_id)


_task_tokens: dict[str, tuple[contextvars.Token, float]] = {}


def task_prerun_bind(
    task_id: str | None = None, task: Any = None, args: Any = None, kwargs: Any = None, **extra: Any
) -> None:
    """task_prerun: bind the task's name and id, its request id and its game id."""
    fields: dict[str, Any] = {"task": getattr(task, "name", None), "task_id": task_id}
    request = getattr(task, "request", None)
    request_id = getattr(request, "maatasite_request_id", None) if request is not None else None
    if request_id is None and request is not None:
        request_id = (getattr(request, "headers", None) or {}).get("maatasite_request_id")
    if request_id is None:  # run in-process (eager): the request that ran it
        request_id = _context.get({}).get("request_id")
    if request_id:
        fields["request_id"] = request_id
    game_id = (kwargs or {}).get("game_id")
    if game_id is None and args and getattr(task, "name", "").startswith("games."):
        game_id = args[0] if isinstance(args[0], int) else None
    if game_id is not None:
        fields["game_id"] = game_id
    token = _context.set({k: v for k, v in fields.items() if v is not None})
    _task_tokens[task_id or ""] = (token, time.monotonic())


def task_postrun_unbind(task_id: str | None = None, task: Any = None, state: str | None = None, **extra: Any) -> None:
    """task_postrun: log the task's end (with its ids) and drop what task_prerun bound."""
    token, started = _task_tokens.pop(task_id or "", (None, None))
    if started is not None:
        task_log.info("%s %s %.0fms", getattr(task, "name", "?"), state or "-", (time.monotonic() - started) * 1000)
    if token is not None:
        try:
            _context.reset(token)
        except ValueError:  # reset from another context (eager runs nest): clear instead
            _context.set({})
