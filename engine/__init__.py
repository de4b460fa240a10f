"""Maatasite's rules engine: Onitama and Maatatahay as a pure Python library.

No Django here: the site, the bots and the command line all stand on this.

>>> from engine import get_game, GAME_NAMES
>>> GAME_NAMES
('maatatahay', 'onitama')
>>> get_game("onitama").players
('red', 'blue')
"""

from __future__ import annotations

from importlib import import_module

from .core import (
    GameMove,
    GameRules,
    GameState,
    JSONObject,
    JSONValue,
    MovePart,
    MoveParts,
    MovePreview,
    Options,
    OptionValue,
    Outcome,
    ReplayError,
    random_game,
    replay,
)
from .errors import EngineError, IllegalMoveError, MoveSyntaxError, OptionsError, StateFormatError

GAME_NAMES = ("maatatahay", "onitama")
_RULES: dict[str, GameRules] = {}


def get_game(name: str) -> GameRules:
    """The rules object of the game called ``name`` (``"onitama"`` or ``"maatatahay"``)."""
    if name not in GAME_NAMES:
        raise OptionsError("unknown_game", "Unknown game %r" % name, game=str(name))
    if name not in _RULES:
        rules: GameRules = import_module("engine." + name).RULES
        _RULES[name] = rules
    return _RULES[name]


__all__ = [
    "GAME_NAMES",
    "get_game",
    "GameRules",
    "GameState",
    "GameMove",
    "JSONObject",
    "JSONValue",
    "MovePart",
    "MoveParts",
    "MovePreview",
    "Options",
    "OptionValue",
    "Outcome",
    "ReplayError",
    "random_game",
    "replay",
    "EngineError",
    "IllegalMoveError",
    "MoveSyntaxError",
    "OptionsError",
    "StateFormatError",
]
