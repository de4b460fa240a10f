"""Server-side SVG boards drawn from the engine's public view (never the full state).

``board_svg(kind, view, flip=False)`` returns safe SVG markup. Every space
carries ``data-square="c3"`` and the ``space`` class, so the small script of
the game page can filter the legal moves by the squares a player clicks.
"""
from __future__ import annotations

from typing import Any

from django.utils.safestring import SafeString

from . import maatatahay, onitama


def board_svg(kind: str, view: dict[str, Any], *, flip: bool = False) -> SafeString:
    if kind == "onitama":
        return onitama.board_svg(view, flip=flip)
    return maatatahay.board_svg(view, flip=flip)


def extras_svg(kind: str, view: dict[str, Any], *, flip: bool = False) -> SafeString:
    """What sits beside the board: Onitama's cards, Maatatahay's tracks and stream."""
    if kind == "onitama":
        return onitama.cards_svg(view, flip=flip)
    return maatatahay.extras_svg(view, flip=flip)
