"""Maatatahay drawn as SVG from the public view and the game's component data.

The map: 5x5 spaces (Woods, Grassland, Barren area), Crystal Niches with the
crystals lying on them, the map's supporting arrows, Shrines still holding
their relic. Warriors: a tile in the tribe's colour, turned by its rotation,
with its arrows, claws, sanity gems and the crystals on it; a dead warrior is
drawn flipped (face down). Beside the map: the Spirit Track, both relic
tracks and storages, the Tile Stream, the picked pair and the bag.

Rotation (rulings): at rotation 0 a tile's top faces rank 5; rotation r turns
it r quarter turns clockwise as seen with rank 5 at the top. Wazu sits above
the map, so a Wazu player sees the board turned by 180 degrees (``flip``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from engine.maatatahay import data as component_data

from ..labels import SIDES, side_label, tile_label
from ..models import GameKind

CELL = 80
FILES = "abcde"
BALAN, WAZU = SIDES[GameKind.MAATATAHAY]
TRIBE = {BALAN: ("#8c3b1f", "#f1d3c3"), WAZU: ("#1f6b6b", "#c8ebe8")}
REGION = {"woods": "#b9d3a0", "grassland": "#dcebb5", "barren": "#e8dcc0"}
ENERGY, SPIRIT = "#e0a100", "#7b4bc4"
# Arrow directions in the tile's own frame, as (dx, dy) in SVG coordinates (y grows down).
DIRS = {
    "N": (0, -1),
    "NE": (1, -1),
    "E": (1, 0),
    "SE": (1, 1),
    "S": (0, 1),
    "SW": (-1, 1),
    "W": (-1, 0),
    "NW": (-1, -1),
}


@functools.cache
def _table_kept(version: str) -> dict[str, Any]:
    return component_data.table(version)


def component_table(view: dict[str, Any]) -> dict[str, Any]:
    """The component data (tiles, map) of the version the game is played with, for reading
    only: one copy per process and version (the engine's ``table`` copies the whole table at
    each call, and drawing a board asked for it three times: a tenth of a page that follows a
    move)."""
    try:
        return _table_kept(view.get("data_version") or component_data.CURRENT)
    except Exception:  # an unknown version still draws, with the current data
        return _table_kept(component_data.CURRENT)


def tribe_label(tribe: str) -> str:
    return side_label(tribe)


def _xy(square: str, flip: bool) -> tuple[int, int]:
    file, rank = FILES.index(square[0]), int(square[1]) - 1
    if flip:
        return (4 - file) * CELL, rank * CELL
    return file * CELL, (4 - rank) * CELL


def _crystals(x: float, y: float, energy: int, spirit: int, size: int = 7) -> str:
    """Small diamonds: energy (amber) then spirit (violet), with a count when more than 3."""
    out = []
    step = size * 2 + 2
    cx = x
    for colour, count, label in ((ENERGY, energy, _("Energy")), (SPIRIT, spirit, _("Spirit"))):
        if not count:
            continue
        shown = min(count, 3)
        for _i in range(shown):
            out.append(
                '<path d="M%.1f %.1f l%d %d l-%d %d l-%d -%d z" fill="%s" stroke="#333" '
                'stroke-width="0.8"><title>%s: %d</title></path>'
                % (cx, y - size, size, size, size, size, size, size, colour, escape(label), count)
            )
            cx += step * 0.7
        if count > 3:
            out.append('<text x="%.1f" y="%.1f" font-size="15" fill="#222">%d</text>' % (cx - 2, y + 5, count))
            cx += 12
        cx += 3
    return "".join(out)


def _tile(square: str, cell: dict[str, Any], data: dict[str, Any], flip: bool) -> str:
    x, y = _xy(square, flip)
    tribe = cell.get("tribe", BALAN)
    stroke, fill = TRIBE.get(tribe, TRIBE[BALAN])
    name = cell.get("tile", "")
    info = data.get("tiles", {}).get(name, {})
    m = 6
    size = CELL - 2 * m
    cx, cy = x + CELL / 2, y + CELL / 2
    title = "%s %s (%s)" % (tribe_label(tribe), tile_label(name), square)
    if not cell.get("alive", True):
        dead = "%s: %s" % (title, _("dead"))
        return (
            '<g class="tile dead %s" data-square="%s" pointer-events="none" role="img" aria-label="%s">'
            "<title>%s</title>"
            '<rect x="%d" y="%d" width="%d" height="%d" rx="8" fill="#8d8478" stroke="%s" '
            'stroke-width="3"/><path d="M%d %d L%d %d M%d %d L%d %d" stroke="#5b544b" '
            'stroke-width="3"/></g>'
            % (
                tribe,
                square,
                escape(dead),
                escape(dead),
                x + m,
                y + m,
                size,
                size,
                stroke,
                x + 20,
                y + 20,
                x + CELL - 20,
                y + CELL - 20,
                x + CELL - 20,
                y + 20,
                x + 20,
                y + CELL - 20,
            )
        )
    angle = (int(cell.get("rotation", 0)) * 90 + (180 if flip else 0)) % 360
    claws = info.get("claws", 0)
    gems = info.get("sanity", 0)
    spoken = "%s: %s %s, %s %s" % (title, claws, _("claws"), gems, _("sanity"))
    for crystal, count in ((_("Energy"), cell.get("energy", 0)), (_("Spirit"), cell.get("spirit", 0))):
        if count:
            spoken += ", %s %d" % (crystal, count)
    parts = [
        '<g class="tile %s" data-square="%s" pointer-events="none" role="img" aria-label="%s">'
        "<title>%s</title>" % (tribe, square, escape(spoken), escape(spoken)),
        '<g transform="rotate(%d %.1f %.1f)">' % (angle, cx, cy),
        '<rect x="%d" y="%d" width="%d" height="%d" rx="8" fill="%s" stroke="%s" '
        'stroke-width="3"/>' % (x + m, y + m, size, size, fill, stroke),
        # a notch marks the tile's top
        '<rect x="%.1f" y="%d" width="12" height="4" fill="%s"/>' % (cx - 6, y + m, stroke),
    ]
    for direction in info.get("arrows", []):
        dx, dy = DIRS.get(direction, (0, 0))
        reach = size / 2 - 3
        tx, ty = cx + dx * reach, cy + dy * reach
        # a small triangle pointing outwards
        bx, by = cx + dx * (reach - 10), cy + dy * (reach - 10)
        px, py = -dy * 5, dx * 5
        parts.append(
            '<path d="M%.1f %.1f L%.1f %.1f L%.1f %.1f z" fill="%s"/>'
            % (tx, ty, bx + px, by + py, bx - px, by - py, stroke)
        )
    parts.append("</g>")
    # Text and crystals stay upright.
    label = tile_label(name)
    # 15 units stay 12 px on a 390 px phone; a long name is narrowed to fit the tile.
    fit = ' textLength="%d" lengthAdjust="spacingAndGlyphs"' % (size - 8) if len(label) * 8.4 > size - 8 else ""
    parts.append(
        '<text x="%.1f" y="%.1f" font-size="15" text-anchor="middle" fill="#222"%s>%s</text>'
        % (cx, y + 29, fit, escape(label))
    )
    parts.append(
        '<text x="%.1f" y="%.1f" font-size="17" font-weight="bold" text-anchor="middle" '
        'fill="%s">%s</text>' % (cx - 10, cy + 10, stroke, claws)
    )
    for i in range(gems):
        parts.append(
            '<circle cx="%.1f" cy="%.1f" r="3" fill="#2a9d8f" stroke="#114"><title>%s</title>'
            "</circle>" % (cx + 6 + (i % 2) * 8, cy + 2 + (i // 2) * 8, escape(_("sanity %(n)s") % {"n": gems}))
        )
    parts.append(_crystals(x + 16, y + CELL - 16, cell.get("energy", 0), cell.get("spirit", 0), 5))
    parts.append("</g>")
    return "".join(parts)


def hot_tile(view: dict[str, Any], side: str | None) -> dict[str, Any] | None:
    """The tile ``side`` holds in the picked pair, for the board's placement control to draw:
    its name, tribe, colours, claws and arrows as (dx, dy) unrotated (None without a pair)."""
    name = (view.get("pair") or {}).get(side or "")
    if not name or side is None:
        return None
    info = component_table(view).get("tiles", {}).get(name, {})
    stroke, fill = TRIBE.get(side, TRIBE[BALAN])
    return {
        "name": name,
        "label": "%s %s" % (tribe_label(side), tile_label(name)),
        "short": tile_label(name),
        "stroke": stroke,
        "fill": fill,
        "claws": info.get("claws", 0),
        "arrows": [DIRS[d] for d in info.get("arrows", []) if d in DIRS],
        "cell": CELL,
        "crystal_colours": {"energy": ENERGY, "spirit": SPIRIT},
    }


def board_svg(view: dict[str, Any], *, flip: bool = False, last: Sequence[str] = ()) -> SafeString:
    """The map; the spaces in ``last`` (the last decision's space) are highlighted. Each
    space is named for screen readers with the warrior on it."""
    data = component_table(view)
    m = data.get("map", {})
    region = {}
    for kind in ("woods", "grassland", "barren"):
        for sq in m.get(kind, []):
            region[sq] = kind
    niches = set(m.get("niches", []))
    map_arrows = m.get("arrows", {})
    relics = set(view.get("relics", []))
    pending = view.get("pending")
    size = 5 * CELL
    pad = 18
    # A group, not one image: each space and warrior is an image with a name of its own.
    parts = [
        '<svg class="board maatatahay-board" viewBox="%d %d %d %d" role="group" '
        'xmlns="http://www.w3.org/2000/svg" aria-label="%s"><title>%s</title>'
        % (-pad, -4, size + pad + 4, size + pad + 10, escape(_("Maatatahay map")), escape(_("Maatatahay map")))
    ]
    region_names = {"woods": _("Woods"), "grassland": _("Grassland"), "barren": _("Barren area")}
    for rank in range(1, 6):
        for file in FILES:
            sq = "%s%d" % (file, rank)
            x, y = _xy(sq, flip)
            kind = region.get(sq, "barren")
            spoken = [sq]
            cell = view.get("board", {}).get(sq)
            if cell:
                warrior = "%s %s" % (tribe_label(cell.get("tribe", "")), tile_label(cell.get("tile", "")))
                spoken.append(warrior if cell.get("alive", True) else "%s (%s)" % (warrior, _("dead")))
            spoken.append(region_names[kind])
            if sq in niches:
                spoken.append(_("Crystal Niche"))
            if sq in map_arrows:
                spoken.append(_("Map arrow: +%(n)s crystal") % {"n": map_arrows[sq]})
            if sq in relics:
                spoken.append(_("Shrine with its relic"))
            name = ", ".join(spoken)
            if sq in last:
                name = _("%(square)s, last move") % {"square": name}
            parts.append(
                '<rect class="space%s" data-square="%s" x="%d" y="%d" width="%d" height="%d" '
                'fill="%s" stroke="#7a6a4f" stroke-width="1" role="img" aria-label="%s">'
                "<title>%s</title></rect>"
                % (" last-move" if sq in last else "", sq, x, y, CELL, CELL, REGION[kind], escape(name), escape(name))
            )
            if sq in niches:
                parts.append(
                    '<circle cx="%d" cy="%d" r="9" fill="none" stroke="#7a6a4f" '
                    'stroke-dasharray="3 2" pointer-events="none"><title>%s</title></circle>'
                    % (x + CELL - 13, y + 13, escape(_("Crystal Niche")))
                )
            if sq in map_arrows:
                parts.append(
                    '<g pointer-events="none"><title>%s</title>'
                    '<path d="M%d %d l10 6 l-10 6 z" fill="#b5651d"/></g>'
                    % (escape(_("Map arrow: +%(n)s crystal") % {"n": map_arrows[sq]}), x + 4, y + 4)
                )
            if sq in relics:
                colour = "#c9a227" if sq != pending else "#e76f51"
                parts.append(
                    '<g class="shrine" pointer-events="none"><title>%s</title>'
                    '<path d="M%d %d l18 -14 l18 14 z M%d %d h28 v16 h-28 z" fill="%s" '
                    'stroke="#5a4a1a"/></g>'
                    % (escape(_("Shrine with its relic")), x + 22, y + 36, x + 26, y + 36, colour)
                )
    for sq, crystals in view.get("ground", {}).items():
        x, y = _xy(sq, flip)
        if sq not in view.get("board", {}):
            parts.append(
                '<g pointer-events="none">%s</g>'
                % _crystals(x + 12, y + CELL - 14, crystals.get("energy", 0), crystals.get("spirit", 0))
            )
    for sq, cell in sorted(view.get("board", {}).items()):
        parts.append(_tile(sq, cell, data, flip))
    if pending:
        x, y = _xy(pending, flip)
        parts.append(
            '<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#e76f51" '
            'stroke-width="4" stroke-dasharray="6 4" pointer-events="none"/>' % (x + 2, y + 2, CELL - 4, CELL - 4)
        )
    for file in FILES:
        x, _y = _xy("%s1" % file, flip)
        parts.append(
            '<text x="%d" y="%d" font-size="15" text-anchor="middle" fill="#555" aria-hidden="true">%s</text>'
            % (x + CELL // 2, size + 16, file)
        )
    for rank in range(1, 6):
        _x, y = _xy("a%d" % rank, flip)
        parts.append(
            '<text x="%d" y="%d" font-size="15" text-anchor="middle" fill="#555" aria-hidden="true">%d</text>'
            % (-9, y + CELL // 2 + 5, rank)
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))


def _crystal_icons(energy: int, spirit: int) -> str:
    """Crystals beside the map as HTML: a small diamond per kind with its count, and a text name."""
    out = []
    for kind, colour, count, label in (
        ("energy", ENERGY, energy, _("Energy")),
        ("spirit", SPIRIT, spirit, _("Spirit")),
    ):
        name = "%s: %d" % (label, count)
        out.append(
            '<span class="crystal crystal-%s" role="img" aria-label="%s" title="%s">'
            '<svg viewBox="0 0 12 12" width="12" height="12" aria-hidden="true" focusable="false">'
            '<path d="M6 0 L12 6 L6 12 L0 6 z" fill="%s" stroke="#333" stroke-width="0.8"/></svg>'
            '<span aria-hidden="true">%d</span></span>' % (kind, escape(name), escape(name), colour, count)
        )
    return "".join(out)


def _mini_tile(name: str, tribe: str, data: dict[str, Any]) -> str:
    """A tile of the stream: its name, claws and sanity, in the tribe's colours, named for screen readers."""
    info = data.get("tiles", {}).get(name, {})
    claws, sanity = info.get("claws", 0), info.get("sanity", 0)
    title = "%s %s: %s %s, %s %s" % (tribe_label(tribe), tile_label(name), claws, _("claws"), sanity, _("sanity"))
    return (
        '<span class="mini-tile tribe-%s" role="img" aria-label="%s" title="%s">'
        '<span class="mini-name" aria-hidden="true">%s</span>'
        '<span class="mini-stats" aria-hidden="true">⚔%s ◆%s</span></span>'
        % (escape(tribe), escape(title), escape(title), escape(tile_label(name)), claws, sanity)
    )


def extras_svg(view: dict[str, Any], *, flip: bool = False) -> SafeString:
    """Spirit Track, relic tracks and storages, the Tile Stream and the bag.

    HTML, not SVG: its text keeps the page's size (never shrunk with a picture on a phone) and
    its direction (in Arabic the labels sit on the right, inside the page, not at x < 0).
    """
    data = component_table(view)
    limit = int(data.get("spirit_track", 6))
    track = int(view.get("track", 0))
    top, bottom = (BALAN, WAZU) if flip else (WAZU, BALAN)
    parts = ['<div class="maatatahay-extras">']

    # Spirit Track
    parts.append(
        '<section class="spirit-track" aria-label="%s"><h2 class="panel-label">%s</h2>'
        '<ol class="track-steps">'
        % (escape(_("Spirit Track: %(n)s of %(limit)s") % {"n": track, "limit": limit}), escape(_("Spirit Track")))
    )
    for i in range(max(limit, track)):
        parts.append('<li class="track-step%s">%d</li>' % (" filled" if i < track else "", i + 1))
    parts.append("</ol></section>")

    # Relic tracks and storages, one line per tribe
    taken = view.get("taken", [])
    scores = view.get("scores") or {}
    for tribe in (top, bottom):
        storage = view.get("storage", {}).get(tribe, {})
        mine = [(i + 1, t["square"]) for i, t in enumerate(taken) if t.get("tribe") == tribe]
        to_move = view.get("to_move") == tribe
        parts.append(
            '<section class="tribe-line tribe-%s%s" aria-label="%s">'
            '<span class="tribe-name">%s</span>'
            % (tribe, " to-move" if to_move else "", escape(tribe_label(tribe)), escape(tribe_label(tribe)))
        )
        if tribe in scores:
            parts.append('<span class="tribe-score">%s</span>' % escape(_("score %(n)s") % {"n": scores[tribe]}))
        parts.append(
            '<span class="tribe-storage"><span class="panel-word">%s</span> %s</span>'
            % (escape(_("storage")), _crystal_icons(storage.get("energy", 0), storage.get("spirit", 0)))
        )
        parts.append('<span class="tribe-relics"><span class="panel-word">%s</span>' % escape(_("relics")))
        for order, square in mine:
            name = _("relic from %(square)s, taken %(n)s.") % {"square": square, "n": order}
            parts.append(
                '<span class="relic" role="img" aria-label="%s" title="%s">'
                '<svg viewBox="0 0 20 14" width="20" height="14" aria-hidden="true" focusable="false">'
                '<path d="M0 14 L10 2 L20 14 z" fill="#c9a227" stroke="#5a4a1a"/></svg>'
                '<span aria-hidden="true">%d</span></span>' % (escape(name), escape(name), order)
            )
        parts.append("</span></section>")

    # Tile Stream, picked pair, bag
    stream = view.get("stream", [])
    pair = view.get("pair")
    parts.append(
        '<section class="tile-stream" aria-label="%s"><h2 class="panel-label">%s</h2>'
        % (escape(_("Tile Stream")), escape(_("Tile Stream")))
    )
    if stream:
        parts.append('<ol class="stream-pairs">')
        for p in stream:
            parts.append(
                '<li class="stream-pair" data-wazu="%s" data-balan="%s">%s%s</li>'
                % (
                    escape(p.get(WAZU, "")),
                    escape(p.get(BALAN, "")),
                    _mini_tile(p.get(WAZU, ""), WAZU, data),
                    _mini_tile(p.get(BALAN, ""), BALAN, data),
                )
            )
        parts.append("</ol>")
    if pair:
        parts.append(
            '<p class="stream-pair picked"><span class="panel-word">%s</span>%s%s</p>'
            % (
                escape(_("picked")),
                _mini_tile(pair.get(WAZU, ""), WAZU, data),
                _mini_tile(pair.get(BALAN, ""), BALAN, data),
            )
        )
    bag = view.get("bag") or {}
    favour = view.get("favour") or []
    text = _("bag: %(e)s energy, %(s)s spirit") % {"e": bag.get("energy", 0), "s": bag.get("spirit", 0)}
    if favour:
        text += " · " + _("favour drawn: %(list)s") % {"list": ", ".join(favour)}
    parts.append(
        '<p class="bag-line">%s · %s</p>' % (escape(text), escape(_("round %(n)s") % {"n": view.get("round", 1)}))
    )
    parts.append("</section></div>")
    return mark_safe("".join(parts))
