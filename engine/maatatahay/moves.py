"""Maatatahay moves (one per decision) and their move text.

Moves are frozen dataclasses: hashable, comparable within a kind. Squares and
tiles are held as their text names, crystals as counts per kind.

>>> m = Place("c3", 1, 2, 1, ("b2", "c4"))
>>> move_text(m)
'place c3 r1 put 2e1s order b2,c4'
>>> read_move("place c3 r1 put 2e1s order b2,c4") == m
True
>>> move_text(read_move("shrine d4 pay 2e1s")), move_text(Finish(0, 0, 1))
('shrine d4 pay 2e1s', 'finish r0 put 1s')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core import MoveParts
from ..errors import MoveSyntaxError

_PLAYER_NAMES = ("balan", "wazu")


@dataclass(frozen=True, order=True, slots=True)
class Pick:
    """The active player takes the pair (Wazu tile, Balan tile) from the stream."""

    wazu: str
    balan: str


@dataclass(frozen=True, order=True, slots=True)
class First:
    """The chooser names the player who places first this round."""

    player: str


@dataclass(frozen=True, order=True, slots=True)
class Draft:
    """Standard Game: place one relic of the draft on ``square``."""

    square: str


@dataclass(frozen=True, order=True, slots=True)
class Place:
    """Place on a free space: rotation, crystals moved onto the Hot Tile, settlement order."""

    square: str
    rotation: int
    put_energy: int = 0
    put_spirit: int = 0
    order: tuple[str, ...] = ()


@dataclass(frozen=True, order=True, slots=True)
class Shrine:
    """First half of a Shrine placement: the space and the payment."""

    square: str
    pay_energy: int
    pay_spirit: int


@dataclass(frozen=True, order=True, slots=True)
class Finish:
    """Second half of a Shrine placement (after the favour is drawn)."""

    rotation: int
    put_energy: int = 0
    put_spirit: int = 0
    order: tuple[str, ...] = ()


Move = Pick | First | Draft | Place | Shrine | Finish
MOVE_TYPES = (Pick, First, Draft, Place, Shrine, Finish)


def move_parts(move: Move) -> MoveParts:
    """The move's kind (``"type"``: its class name in lower case) and its fields by name;
    the settlement ``order`` as a list of squares.

    >>> move_parts(Place("c3", 1, 2, 1, ("b2", "c4")))
    {'type': 'place', 'square': 'c3', 'rotation': 1, 'put_energy': 2, 'put_spirit': 1, 'order': ['b2', 'c4']}
    >>> move_parts(Pick("crane", "bear"))
    {'type': 'pick', 'wazu': 'crane', 'balan': 'bear'}
    """
    parts: MoveParts = {"type": type(move).__name__.lower()}
    if isinstance(move, Pick):
        parts.update(wazu=move.wazu, balan=move.balan)
    elif isinstance(move, First):
        parts.update(player=move.player)
    elif isinstance(move, Draft):
        parts.update(square=move.square)
    elif isinstance(move, Shrine):
        parts.update(square=move.square, pay_energy=move.pay_energy, pay_spirit=move.pay_spirit)
    else:
        if isinstance(move, Place):
            parts.update(square=move.square)
        parts.update(
            rotation=move.rotation, put_energy=move.put_energy, put_spirit=move.put_spirit, order=list(move.order)
        )
    return parts


def counts_text(energy: int, spirit: int) -> str:
    """``2e1s``, ``2e``, ``1s`` (zero parts left out; ``0`` never appears alone)."""
    return ("%de" % energy if energy else "") + ("%ds" % spirit if spirit else "")


def _tail(put_e: int, put_s: int, order: tuple[str, ...]) -> str:
    text = ""
    if put_e or put_s:
        text += " put " + counts_text(put_e, put_s)
    if order:
        text += " order " + ",".join(order)
    return text


def move_text(move: Move) -> str:
    """The move text of ``move`` (canonical when ``move`` is a legal move)."""
    if isinstance(move, Place):
        return "place %s r%d%s" % (move.square, move.rotation, _tail(move.put_energy, move.put_spirit, move.order))
    if isinstance(move, Pick):
        return "pick %s/%s" % (move.wazu, move.balan)
    if isinstance(move, First):
        return "first " + move.player
    if isinstance(move, Finish):
        return "finish r%d%s" % (move.rotation, _tail(move.put_energy, move.put_spirit, move.order))
    if isinstance(move, Shrine):
        return "shrine %s pay %s" % (move.square, counts_text(move.pay_energy, move.pay_spirit))
    if isinstance(move, Draft):
        return "draft " + move.square
    raise TypeError("not a Maatatahay move: %r" % (move,))


_SQUARE = re.compile(r"^[a-z][1-9]$")
_COUNTS = re.compile(r"^(?:(\d{1,3})e)?(?:(\d{1,3})s)?$")
_ROT = re.compile(r"^r([0-3])$")


def _bad(text: str, why: str) -> MoveSyntaxError:
    return MoveSyntaxError("bad_move_text", "Cannot read the move %r: %s" % (text, why), text=text, reason=why)


def _square(text: str, word: str) -> str:
    if not _SQUARE.match(word):
        raise _bad(text, "%r is not a square like c3" % word)
    return word


def _counts(text: str, word: str) -> tuple[int, int]:
    m = _COUNTS.match(word)
    if not word or not m:
        raise _bad(text, "%r is not a crystal count like 2e1s" % word)
    return int(m.group(1) or 0), int(m.group(2) or 0)


def _rotation(text: str, word: str) -> int:
    m = _ROT.match(word)
    if not m:
        raise _bad(text, "%r is not a rotation r0..r3" % word)
    return int(m.group(1))


def _put_order(text: str, words: list[str]) -> tuple[int, int, tuple[str, ...]]:
    put_e = put_s = 0
    order: tuple[str, ...] = ()
    i = 0
    if i < len(words) and words[i] == "put":
        if i + 1 >= len(words):
            raise _bad(text, "put needs crystal counts")
        put_e, put_s = _counts(text, words[i + 1])
        i += 2
    if i < len(words) and words[i] == "order":
        if i + 1 >= len(words):
            raise _bad(text, "order needs squares")
        order = tuple(_square(text, w) for w in words[i + 1].split(","))
        i += 2
    if i != len(words):
        raise _bad(text, "unexpected %r" % words[i])
    return put_e, put_s, order


def read_move(text: str) -> Move:
    """Read move text into a move, checking only its form (MoveSyntaxError).

    Names of tiles and players are checked against the fixed vocabulary;
    whether the squares exist on the map and the move is legal is for the
    rules (``RULES.parse_move``).
    """
    if not isinstance(text, str):
        raise MoveSyntaxError("not_text", "A move must be text", value=repr(text))
    words = text.strip().lower().split()
    if not words:
        raise _bad(text, "it is empty")
    verb, rest = words[0], words[1:]
    if verb == "pick":
        if len(rest) != 1 or rest[0].count("/") != 1:
            raise _bad(text, "write pick <wazu tile>/<balan tile>")
        wazu, balan = rest[0].split("/")
        if not (wazu.isalpha() and balan.isalpha()):
            raise _bad(text, "write pick <wazu tile>/<balan tile>")
        return Pick(wazu, balan)
    if verb == "first":
        if len(rest) != 1 or rest[0] not in _PLAYER_NAMES:
            raise _bad(text, "write first balan or first wazu")
        return First(rest[0])
    if verb == "draft":
        if len(rest) != 1:
            raise _bad(text, "write draft <square>")
        return Draft(_square(text, rest[0]))
    if verb == "place":
        if len(rest) < 2:
            raise _bad(text, "write place <square> r<k> [put <counts>] [order <squares>]")
        square, rot = _square(text, rest[0]), _rotation(text, rest[1])
        put_e, put_s, order = _put_order(text, rest[2:])
        return Place(square, rot, put_e, put_s, order)
    if verb == "shrine":
        if len(rest) != 3 or rest[1] != "pay":
            raise _bad(text, "write shrine <square> pay <counts>")
        pay_e, pay_s = _counts(text, rest[2])
        return Shrine(_square(text, rest[0]), pay_e, pay_s)
    if verb == "finish":
        if len(rest) < 1:
            raise _bad(text, "write finish r<k> [put <counts>] [order <squares>]")
        rot = _rotation(text, rest[0])
        put_e, put_s, order = _put_order(text, rest[1:])
        return Finish(rot, put_e, put_s, order)
    raise _bad(text, "unknown word %r" % verb)


__all__ = [
    "Pick",
    "First",
    "Draft",
    "Place",
    "Shrine",
    "Finish",
    "Move",
    "MOVE_TYPES",
    "move_parts",
    "move_text",
    "read_move",
    "counts_text",
]
