"""Structured form of legal move texts, so an app can build its own move picker.

Derived from the canonical move text alone (no state needed): Onitama's
``card:c1c2`` / ``card:pass``, and Maatatahay's moves as the engine reads them
(``engine.maatatahay.moves.read_move``), named by their kind.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any

_ONITAMA = re.compile(r"^([a-z_]+):(?:(pass)|([a-e][1-5])([a-e][1-5]))$")


def move_structure(kind: str, text: str) -> dict[str, Any]:
    """``{"type": ..., ...fields}`` for a legal move text of game ``kind``."""
    if kind == "onitama":
        found = _ONITAMA.match(text)
        if found is None:
            return {"type": "unknown"}
        card, is_pass, src, dst = found.groups()
        if is_pass:
            return {"type": "pass", "card": card}
        return {"type": "move", "card": card, "from": src, "to": dst}
    if kind == "maatatahay":
        from engine.maatatahay.moves import read_move
        move = read_move(text)
        fields = {name: (list(value) if isinstance(value, tuple) else value)
                  for name, value in ((f.name, getattr(move, f.name)) for f in dataclasses.fields(move))}
        return {"type": type(move).__name__.lower(), **fields}
    return {"type": "unknown"}
