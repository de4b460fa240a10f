"""Maatatahay component data: the one declarative, versioned table.

Everything the published texts do not fix (marked [P] in
``shared/rules/maatatahay-rulings.md``: printed arrows and sanity of some
tiles, the niche layout, the map arrows, the four openings) lives here and
only here. The board drawing, the engine and the bots all read this table;
correcting a provisional value is a new entry in ``VERSIONS``, never a code
change. Every game records the version it was played with and is replayed
with it, so published versions are never edited, only added.

Directions are in the tile's own frame (``N`` = the tile's top); see
``engine.maatatahay.board`` for how rotations turn them on the board.

>>> table("2026-11")["tiles"]["rookie"]["arrows"]
['N', 'E']
>>> CURRENT in VERSIONS
True
"""

from __future__ import annotations

import copy
from typing import Any

from ..errors import OptionsError

_PERIPHERY = ["a1", "a2", "a3", "a4", "a5", "b1", "b5", "c1", "c5", "d1", "d5", "e1", "e2", "e3", "e4", "e5"]

V2026_11: dict[str, Any] = {
    "version": "2026-11",
    "map": {
        "files": "abcde",
        "ranks": 5,
        # [P] one crystal niche on each periphery space, none in the Barren area.
        "niches": sorted(_PERIPHERY),
        "barren": ["b2", "b3", "b4", "c2", "c3", "c4", "d2", "d3", "d4"],
        "woods": ["a1", "a2", "a3", "a4", "a5", "e1", "e2", "e3", "e4", "e5"],
        "grassland": ["b1", "c1", "d1", "b5", "c5", "d5"],
        # [P] one supporting arrow pointing into each of these spaces.
        "arrows": {"c2": 1, "b3": 1, "d3": 1, "c4": 1},
    },
    # Both tribes use the same tiles [P]. Order here is the canonical order
    # of the tile list (used by the documented shuffles of the setup).
    "tiles": {
        "bravery": {"title": "Aba", "count": 3, "claws": 2, "sanity": 2, "arrows": ["NW"], "ability": None},
        "rookie": {"title": "Abuk", "count": 2, "claws": 1, "sanity": 2, "arrows": ["N", "E"], "ability": None},
        "elite": {"title": "Abasan", "count": 2, "claws": 3, "sanity": 1, "arrows": ["S"], "ability": None},
        "champion": {"title": "Gizem", "count": 1, "claws": 4, "sanity": 1, "arrows": ["N"], "ability": None},
        "berserk": {"title": "Magizem", "count": 1, "claws": 5, "sanity": 1, "arrows": [], "ability": None},
        "support": {"title": "Maapa", "count": 1, "claws": 0, "sanity": 3, "arrows": ["W", "NW", "S"], "ability": None},
        # Elder: +1 Strength per orthogonally adjacent ally, alive or dead.
        "elder": {
            "title": "Punu",
            "count": 1,
            "claws": 0,
            "sanity": 4,
            "arrows": [],
            "ability": {"counts": "ally", "adjacency": "orthogonal", "max": 4},
        },
        # Convert: +1 Strength per diagonally adjacent enemy, alive or dead.
        "convert": {
            "title": "Papalizi",
            "count": 1,
            "claws": 0,
            "sanity": 4,
            "arrows": [],
            "ability": {"counts": "enemy", "adjacency": "diagonal", "max": 4},
        },
    },
    "storage_limit": 4,
    "spirit_track": 6,
    "shrine": {"base_cost": 4, "min_cost": 1, "min_spirit": 1, "favour": 2},
    "first": {
        "storage": {"energy": 1, "spirit": 1},
        "bag": {"energy": 13, "spirit": 13},
        "supply": {"energy": 30},
        "upper": ["champion", "berserk"],
        "lower": ["convert", "elder"],
        "stream": 3,
        # [P] the four recommended openings.
        "openings": {
            "1": {"name": "Five Peaks", "relics": ["b2", "d2", "c3", "b4", "d4"]},
            "2": {"name": "Crossroads", "relics": ["c1", "a3", "c3", "e3", "c5"]},
            "3": {"name": "Scattered", "relics": ["d1", "a2", "c3", "e4", "b5"]},
            "4": {"name": "Corners", "relics": ["a1", "e1", "c3", "a5", "e5"]},
        },
    },
    "standard": {
        "storage": {"energy": 0, "spirit": 0},
        "bag": {"energy": 15, "spirit": 15},
        "supply": {"energy": 30},
        "stream": 3,
        "relics": 5,
        # who places each relic of the draft: "second" = not the start player
        "draft": ["second", "start", "start", "second", "second"],
        "draft_crystal_cap": 3,
    },
}

VERSIONS: dict[str, dict[str, Any]] = {"2026-11": V2026_11}
CURRENT = "2026-11"


def table(version: str | None = None) -> dict[str, Any]:
    """A copy of the component table of ``version`` (None: the current one).

    Raises OptionsError for a version that was never published.
    """
    name = CURRENT if version is None else version
    if name not in VERSIONS:
        raise OptionsError("unknown_data_version", "Unknown component data version %r" % name, data_version=str(name))
    return copy.deepcopy(VERSIONS[name])


__all__ = ["VERSIONS", "CURRENT", "table"]
