"""The full (server side) Maatatahay state.

A ``State`` is an immutable value by convention: the engine never changes one
after handing it out (``apply`` copies). It holds the hidden order (the
face-down piles and the bag) and must never be shown to players as is: use
``view``. Fields (players are 0 = balan, 1 = wazu; squares are indices, see
``board``):

- ``t``: compiled tables of ``data_version`` (not part of the value);
  ``variant`` "first"|"standard"; ``opening`` 1..4 or None; ``start``: the
  active player of round 1.
- ``phase``: "draft", "pick", "first", "place", "finish" (second half of a
  Shrine placement) or "over"; ``turn``: who decides (None when over);
  ``round`` (1-based); ``active``: holder of the active player token.
- ``cells``: per square None or (owner, kind, rotation, alive, energy, spirit);
  ``own``/``live``: per player bitmasks of its tiles (all / living), derived
  from ``cells`` and kept for speed.
- ``ground``: per square (energy, spirit) crystals lying there; ``relics``:
  bitmask of Shrines still holding a relic; ``storage``: per player (energy,
  spirit); ``taken``: ((player, square), ...) relics in the order taken.
- ``track``: the Spirit Track (deaths counted at the end of each round).
- ``stream``: the face-up pairs (wazu kind, balan kind), sorted; ``pair``: the
  pair picked this round; ``first``: who places first this round; ``placed``:
  placements done this round (0 or 1 while placing).
- ``pending``: the Shrine square between ``shrine`` and ``finish`` (-1 none);
  ``favour``: the crystal kinds drawn there (shown to both).
- ``draft``: Standard Game draft step (0..5); ``draft_got``: crystals each
  player took in the draft.
- ``piles``: per player the kinds still face down, top first (HIDDEN);
  ``bag``: crystal kinds left in the bag in draw order (HIDDEN).
- ``ended``: None, or (winner or None, reason) for a game ended by the site.
"""

from __future__ import annotations

from typing import Any

from ..core import GameState
from .board import Tables

Cell = tuple[int, int, int, bool, int, int]

FIELDS = (
    "t",
    "variant",
    "opening",
    "start",
    "phase",
    "turn",
    "round",
    "active",
    "cells",
    "own",
    "live",
    "ground",
    "relics",
    "storage",
    "taken",
    "track",
    "stream",
    "pair",
    "first",
    "placed",
    "pending",
    "favour",
    "draft",
    "draft_got",
    "piles",
    "bag",
    "ended",
)
_VALUE_FIELDS = FIELDS[1:]


class State(GameState):
    """The complete state of one game (see the module docstring for the fields)."""

    __slots__ = FIELDS + ("data_version",)

    t: Tables
    data_version: str
    variant: str
    opening: int | None
    start: int
    phase: str
    turn: int | None
    round: int
    active: int
    cells: tuple[Cell | None, ...]
    own: tuple[int, int]
    live: tuple[int, int]
    ground: tuple[tuple[int, int], ...]
    relics: int
    storage: tuple[tuple[int, int], tuple[int, int]]
    taken: tuple[tuple[int, int], ...]
    track: int
    stream: tuple[tuple[int, int], ...]
    pair: tuple[int, int] | None
    first: int | None
    placed: int
    pending: int
    favour: tuple[int, ...]
    draft: int
    draft_got: tuple[int, int]
    piles: tuple[tuple[int, ...], tuple[int, ...]]
    bag: tuple[int, ...]
    ended: tuple[int | None, str] | None

    def copy(self) -> State:
        """A shallow copy to build the next state from (only the engine should call this)."""
        new = State.__new__(State)
        new.t = self.t
        new.data_version = self.data_version
        new.variant = self.variant
        new.opening = self.opening
        new.start = self.start
        new.phase = self.phase
        new.turn = self.turn
        new.round = self.round
        new.active = self.active
        new.cells = self.cells
        new.own = self.own
        new.live = self.live
        new.ground = self.ground
        new.relics = self.relics
        new.storage = self.storage
        new.taken = self.taken
        new.track = self.track
        new.stream = self.stream
        new.pair = self.pair
        new.first = self.first
        new.placed = self.placed
        new.pending = self.pending
        new.favour = self.favour
        new.draft = self.draft
        new.draft_got = self.draft_got
        new.piles = self.piles
        new.bag = self.bag
        new.ended = self.ended
        return new

    def key(self) -> tuple[Any, ...]:
        """Everything that makes the state what it is (for equality and hashing)."""
        return (self.data_version,) + tuple(getattr(self, f) for f in _VALUE_FIELDS)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return "<maatatahay State %s round %d phase %s>" % (self.variant, self.round, self.phase)

    @property
    def placer(self) -> int:
        """The player placing now (phases place/finish)."""
        assert self.first is not None
        return self.first if self.placed == 0 else 1 - self.first
