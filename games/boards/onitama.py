"""Onitama drawn as SVG: the 5x5 board with masters and students, the temple
arches, and the five cards in play with their move grids.

The view (``engine.onitama`` ``RULES.view``) gives ``board`` (ranks 5 down to
1, one string per rank, ``R r B b .``), ``hands``, ``side``, ``to_move`` and
``cards`` ({name: {"moves": [[dx, dy]...], "stamp"}}). Offsets are written from
the holder's point of view: Red applies them as written, Blue turned 180 degrees.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from ..labels import SIDES, side_label
from ..models import GameKind

CELL = 60
FILES = "abcde"
RED, BLUE = SIDES[GameKind.ONITAMA]
COLOURS = {RED: ("#c0392b", "#f5d5d0"), BLUE: ("#2e5fa8", "#d3e0f5")}


def _xy(file: int, rank: int, flip: bool) -> tuple[int, int]:
    """Top-left corner of a square; rank 5 on top unless flipped."""
    if flip:
        return (4 - file) * CELL, rank * CELL
    return file * CELL, (4 - rank) * CELL


def piece_label(ch: str) -> str:
    """A piece's name for screen readers and tooltips (``R r B b``)."""
    red = ch in "Rr"
    if ch in "RB":
        return _("red master") if red else _("blue master")
    return _("red student") if red else _("blue student")


def board_svg(view: dict[str, Any], *, flip: bool = False, last: Sequence[str] = ()) -> SafeString:
    """The board; the squares in ``last`` (the last move's from and to) are highlighted.
    Each square is named for screen readers with what stands on it."""
    size = 5 * CELL
    occupants = {
        "%s%d" % (FILES[file], 5 - row): piece_label(ch)
        for row, line in enumerate(view.get("board", []))
        for file, ch in enumerate(line)
        if ch != "."
    }
    pad = 18
    # A group, not one image: each square and piece is an image with a name of its own.
    parts = [
        '<svg class="board onitama-board" viewBox="%d %d %d %d" role="group" '
        'xmlns="http://www.w3.org/2000/svg" aria-label="%s">'
        % (-pad, -4, size + pad + 4, size + pad + 8, escape(_("Onitama board"))),
        "<title>%s</title>" % escape(_("Onitama board")),
    ]
    for rank in range(5):
        for file in range(5):
            x, y = _xy(file, rank, flip)
            square = "%s%d" % (FILES[file], rank + 1)
            arch = square in ("c1", "c5")
            fill = "#efe3c8" if (file + rank) % 2 else "#e6d6b3"
            name = (
                _("%(square)s, %(piece)s") % {"square": square, "piece": occupants[square]}
                if square in occupants
                else square
            )
            if square in last:
                name = _("%(square)s, last move") % {"square": name}
            parts.append(
                '<rect class="space%s" data-square="%s" x="%d" y="%d" width="%d" height="%d" '
                'fill="%s" stroke="#8a7550" stroke-width="1" role="img" aria-label="%s">'
                "<title>%s</title></rect>"
                % (" last-move" if square in last else "", square, x, y, CELL, CELL, fill, escape(name), escape(name))
            )
            if arch:
                colour = COLOURS[RED if square == "c1" else BLUE][0]
                parts.append(
                    '<path d="M%d %d v-14 a14 14 0 0 1 28 0 v14" fill="none" stroke="%s" '
                    'stroke-width="3" opacity="0.45" pointer-events="none"/>' % (x + 16, y + CELL - 8, colour)
                )
    for file in range(5):
        x, _y = _xy(file, 0, flip)
        parts.append(
            '<text x="%d" y="%d" font-size="12" text-anchor="middle" fill="#555" '
            'aria-hidden="true">%s</text>' % (x + CELL // 2, size + 14, FILES[file])
        )
    for rank in range(5):
        _x, y = _xy(0, rank, flip)
        parts.append(
            '<text x="%d" y="%d" font-size="12" text-anchor="middle" fill="#555" '
            'aria-hidden="true">%d</text>' % (-9, y + CELL // 2 + 4, rank + 1)
        )
    for row, line in enumerate(view.get("board", [])):
        rank = 4 - row
        for file, ch in enumerate(line):
            if ch == ".":
                continue
            colour = RED if ch in "Rr" else BLUE
            master = ch in "RB"
            x, y = _xy(file, rank, flip)
            cx, cy = x + CELL // 2, y + CELL // 2
            stroke, fill = COLOURS[colour]
            square = "%s%d" % (FILES[file], rank + 1)
            # The square's name says what stands on it; the piece has its own name too, for
            # readers that list the images.
            spoken = escape("%s (%s)" % (piece_label(ch), square))
            parts.append(
                '<g class="piece %s%s" data-square="%s" pointer-events="none" role="img" '
                'aria-label="%s"><title>%s</title>' % (colour, " master" if master else "", square, spoken, spoken)
            )
            if master:
                parts.append(
                    '<circle cx="%d" cy="%d" r="22" fill="%s" stroke="%s" stroke-width="4"/>' % (cx, cy, fill, stroke)
                )
                parts.append('<path d="M%d %d l5 -12 l5 8 l5 -8 l5 12 z" fill="%s"/>' % (cx - 10, cy + 6, stroke))
            else:
                parts.append(
                    '<circle cx="%d" cy="%d" r="15" fill="%s" stroke="%s" stroke-width="3"/>' % (cx, cy, fill, stroke)
                )
            parts.append("</g>")
    parts.append("</svg>")
    return mark_safe("".join(parts))


def card_svg(name: str, card: dict[str, Any], *, holder: str | None, flip: bool, highlight: bool = False) -> str:
    """One card with its move grid, drawn as its holder (or the side) sees it on this board."""
    cell = 14
    width, height = 5 * cell + 16, 5 * cell + 34
    stamp = card.get("stamp", RED)
    # Red applies offsets as written; Blue rotated by 180 degrees. On a board seen
    # by Blue (flip) everything turns by 180 degrees once more.
    turn = (holder == BLUE) != flip
    label = _("%(card)s card") % {"card": name.replace("_", " ")}
    parts = [
        '<svg class="card%s" data-card="%s" data-holder="%s" viewBox="0 0 %d %d" width="%d" '
        'height="%d" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="%s">'
        % (
            " selected" if highlight else "",
            escape(name),
            escape(holder or ""),
            width,
            height,
            width,
            height,
            escape(label),
        ),
        '<rect x="1" y="1" width="%d" height="%d" rx="6" fill="#fbf6ea" stroke="%s" '
        'stroke-width="2"/>' % (width - 2, height - 2, COLOURS.get(stamp, COLOURS[RED])[0]),
    ]
    ox, oy = 8, 8
    offsets = {tuple(o) for o in card.get("moves", [])}
    for gy in range(5):
        for gx in range(5):
            dx, dy = gx - 2, 2 - gy
            if turn:
                dx, dy = -dx, -dy
            fill = "#fff"
            if gx == 2 and gy == 2:
                fill = "#333"
            elif (dx, dy) in offsets:
                fill = COLOURS.get(stamp, COLOURS[RED])[0]
            parts.append(
                '<rect x="%d" y="%d" width="%d" height="%d" fill="%s" stroke="#bbb"/>'
                % (ox + gx * cell, oy + gy * cell, cell, cell, fill)
            )
    parts.append(
        '<text x="%d" y="%d" font-size="12" text-anchor="middle" fill="#333">%s</text>'
        % (width // 2, height - 9, escape(name.replace("_", " ")))
    )
    parts.append("</svg>")
    return "".join(parts)


def cards_svg(view: dict[str, Any], *, flip: bool = False) -> SafeString:
    """Both hands and the side card, as a block of HTML with small SVGs."""
    cards = view.get("cards", {})
    top, bottom = (RED, BLUE) if flip else (BLUE, RED)

    def hand(colour: str) -> str:
        inner = "".join(
            card_svg(n, cards.get(n, {}), holder=colour, flip=flip) for n in view.get("hands", {}).get(colour, [])
        )
        mover = " to-move" if view.get("to_move") == colour else ""
        return '<div class="hand hand-%s%s"><span class="hand-label">%s</span>%s</div>' % (
            colour,
            mover,
            escape(side_label(colour)),
            inner,
        )

    side = view.get("side")
    side_html = ""
    if side:
        side_html = '<div class="hand side-card"><span class="hand-label">%s</span>%s</div>' % (
            escape(_("Side card")),
            card_svg(side, cards.get(side, {}), holder=view.get("to_move"), flip=flip),
        )
    # A region of its own: on a phone it follows the move controls, apart from the board.
    return mark_safe(
        '<section class="onitama-cards" aria-label="%s">%s%s%s</section>'
        % (escape(_("Cards in play")), hand(top), side_html, hand(bottom))
    )
