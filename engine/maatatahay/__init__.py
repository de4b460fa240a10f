"""Maatatahay, both the First Game and the Standard Game, as a pure rules engine.

``RULES`` implements ``engine.core.GameRules``; the reading of the rules is
``shared/rules/maatatahay-rulings.md`` and the provisional component data is
the one table in ``engine/maatatahay/data.py`` (every published version is
kept; a game records and replays with its own).

>>> from engine.maatatahay import RULES
>>> s = RULES.new_game(7, {"variant": "first", "opening": 2})
>>> RULES.to_move(s) in ("balan", "wazu"), RULES.move_text(RULES.legal_moves(s)[0])[:5]
(True, 'pick ')
>>> v = RULES.view(s, "balan")
>>> "piles" in v, v["bag"]["energy"] + v["bag"]["spirit"]
(False, 14)

For bots: ``view(state, player)`` is all a bot may look at;
``sample_state(view, stream)`` turns it into a full state with a guessed
hidden order, on which ``legal_moves``/``apply``/``random_move`` work exactly
as on the real one. ``random_move`` is uniform over ``legal_moves`` without
listing them (``move_count``/``move_at``). ``scores(state)`` gives the score
so far.
``move_parts(move)`` is a move's structure as data (its kind under ``"type"``
and its fields by name: square, rotation, crystals put or paid, order ...),
exactly what its move text holds.

Module layout: ``data`` (component table), ``board`` (compiled geometry),
``state`` (the State value), ``setup`` (seed -> first state, documented
draws, ``reveal``), ``moves`` (moves and move text), ``rules`` (legality,
settlement, scoring), ``preview`` (what each legal decision would do, from
the public table), ``serial`` (JSON, view, sampling, summary).

Open cases (what the rulings leave open, decided here, each in one place):

1. Tie with equal scores, equal surviving warriors and no relic taken at
   all: a draw, reason ``"tie"`` (``rules.winner``).
2. A game ended by the site (``terminate``) reports the scores the board
   gives at that moment.
3. The Spirit Track counts every death at the end of the round, so it may
   pass 6; the game ends when it reaches 6 or more (``rules._end_round``).
4. The Shrine's favour draws fewer than 2 crystals when the bag holds fewer
   (never with the provisional data: at most 5 Shrines, 10 draws).
5. A relic counts as taken (and for "latest relic") at the ``shrine`` move,
   before ``finish``; ``finish`` is always the same player's next decision.
6. Crystals lying on a Shrine square would be taken at ``finish``; no setup
   puts any there (relic niches get no crystal, the draft takes them).
7. Draft: the 3-crystal cap counts crystals of both kinds; a space is
   refused in the draft if it would pass the cap. Were no space legal (not
   possible with the provisional map), the draft would have no move.
8. ``parse_move`` accepts equivalent texts and returns the canonical move:
   a rotation with the same arrows (``r2`` for a tile without arrows is
   ``r0``), an order listing every candidate once in any order (replaced by
   the smallest order giving the same result, or dropped where the order
   cannot matter), zero counts (``put 0e`` = no put). An order naming a
   square that is not a candidate, or missing one, is refused. ``apply``
   takes only canonical moves (exactly those ``legal_moves`` lists).
9. ``first`` is offered as a decision even when one choice looks dominated;
   both choices are distinct results.
10. The option ``opening`` belongs to the First Game; giving it with the
    Standard Game is an OptionsError.
11. When the Hot Tile dies, the Energy it got from arrows and storage and
    every Spirit Crystal on it (moved or looted) go to the supply; the
    placer's storage keeps what was not moved.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import GameMove, GameRules, GameState, MoveParts, MovePreview, Outcome
from ..errors import IllegalMoveError, MoveSyntaxError
from ..fair import SeedStream
from . import preview as _preview
from . import rules as _r
from . import serial as _s
from . import setup as _setup
from .board import PLAYERS, tables
from .data import CURRENT, VERSIONS
from .moves import MOVE_TYPES, Draft, Finish, First, Move, Pick, Place, Shrine, move_parts, move_text, read_move
from .state import State


class MaatatahayRules:
    """The Maatatahay implementation of ``engine.core.GameRules``."""

    name = "maatatahay"
    players = PLAYERS
    hidden_information = True

    def normalize_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """``{"variant": "first"|"standard", "opening": 1..4|None}``; OptionsError otherwise."""
        return _setup.normalize_options(options)

    def new_game(
        self, seed: int, options: Mapping[str, Any] | None = None, *, data_version: str | None = None
    ) -> State:
        """The state before the first decision (see ``setup`` for the draws)."""
        return _setup.new_game(seed, options, data_version=data_version)

    def data_version(self, state: GameState) -> str:
        return _own(state).data_version

    def to_move(self, state: GameState) -> str | None:
        """The player taking the next decision, None once the game is over."""
        state = _own(state)
        return None if state.turn is None else PLAYERS[state.turn]

    def decision(self, state: State) -> str:
        """The kind of decision due: draft, pick, first, place, finish or over."""
        return state.phase

    def legal_moves(self, state: GameState) -> list[Move]:
        """Every legal decision, each with a distinct result, in a fixed order."""
        state = _own(state)
        return _r.legal_moves(state)

    def move_count(self, state: State) -> int:
        """``len(legal_moves(state))`` without listing them."""
        return _r.move_count(state)

    def move_at(self, state: State, index: int) -> Move:
        """The ``index``-th move of the counting order (same set as ``legal_moves``)."""
        return _r.move_at(state, index)

    def apply(self, state: GameState, move: GameMove) -> State:
        """The state after a legal (canonical) move; IllegalMoveError otherwise."""
        state = _own(state)
        return _r.apply(state, _own_move(move))

    def parse_move(self, state: GameState, text: str) -> Move:
        """Read move text into the canonical legal move.

        MoveSyntaxError when malformed (unknown word, square, tile, bad
        counts), IllegalMoveError when it cannot be played now.

        >>> s = RULES.new_game(1, {"opening": 1})
        >>> text = RULES.move_text(RULES.legal_moves(s)[0])
        >>> RULES.parse_move(s, "  " + text.upper()) == RULES.legal_moves(s)[0]
        True
        """
        state = _own(state)
        move = read_move(text)
        t = state.t
        for sq in _squares_of(move):
            if sq not in t.index:
                raise MoveSyntaxError(
                    "bad_move_text", "There is no square %s on the map" % sq, text=text, reason="square", square=sq
                )
        if isinstance(move, Pick):
            for tile in (move.wazu, move.balan):
                if tile not in t.kind_index:
                    raise MoveSyntaxError(
                        "bad_move_text", "There is no warrior called %s" % tile, text=text, reason="tile", tile=tile
                    )
        move = _r.normalize(state, move)
        _r.apply(state, move)
        return move

    def move_text(self, move: GameMove) -> str:
        """Canonical move text of ``move``."""
        return move_text(_own_move(move))

    def move_parts(self, move: GameMove) -> MoveParts:
        """The move's kind under ``"type"`` (``pick``, ``first``, ``draft``, ``place``,
        ``shrine``, ``finish``) and its fields by their names in ``moves``: ``wazu``,
        ``balan``, ``player``, ``square``, ``rotation``, ``put_energy``, ``put_spirit``,
        ``pay_energy``, ``pay_spirit``, ``order`` (a list of squares)."""
        return move_parts(_own_move(move))

    def outcome(self, state: GameState) -> Outcome | None:
        """How the game ended (winner, reason, scores), or None while it runs."""
        state = _own(state)
        if state.phase != "over":
            return None
        sc = _r.scores(state)
        if state.ended is not None:
            w, reason = state.ended
        else:
            w, reason, _ = _r.winner(state)
        return Outcome(None if w is None else PLAYERS[w], reason, {PLAYERS[0]: sc[0], PLAYERS[1]: sc[1]})

    def terminate(self, state: GameState, *, reason: str, winner: str | None) -> State:
        """End a running game by a site decision (resign, timeout, agreement)."""
        state = _own(state)
        if state.phase == "over":
            raise IllegalMoveError("game_over", "The game is over", phase=state.phase)
        if not isinstance(reason, str) or not reason:
            raise IllegalMoveError("bad_reason", "An ending needs a reason", reason=str(reason))
        if winner is not None and winner not in PLAYERS:
            raise IllegalMoveError("no_such_player", "There is no player %s" % winner, player=str(winner))
        new = state.copy()
        new.phase = "over"
        new.turn = None
        new.pending = -1  # a Shrine's finish left undone stays undone (a pending Shrine is the finish phase's)
        new.ended = (None if winner is None else PLAYERS.index(winner), reason)
        return new

    def to_json(self, state: GameState) -> dict[str, Any]:
        """The full state, schema ``maatatahay/1`` (server side: holds the hidden order)."""
        state = _own(state)
        return _s.to_json(state)

    def from_json(self, data: Mapping[str, Any]) -> State:
        """Inverse of ``to_json``; StateFormatError on invalid data."""
        return _s.from_json(data)

    def view(self, state: GameState, player: str | None) -> dict[str, Any]:
        """What a player or spectator sees (schema ``maatatahay-view/1``), never the order."""
        state = _own(state)
        return _s.view(state, player)

    def sample_state(self, view: Mapping[str, Any], stream: SeedStream) -> State:
        """A full state consistent with ``view``, the unknown order drawn from ``stream``."""
        return _s.sample_state(view, stream)

    def reveal(self, seed: int, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Everything the seed decides (start, opening, relics, niches, piles, bag)."""
        return _setup.reveal(seed, options)

    def summary(self, state: GameState) -> str:
        """A short text picture of the table."""
        state = _own(state)
        return _s.summary(state)

    def result_line(self, state: GameState) -> str:
        """``result: balan 24-18`` / ``result: draw 20-20`` / ``result: unfinished``."""
        state = _own(state)
        out = self.outcome(state)
        if out is None:
            return "result: unfinished"
        assert out.scores is not None
        return "result: %s %d-%d" % (out.winner or "draw", out.scores["balan"], out.scores["wazu"])

    def random_move(self, state: GameState, stream: SeedStream) -> Move:
        """A uniformly random legal move (one ``stream.below`` per call)."""
        state = _own(state)
        return _r.random_move(state, stream)

    def move_previews(self, state: GameState) -> list[MovePreview]:
        """What each legal decision would do, from the public table only (the keys are
        documented in ``engine.maatatahay.preview``): for a placement the Hot Tile's
        Strength with its support, the crystals it collects, the warriors that die ...;
        one preview per distinct settlement result, as ``legal_moves`` lists them."""
        state = _own(state)
        return [MovePreview(move, effects) for move, effects in _preview.previews(state)]

    def move_previews_at(self, state: GameState, square: str | None) -> list[MovePreview]:
        """``move_previews`` of the decisions on ``square`` (None: those on no square), and
        only those computed: a placement's other spaces are not settled at all."""
        state = _own(state)
        return [MovePreview(move, effects) for move, effects in _preview.previews_at(state, square)]

    def scores(self, state: State) -> dict[str, int]:
        """The score of each player so far (final once the game is over)."""
        sc = _r.scores(state)
        return {PLAYERS[0]: sc[0], PLAYERS[1]: sc[1]}

    def data_versions(self) -> list[str]:
        """Every published component-data version, oldest first."""
        return list(VERSIONS)


def _own(state: GameState) -> State:
    """``state`` as a Maatatahay state; a TypeError for another game's state."""
    if not isinstance(state, State):
        raise TypeError("not a Maatatahay state: %s" % type(state).__name__)
    return state


def _own_move(move: GameMove) -> Move:
    """``move`` as a Maatatahay move; IllegalMoveError for anything else (as Onitama)."""
    if not isinstance(move, MOVE_TYPES):
        raise IllegalMoveError("bad_move", "Not a move: %r" % (move,))
    return move


def _squares_of(move: Move) -> list[str]:
    if isinstance(move, (Place, Shrine, Draft)):
        out = [move.square]
    else:
        out = []
    if isinstance(move, (Place, Finish)):
        out.extend(move.order)
    return out


RULES = MaatatahayRules()
_CONTRACT: GameRules = RULES  # the type checker proves here that Maatatahay implements the contract

__all__ = [
    "RULES",
    "MaatatahayRules",
    "State",
    "Move",
    "Pick",
    "First",
    "Draft",
    "Place",
    "Shrine",
    "Finish",
    "CURRENT",
    "VERSIONS",
    "tables",
]
