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
from typing import Any

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
