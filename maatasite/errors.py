"""The base of every service refusal, below the apps and the API.

A refusal carries a stable ``code``, its ``params``, an HTTP-like ``status`` and a
``message`` in the active language. The apps define their errors on it (games.errors'
GameActionError and the apps' subclasses); the API's error shape (api/errors.py) turns
any of them into a response without knowing which app raised it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class ServiceError(Exception):
    """A service refused an action: ``code``, ``params``, ``status`` and ``message``."""

    status = 400
    code: str
    params: Mapping[str, Any]

    @property
    def message(self) -> str:
        raise NotImplementedError
