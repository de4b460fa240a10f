"""Conditional moves (Onitama): a player's queued answers to what the opponent may do.

A player queues *lines* on their opponent's turn: ``[their move, my answer, their move,
my answer, ...]``, at most :data:`MAX_PLIES` plies, at most :data:`MAX_LINES` lines. The
lines of a game form a tree, kept as ``{their move: {"answer": my move, "then": {...}}}``
(move texts as the engine writes them), one row per player and game
(``games.ConditionalLines``), *sealed* like the engine state (purpose ``"conditional"``):
a database dump shows none of it. Only this module reads or writes the sealed text; the
services (games.services, "conditional moves") check, set and play the lines.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from engine import GameRules, GameState, MoveParts
from engine.errors import EngineError

from .errors import InvalidInput, engine_message
from .sealing import seal, unseal

MAX_LINES = 50
MAX_PLIES = 6
PURPOSE = "conditional"

Tree = dict[str, Any]


def tree_seal(tree: Tree) -> str:
    return seal(json.dumps(tree, separators=(",", ":"), sort_keys=True), purpose=PURPOSE)


def tree_unseal(sealed: str) -> Tree:
    tree = json.loads(unseal(sealed, purpose=PURPOSE))
    return tree if isinstance(tree, dict) else {}


def tree_lines(tree: Tree) -> list[list[str]]:
    """The root-to-leaf lines of a tree, in a stable order."""
    lines: list[list[str]] = []
    for theirs in sorted(tree):
        node = tree[theirs]
        head = [theirs, node["answer"]]
        rest = tree_lines(node.get("then") or {})
        lines.extend([head + tail for tail in rest] or [head])
    return lines


def line_split(text: str) -> list[str]:
    """A line in notation: plies separated by spaces (``ox:c5c4 boar:a1a2``)."""
    return [part for part in (text or "").split() if part]


@dataclass(frozen=True)
class LineWalk:
    """A line played from a position: its plies as the engine writes them, the position
    after them, and the parts of the last ply (None for an empty line)."""

    texts: list[str]
    position: GameState
    last_parts: MoveParts | None


def line_walk(rules: GameRules, state: GameState, plies: list[str], *, number: int) -> LineWalk:
    """Play ``plies`` (line ``number``) from ``state`` through the engine: every ply legal,
    none after the game is over. The one check of a line, for saving lines
    (games.services.conditional_lines_set) and for entering one on the board
    (games.services.conditional_line_position); InvalidInput (400) names the line and ply."""
    position, texts, last_parts = state, [], None
    for ply, text in enumerate(plies, start=1):
        if rules.outcome(position) is not None:
            raise InvalidInput("conditional_game_ends", line=number, ply=ply - 1)
        try:
            move = rules.parse_move(position, text.strip())
            position = rules.apply(position, move)
        except EngineError as error:
            problem = engine_message(error.code, error.params, error.message)
            raise InvalidInput("conditional_illegal", line=number, ply=ply, problem=problem) from error
        texts.append(rules.move_text(move))
        last_parts = rules.move_parts(move)
    return LineWalk(texts=texts, position=position, last_parts=last_parts)
