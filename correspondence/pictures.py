"""PNG pictures of a position for mail, drawn on the server from a player's public view.

The SVG board of games.boards is rendered to PNG with CairoSVG. Only the view
of one player is drawn, so nothing hidden can leave the server.
"""

from __future__ import annotations

from typing import Any

import cairosvg

from games.boards import board_svg


def position_png(*, kind: str, view: dict[str, Any], flip: bool = False, width: int = 400) -> bytes:
    """The board of ``view`` as a PNG ``width`` pixels wide on a white ground."""
    return cairosvg.svg2png(
        bytestring=str(board_svg(kind, view, flip=flip)).encode("utf-8"), output_width=width, background_color="white"
    )
