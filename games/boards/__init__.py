"""Server-side SVG boards drawn from the engine's public view (never the full state).

``board_svg(kind, view, flip=False)`` returns safe SVG markup. Every space
carries ``data-square="c3"``, the ``space`` class and a name for screen readers,
so the game page's scripts (static/games/board.js) can offer the legal moves on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.safestring import SafeString

from . import maatatahay, onitama


def board_svg(kind: str, view: dict[str, Any], *, flip: bool = False, last: Sequence[str] = ()) -> SafeString:
    """The board of ``kind``; the squares in ``last`` (the last move's) are highlighted."""
    if kind == "onitama":
        return onitama.board_svg(view, flip=flip, last=last)
    return maatatahay.board_svg(view, flip=flip, last=last)


def extras_svg(kind: str, view: dict[str, Any], *, flip: bool = False) -> SafeString:
    """What sits beside the board: Onitama's cards, Maatatahay's tracks and stream."""
    if kind == "onitama":
        return onitama.cards_svg(view, flip=flip)
    return maatatahay.extras_svg(view, flip=flip)


def hot_tile(view: dict[str, Any], side: str | None) -> dict[str, Any] | None:
    """Maatatahay: the tile ``side`` would place, as the board draws it (static/games/maatatahay.js)."""
    return maatatahay.hot_tile(view, side)
