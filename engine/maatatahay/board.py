"""Geometry and per-version lookup tables compiled from the component data.

Squares are numbered ``index = file * ranks + (rank - 1)``: a1=0, a2=1, ..,
a5=4, b1=5, .., e5=24, so numeric order is the text order of square names.
Sets of squares are int bitmasks (bit ``index``). Directions are (file step,
rank step); rank 5 is "up". A rotation turns a tile a quarter turn clockwise
(seen with rank 5 at the top): N -> E -> S -> W.

>>> t = tables("2026-11")
>>> t.names[0], t.names[24], t.index["c3"]
('a1', 'e5', 12)
>>> [t.names[i] for i in t.orth_list[t.index["a1"]]]
['a2', 'b1']
>>> t.rotations[t.kind_index["berserk"]], t.rotations[t.kind_index["rookie"]]
((0,), (0, 1, 2, 3))
"""

from __future__ import annotations

from functools import cache
from typing import Any

from .data import table

DIRECTIONS: dict[str, tuple[int, int]] = {
    "N": (0, 1),
    "NE": (1, 1),
    "E": (1, 0),
    "SE": (1, -1),
    "S": (0, -1),
    "SW": (-1, -1),
    "W": (-1, 0),
    "NW": (-1, 1),
}

BALAN, WAZU = 0, 1
PLAYERS = ("balan", "wazu")
CRYSTALS = ("energy", "spirit")  # crystal codes: 0 energy, 1 spirit

# Positions inside a cell tuple (owner, kind, rotation, alive, energy, spirit).
OWNER, KIND, ROT, ALIVE, EN, SP = 0, 1, 2, 3, 4, 5


def turn(vector: tuple[int, int], quarter_turns: int) -> tuple[int, int]:
    """``vector`` turned ``quarter_turns`` quarter turns clockwise."""
    dx, dy = vector
    for _ in range(quarter_turns % 4):
        dx, dy = dy, -dx
    return dx, dy


class Tables:
    """Everything derived from one component-data version (built once, cached)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.version: str = data["version"]
        m = data["map"]
        self.files: str = m["files"]
        self.ranks: int = m["ranks"]
        nf, nr = len(self.files), self.ranks
        self.size = nf * nr
        self.full = (1 << self.size) - 1
        self.names = tuple(f + str(r) for f in self.files for r in range(1, nr + 1))
        self.index = {name: i for i, name in enumerate(self.names)}
        coords = [(i // nr, i % nr) for i in range(self.size)]

        def at(x: int, y: int) -> int | None:
            return x * nr + y if 0 <= x < nf and 0 <= y < nr else None

        def around(i: int, steps: list[tuple[int, int]]) -> tuple[int, ...]:
            x, y = coords[i]
            found = [at(x + dx, y + dy) for dx, dy in steps]
            return tuple(sorted(j for j in found if j is not None))

        orth_steps = [(0, 1), (1, 0), (0, -1), (-1, 0)]
        diag_steps = [(1, 1), (1, -1), (-1, -1), (-1, 1)]
        self.orth_list = tuple(around(i, orth_steps) for i in range(self.size))
        self.diag_list = tuple(around(i, diag_steps) for i in range(self.size))
        self.ring_list = tuple(around(i, orth_steps + diag_steps) for i in range(self.size))
        self.orth = tuple(_mask(x) for x in self.orth_list)
        self.diag = tuple(_mask(x) for x in self.diag_list)
        self.niches = _mask(self.index[s] for s in m["niches"])
        self.niche_list = tuple(i for i in range(self.size) if self.niches >> i & 1)
        arrows = [0] * self.size
        for square, count in m["arrows"].items():
            arrows[self.index[square]] = int(count)
        self.map_arrows = tuple(arrows)

        tiles = data["tiles"]
        self.kinds = tuple(tiles)
        self.kind_index = {k: i for i, k in enumerate(self.kinds)}
        self.claws = tuple(int(tiles[k]["claws"]) for k in self.kinds)
        self.sanity = tuple(int(tiles[k]["sanity"]) for k in self.kinds)
        self.counts = tuple(int(tiles[k]["count"]) for k in self.kinds)
        self.tiles_per_tribe = sum(self.counts)
        # ability per kind: None or (adjacency masks, counts enemies?, cap)
        abilities: list[tuple[tuple[int, ...], bool, int] | None] = []
        for k in self.kinds:
            ab = tiles[k].get("ability")
            if not ab:
                abilities.append(None)
                continue
            masks = self.orth if ab["adjacency"] == "orthogonal" else self.diag
            abilities.append((masks, ab["counts"] == "enemy", int(ab["max"])))
        self.ability = tuple(abilities)

        # rotations: canonical (smallest) rotation with each arrow layout
        canon: list[tuple[int, ...]] = []
        classes: list[tuple[int, ...]] = []
        targets: list[tuple[tuple[int, ...], ...]] = []
        for k in self.kinds:
            vecs = [DIRECTIONS[d] for d in tiles[k]["arrows"]]
            layouts = [frozenset(turn(v, r) for v in vecs) for r in range(4)]
            c = tuple(layouts.index(layouts[r]) for r in range(4))
            canon.append(c)
            classes.append(tuple(sorted(set(c))))
            per_rot = []
            for r in range(4):
                per_sq = []
                for i in range(self.size):
                    x, y = coords[i]
                    per_sq.append(_mask(j for j in (at(x + dx, y + dy) for dx, dy in layouts[r]) if j is not None))
                per_rot.append(tuple(per_sq))
            targets.append(tuple(per_rot))
        self.canonical_rotation = tuple(canon)
        self.rotations = tuple(classes)
        # arrow_targets[kind][rot][square]: mask of squares its arrows point at
        self.arrow_targets = tuple(targets)

        self.storage_limit = int(data["storage_limit"])
        self.spirit_track = int(data["spirit_track"])
        sh = data["shrine"]
        self.shrine_base = int(sh["base_cost"])
        self.shrine_min = int(sh["min_cost"])
        self.shrine_min_spirit = int(sh["min_spirit"])
        self.favour = int(sh["favour"])
        self._puts: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}

    def puts(self, energy: int, spirit: int) -> tuple[tuple[int, int], ...]:
        """Every (energy, spirit) that may be moved from a storage holding
        ``energy``/``spirit`` onto the Hot Tile so that at most the storage
        limit stays, in increasing order."""
        key = (energy, spirit)
        found = self._puts.get(key)
        if found is None:
            limit = self.storage_limit
            found = tuple(
                (e, s) for e in range(energy + 1) for s in range(spirit + 1) if (energy - e) + (spirit - s) <= limit
            )
            self._puts[key] = found
        return found

    def shrine_cost(self, occupied: int, square: int) -> int:
        """Crystals to pay at the Shrine on ``square`` given the occupied mask."""
        return max(self.shrine_min, self.shrine_base - (self.orth[square] & occupied).bit_count())


def _mask(indices: Any) -> int:
    m = 0
    for i in indices:
        m |= 1 << i
    return m


@cache
def tables(version: str) -> Tables:
    """The compiled tables of a data version (cached; OptionsError if unknown)."""
    return Tables(table(version))


def bits(mask: int) -> list[int]:
    """Indices of the set bits of ``mask``, increasing."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
