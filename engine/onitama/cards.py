"""Card data of Onitama and the precomputed move tables built from it.

The 32 cards (16 base, 16 Sensei's Path) are read once, at import, from
``cards.json`` beside this module (a copy of the shared rulings' card file:
offsets from the holder's point of view and stamp colours).

Cards are numbered 0..31 in alphabetical order of their names over both pools,
so sorting card ids sorts card names. Squares are numbered
``file + 5 * rank`` with a1 = 0, e1 = 4, a5 = 20, e5 = 24; a set of squares is
a 25-bit int (bit ``i`` set for square ``i``).

``DEST[colour][card][square]`` is the set of squares a piece of ``colour``
(0 red, 1 blue) on ``square`` reaches with ``card``, own pieces not yet
removed. Blue's offsets are Red's rotated by 180 degrees.

>>> square_name(CENTRE), square_index("c5") == BLUE_ARCH
('c3', True)
>>> sorted(square_name(s) for s in squares_of(DEST[RED][CARD_ID["tiger"]][square_index("c1")]))
['c3']
>>> sorted(square_name(s) for s in squares_of(DEST[BLUE][CARD_ID["tiger"]][square_index("c5")]))
['c3']
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import resources
from typing import Any

DATA_VERSION = "onitama-1"
"""Version of the card data (``cards.json``) that states and game records name."""

RED, BLUE = 0, 1
COLOURS = ("red", "blue")
SIZE = 5
FULL = (1 << 25) - 1
RED_ARCH = 2  # c1: Red's master starts here; Blue's master wins on it
BLUE_ARCH = 22  # c5: Blue's master starts here; Red's master wins on it
CENTRE = 12  # c3
ARCH = (RED_ARCH, BLUE_ARCH)
ENEMY_ARCH = (BLUE_ARCH, RED_ARCH)  # indexed by the colour of the moving master

FILES = "abcde"
SQUARE_NAMES = tuple(FILES[i % 5] + str(i // 5 + 1) for i in range(25))
_SQUARE_INDEX = {name: i for i, name in enumerate(SQUARE_NAMES)}


def square_name(index: int) -> str:
    """``0 -> 'a1'``, ``24 -> 'e5'``."""
    return SQUARE_NAMES[index]


def square_index(name: str) -> int:
    """``'a1' -> 0``, ``'e5' -> 24``; KeyError for anything else."""
    return _SQUARE_INDEX[name]


def squares_of(mask: int) -> Iterator[int]:
    """The square indices of a 25-bit set, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _load() -> dict[str, Any]:
    with resources.files(__package__).joinpath("cards.json").open(encoding="utf-8") as handle:
        cards: dict[str, Any] = json.load(handle)
    return cards


_DATA = _load()
POOL_NAMES = ("base", "senseis_path")
POOLS: dict[str, tuple[str, ...]] = {
    "base": tuple(sorted(_DATA["base"])),
    "senseis_path": tuple(sorted(_DATA["senseis_path"])),
}
POOLS["mixed"] = tuple(sorted(POOLS["base"] + POOLS["senseis_path"]))

CARD_NAMES: tuple[str, ...] = POOLS["mixed"]
CARD_ID: dict[str, int] = {name: i for i, name in enumerate(CARD_NAMES)}
_ALL = {**_DATA["base"], **_DATA["senseis_path"]}
OFFSETS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((int(dx), int(dy)) for dx, dy in _ALL[name]["moves"]) for name in CARD_NAMES
)
"""Per card id: its (dx, dy) offsets from the holder's point of view, as in the card file."""
STAMP: tuple[int, ...] = tuple(COLOURS.index(_ALL[name]["stamp"]) for name in CARD_NAMES)
"""Per card id: the colour (0 red, 1 blue) of its stamp."""


def _destinations(colour: int, card: int, square: int) -> int:
    sign = 1 if colour == RED else -1
    x, y = square % 5, square // 5
    mask = 0
    for dx, dy in OFFSETS[card]:
        tx, ty = x + sign * dx, y + sign * dy
        if 0 <= tx < SIZE and 0 <= ty < SIZE:
            mask |= 1 << (tx + 5 * ty)
    return mask


DEST: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(_destinations(colour, card, sq) for sq in range(25)) for card in range(len(CARD_NAMES)))
    for colour in (RED, BLUE)
)
