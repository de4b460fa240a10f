"""Exceptions raised by the rules engine.

Every error carries a stable ``code`` (for the site to translate), a dict of
``params`` (the values the translated message needs) and an English message a
player understands. Messages never mention hidden information (pile order,
bag order, seeds).

>>> e = IllegalMoveError("shrine_cost", "Shrine at c3 costs 3 crystals, you hold 2",
...                      square="c3", cost=3, held=2)
>>> e.code, e.params["cost"], str(e)
('shrine_cost', 3, 'Shrine at c3 costs 3 crystals, you hold 2')
"""

from __future__ import annotations

from typing import Any


class EngineError(Exception):
    """Base class: ``code`` is stable, ``params`` feed a translation, ``str()`` is English."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params: dict[str, Any] = params

    def as_dict(self) -> dict[str, Any]:
        """The error as JSON-ready data: ``{"code", "message", "params"}``."""
        return {"code": self.code, "message": self.message, "params": dict(self.params)}


class MoveSyntaxError(EngineError):
    """The move text cannot be read at all (unknown word, bad square, bad counts)."""


class IllegalMoveError(EngineError):
    """The move text is well formed but the move is not legal in this state."""


class OptionsError(EngineError):
    """Game options (variant, opening, card pool, data version, seed) are not valid."""


class StateFormatError(EngineError):
    """A JSON state, position text or view cannot be read."""
