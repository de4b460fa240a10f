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

from collections.abc import Sequence
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from engine.maatatahay import data as component_data

from ..labels import SIDES, side_label
from ..models import GameKind

CELL = 80
FILES = "abcde"
BALAN, WAZU = SIDES[GameKind.MAATATAHAY]
TRIBE = {BALAN: ("#8c3b1f", "#f1d3c3"), WAZU: ("#1f6b6b", "#c8ebe8")}
REGION = {"woods": "#b9d3a0", "grassland": "#dcebb5", "barren": "#e8dcc0"}
ENERGY, SPIRIT = "#e0a100", "#7b4bc4"
# Arrow directions in the tile's own frame, as (dx, dy) in SVG coordinates (y grows down).
DIRS = {"N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1), "S": (0, 1), "SW": (-1, 1),
        "W": (-1, 0), "NW": (-1, -1)}


def component_table(view: dict[str, Any]) -> dict[str, Any]:
    """The component data (tiles, map) of the version the game is played with."""
    try:
        return component_data.table(view.get("data_version") or component_data.CURRENT)
    except Exception:  # an unknown version still draws, with the current data
        return component_data.table(component_data.CURRENT)


def tile_label(name: str) -> str:
    return {"bravery": _("Bravery"), "rookie": _("Rookie"), "elite": _("Elite"),
            "champion": _("Champion"), "berserk": _("Berserk"), "support": _("Support"),
            "elder": _("Elder"), "convert": _("Convert")}.get(name, name)


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
            out.append('<path d="M%.1f %.1f l%d %d l-%d %d l-%d -%d z" fill="%s" stroke="#333" '
                       'stroke-width="0.8"><title>%s: %d</title></path>'
                       % (cx, y - size, size, size, size, size, size, size, colour, escape(label), count))
            cx += step * 0.7
        if count > 3:
            out.append('<text x="%.1f" y="%.1f" font-size="10" fill="#222">%d</text>'
                       % (cx - 2, y + 4, count))
            cx += 10
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
        return ('<g class="tile dead %s" data-square="%s" pointer-events="none"><title>%s: %s</title>'
                '<rect x="%d" y="%d" width="%d" height="%d" rx="8" fill="#8d8478" stroke="%s" '
                'stroke-width="3"/><path d="M%d %d L%d %d M%d %d L%d %d" stroke="#5b544b" '
                'stroke-width="3"/></g>'
                % (tribe, square, escape(title), escape(_("dead")), x + m, y + m, size, size, stroke,
                   x + 20, y + 20, x + CELL - 20, y + CELL - 20, x + CELL - 20, y + 20, x + 20,
                   y + CELL - 20))
    angle = (int(cell.get("rotation", 0)) * 90 + (180 if flip else 0)) % 360
    parts = ['<g class="tile %s" data-square="%s" pointer-events="none"><title>%s</title>'
             % (tribe, square, escape(title)),
             '<g transform="rotate(%d %.1f %.1f)">' % (angle, cx, cy),
             '<rect x="%d" y="%d" width="%d" height="%d" rx="8" fill="%s" stroke="%s" '
             'stroke-width="3"/>' % (x + m, y + m, size, size, fill, stroke),
             # a notch marks the tile's top
             '<rect x="%.1f" y="%d" width="12" height="4" fill="%s"/>' % (cx - 6, y + m, stroke)]
    for direction in info.get("arrows", []):
        dx, dy = DIRS.get(direction, (0, 0))
        reach = size / 2 - 3
        tx, ty = cx + dx * reach, cy + dy * reach
        # a small triangle pointing outwards
        bx, by = cx + dx * (reach - 10), cy + dy * (reach - 10)
        px, py = -dy * 5, dx * 5
        parts.append('<path d="M%.1f %.1f L%.1f %.1f L%.1f %.1f z" fill="%s"/>'
                     % (tx, ty, bx + px, by + py, bx - px, by - py, stroke))
    parts.append("</g>")
    # Text and crystals stay upright.
    claws = info.get("claws", 0)
    parts.append('<text x="%.1f" y="%.1f" font-size="11" text-anchor="middle" fill="#222">%s</text>'
                 % (cx, y + 24, escape(tile_label(name))))
    parts.append('<text x="%.1f" y="%.1f" font-size="15" font-weight="bold" text-anchor="middle" '
                 'fill="%s"><title>%s</title>%s</text>'
                 % (cx - 10, cy + 8, stroke, escape(_("claws")), claws))
    gems = info.get("sanity", 0)
    for i in range(gems):
        parts.append('<circle cx="%.1f" cy="%.1f" r="3" fill="#2a9d8f" stroke="#114"><title>%s</title>'
                     '</circle>' % (cx + 6 + (i % 2) * 8, cy + 2 + (i // 2) * 8,
                                    escape(_("sanity %(n)s") % {"n": gems})))
    parts.append(_crystals(x + 16, y + CELL - 16, cell.get("energy", 0), cell.get("spirit", 0), 5))
    parts.append("</g>")
    return "".join(parts)


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
    parts = ['<svg class="board maatatahay-board" viewBox="%d %d %d %d" role="group" '
             'xmlns="http://www.w3.org/2000/svg" aria-label="%s"><title>%s</title>'
             % (-pad, -4, size + pad + 4, size + pad + 8, escape(_("Maatatahay map")),
                escape(_("Maatatahay map")))]
    for rank in range(1, 6):
        for file in FILES:
            sq = "%s%d" % (file, rank)
            x, y = _xy(sq, flip)
            name = sq
            cell = view.get("board", {}).get(sq)
            if cell:
                name = "%s, %s %s" % (sq, tribe_label(cell.get("tribe", "")), tile_label(cell.get("tile", "")))
                if not cell.get("alive", True):
                    name = "%s (%s)" % (name, _("dead"))
            if sq in last:
                name = _("%(square)s, last move") % {"square": name}
            parts.append('<rect class="space%s" data-square="%s" x="%d" y="%d" width="%d" height="%d" '
                         'fill="%s" stroke="#7a6a4f" stroke-width="1" role="img" aria-label="%s">'
                         '<title>%s</title></rect>'
                         % (" last-move" if sq in last else "", sq, x, y, CELL, CELL,
                            REGION.get(region.get(sq, "barren")), escape(name), escape(name)))
            if sq in niches:
                parts.append('<circle cx="%d" cy="%d" r="9" fill="none" stroke="#7a6a4f" '
                             'stroke-dasharray="3 2" pointer-events="none"><title>%s</title></circle>'
                             % (x + CELL - 13, y + 13, escape(_("Crystal Niche"))))
            if sq in map_arrows:
                parts.append('<g pointer-events="none"><title>%s</title>'
                             '<path d="M%d %d l10 6 l-10 6 z" fill="#b5651d"/></g>'
                             % (escape(_("Map arrow: +%(n)s crystal") % {"n": map_arrows[sq]}),
                                x + 4, y + 4))
            if sq in relics:
                colour = "#c9a227" if sq != pending else "#e76f51"
                parts.append('<g class="shrine" pointer-events="none"><title>%s</title>'
                             '<path d="M%d %d l18 -14 l18 14 z M%d %d h28 v16 h-28 z" fill="%s" '
                             'stroke="#5a4a1a"/></g>'
                             % (escape(_("Shrine with its relic")), x + 22, y + 36, x + 26, y + 36,
                                colour))
    for sq, crystals in view.get("ground", {}).items():
        x, y = _xy(sq, flip)
        if sq not in view.get("board", {}):
            parts.append('<g pointer-events="none">%s</g>'
                         % _crystals(x + 12, y + CELL - 14, crystals.get("energy", 0),
                                     crystals.get("spirit", 0)))
    for sq, cell in sorted(view.get("board", {}).items()):
        parts.append(_tile(sq, cell, data, flip))
    if pending:
        x, y = _xy(pending, flip)
        parts.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#e76f51" '
                     'stroke-width="4" stroke-dasharray="6 4" pointer-events="none"/>'
                     % (x + 2, y + 2, CELL - 4, CELL - 4))
    for file in FILES:
        x, _y = _xy("%s1" % file, flip)
        parts.append('<text x="%d" y="%d" font-size="12" text-anchor="middle" fill="#555">%s</text>'
                     % (x + CELL // 2, size + 14, file))
    for rank in range(1, 6):
        _x, y = _xy("a%d" % rank, flip)
        parts.append('<text x="%d" y="%d" font-size="12" text-anchor="middle" fill="#555">%d</text>'
                     % (-9, y + CELL // 2 + 4, rank))
    parts.append("</svg>")
    return mark_safe("".join(parts))


def _mini_tile(name: str, tribe: str, data: dict[str, Any], x: int, y: int) -> str:
    stroke, fill = TRIBE.get(tribe, TRIBE[BALAN])
    info = data.get("tiles", {}).get(name, {})
    return ('<g class="mini-tile"><title>%s %s: %s %s, %s %s</title>'
            '<rect x="%d" y="%d" width="64" height="30" rx="5" fill="%s" stroke="%s" stroke-width="2"/>'
            '<text x="%d" y="%d" font-size="10" text-anchor="middle" fill="#222">%s</text>'
            '<text x="%d" y="%d" font-size="9" text-anchor="middle" fill="%s">%s</text></g>'
            % (escape(tribe_label(tribe)), escape(tile_label(name)), info.get("claws", 0),
               escape(_("claws")), info.get("sanity", 0), escape(_("sanity")),
               x, y, fill, stroke, x + 32, y + 13, escape(tile_label(name)),
               x + 32, y + 25, stroke, "⚔%s ◆%s" % (info.get("claws", 0), info.get("sanity", 0))))


def extras_svg(view: dict[str, Any], *, flip: bool = False) -> SafeString:
    """Spirit Track, relic tracks and storages, the Tile Stream and the bag."""
    data = component_table(view)
    limit = int(data.get("spirit_track", 6))
    track = int(view.get("track", 0))
    top, bottom = (BALAN, WAZU) if flip else (WAZU, BALAN)
    width = 5 * CELL + 22
    parts = ['<div class="maatatahay-extras">']

    # Spirit Track
    svg = ['<svg class="spirit-track" viewBox="0 0 %d 44" xmlns="http://www.w3.org/2000/svg" '
           'role="img" aria-label="%s">' % (width, escape(_("Spirit Track: %(n)s of %(limit)s") %
                                                      {"n": track, "limit": limit}))]
    svg.append('<text x="0" y="14" font-size="12" fill="#333">%s</text>' % escape(_("Spirit Track")))
    for i in range(max(limit, track)):
        filled = i < track
        svg.append('<rect x="%d" y="20" width="28" height="20" rx="4" fill="%s" stroke="#555"/>'
                   % (i * 34, "#6d597a" if filled else "#fff"))
        svg.append('<text x="%d" y="35" font-size="11" text-anchor="middle" fill="%s">%d</text>'
                   % (i * 34 + 14, "#fff" if filled else "#555", i + 1))
    svg.append("</svg>")
    parts.append("".join(svg))

    # Relic tracks and storages, one line per tribe
    taken = view.get("taken", [])
    scores = view.get("scores") or {}
    for tribe in (top, bottom):
        stroke, fill = TRIBE[tribe]
        storage = view.get("storage", {}).get(tribe, {})
        mine = [(i + 1, t["square"]) for i, t in enumerate(taken) if t.get("tribe") == tribe]
        svg = ['<svg class="tribe-line tribe-%s" viewBox="0 0 %d 40" xmlns="http://www.w3.org/2000/svg" '
               'role="img" aria-label="%s">' % (tribe, width, escape(tribe_label(tribe)))]
        marker = " ●" if view.get("to_move") == tribe else ""
        svg.append('<text x="0" y="24" font-size="13" font-weight="bold" fill="%s">%s%s</text>'
                   % (stroke, escape(tribe_label(tribe)), marker))
        if tribe in scores:
            svg.append('<text x="70" y="24" font-size="12" fill="#333">%s</text>'
                       % escape(_("score %(n)s") % {"n": scores[tribe]}))
        svg.append('<text x="140" y="24" font-size="11" fill="#333">%s</text>' % escape(_("storage")))
        svg.append(_crystals(190, 20, storage.get("energy", 0), storage.get("spirit", 0)))
        svg.append('<text x="270" y="24" font-size="11" fill="#333">%s</text>' % escape(_("relics")))
        for j, (order, square) in enumerate(mine):
            svg.append('<g><title>%s</title><path d="M%d 30 l10 -12 l10 12 z" fill="#c9a227" '
                       'stroke="#5a4a1a"/><text x="%d" y="38" font-size="8" text-anchor="middle">%s</text></g>'
                       % (escape(_("relic from %(square)s, taken %(n)s.") % {"square": square, "n": order}),
                          310 + j * 24, 320 + j * 24, order))
        svg.append("</svg>")
        parts.append("".join(svg))

    # Tile Stream, picked pair, bag
    stream = view.get("stream", [])
    pair = view.get("pair")
    rows = len(stream) + (1 if pair else 0)
    svg = ['<svg class="tile-stream" viewBox="0 0 %d %d" xmlns="http://www.w3.org/2000/svg" role="img" '
           'aria-label="%s">' % (width, 24 + max(rows, 1) * 36 + 24, escape(_("Tile Stream")))]
    svg.append('<text x="0" y="14" font-size="12" fill="#333">%s</text>' % escape(_("Tile Stream")))
    y = 22
    for i, p in enumerate(stream):
        svg.append('<text x="0" y="%d" font-size="11" fill="#555">%d</text>' % (y + 19, i + 1))
        svg.append(_mini_tile(p.get(WAZU, ""), WAZU, data, 14, y))
        svg.append(_mini_tile(p.get(BALAN, ""), BALAN, data, 84, y))
        y += 36
    if pair:
        svg.append('<text x="0" y="%d" font-size="11" fill="#333">%s</text>' % (y + 19, escape(_("picked"))))
        svg.append(_mini_tile(pair.get(WAZU, ""), WAZU, data, 44, y))
        svg.append(_mini_tile(pair.get(BALAN, ""), BALAN, data, 114, y))
        y += 36
    bag = view.get("bag") or {}
    favour = view.get("favour") or []
    text = _("bag: %(e)s energy, %(s)s spirit") % {"e": bag.get("energy", 0), "s": bag.get("spirit", 0)}
    if favour:
        text += " · " + _("favour drawn: %(list)s") % {"list": ", ".join(favour)}
    svg.append('<text x="0" y="%d" font-size="11" fill="#333">%s · %s</text>'
               % (y + 16, escape(text), escape(_("round %(n)s") % {"n": view.get("round", 1)})))
    svg.append("</svg>")
    parts.append("".join(svg))
    parts.append("</div>")
    return mark_safe("".join(parts))
