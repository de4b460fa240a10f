"""The read side of a game's rules, below both games.selectors and games.services.

The engine's rules object of a game kind, the game's engine state and seed
(unsealed: server side only), and the rules read from them. Reads never depend
on writes: selectors and services both import this module, and it imports
neither of them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import engine
from engine import GameRules, GameState, JSONObject, MoveParts

from .models import Game, GameStatus
from .sealing import unseal


def rules_for(kind: str) -> GameRules:
    """The engine's rules object for a game kind."""
    return engine.get_game(kind)


def game_secret(game: Game) -> tuple[str, int]:
    """(salt hex, seed) of a game. Server side only: never show before the game ends."""
    salt_hex, seed_text = unseal(game.sealed_seed, purpose="seed").split(":")
    return salt_hex, int(seed_text)


def game_state(game: Game) -> GameState:
    """The engine state of a game (server side only)."""
    return rules_for(game.kind).from_json(json.loads(unseal(game.sealed_state, purpose="state")))


def game_can_abort(game: Game, *, moved: set[str] | None = None) -> bool:
    """A game may be aborted while at least one side has not made its first move.
    ``moved``: ``game.sides_moved()`` when the caller has already read the game's moves."""
    if game.status != GameStatus.ACTIVE:
        return False
    if moved is None:
        moved = game.sides_moved()
    return any(side not in moved for side in rules_for(game.kind).players)


def side_other(*, kind: str, side: str) -> str:
    """The opponent's side of ``side`` in a game of ``kind`` (two sides, in seat order)."""
    first, second = rules_for(kind).players
    return second if side == first else first


# The parts of a move that name a square of the board (engine.GameRules.move_parts).
SQUARE_PARTS = ("from", "to", "square")


@dataclass(frozen=True)
class LegalMove:
    """One legal move as the site offers it: its move text and its parts as data
    (``engine.GameRules.move_parts``: Onitama's card, from and to; Maatatahay's square,
    rotation, crystals, order ...), so no page or client reads move text to build a picker.

    ``preview``, when asked for (``legal_moves_of(previews=True)``), is what the move would
    do, as the engine computes it from the public table (``engine.GameRules.move_previews``:
    a capture, the warriors that die, crystals, Strength, score changes ...), so that the
    board shows the result before the player confirms without a rule written again."""

    text: str
    parts: MoveParts
    preview: JSONObject | None = None

    @property
    def squares(self) -> list[str]:
        """The squares the move names (from, to, or the space the decision is about), in
        that order; a settlement order is not among them."""
        return [value for key in SQUARE_PARTS if isinstance(value := self.parts.get(key), str)]


def legal_moves_of(*, kind: str, state: GameState, previews: bool = False) -> list[LegalMove]:
    """Every legal move of ``state`` in the engine's order, with its text and parts, and
    with ``previews`` each one's preview (for the player to move only: it is their choice
    the preview explains; it holds nothing hidden, but nobody else needs it)."""
    rules = rules_for(kind)
    if previews:
        return [
            LegalMove(text=rules.move_text(p.move), parts=rules.move_parts(p.move), preview=p.effects)
            for p in rules.move_previews(state)
        ]
    return [LegalMove(text=rules.move_text(move), parts=rules.move_parts(move)) for move in rules.legal_moves(state)]


def legal_moves_at(*, kind: str, state: GameState, square: str | None) -> list[LegalMove]:
    """The legal moves that name ``square`` (None: those that name none), each with its
    preview, in the engine's order: what the board asks for when a square is chosen, and
    only that computed (``engine.GameRules.move_previews_at``)."""
    rules = rules_for(kind)
    return [
        LegalMove(text=rules.move_text(p.move), parts=rules.move_parts(p.move), preview=p.effects)
        for p in rules.move_previews_at(state, square)
    ]


def move_of_text(*, kind: str, state: GameState, text: str) -> LegalMove:
    """A move already made, read back from its text in the state it was made in (the
    board highlights the last move by its parts). Raises the engine's errors."""
    rules = rules_for(kind)
    move = rules.parse_move(state, text)
    return LegalMove(text=rules.move_text(move), parts=rules.move_parts(move))
