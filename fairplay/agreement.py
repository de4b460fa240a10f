"""Agreement of one side of one finished game with the bot: replay, ask, compare.

The game is replayed from its revealed seed (a game over has shown its seed to
everyone). At each decision of the side, the bot is asked for its first choice in
the position *as that player saw it*: ``rules.view(state, side)``, exactly what the
site gives its own bots (games/bots.py), never the full state with the hidden order
of piles and bag. A position with a single legal move is forced and not counted, nor
are the side's first ``skip_opening`` decisions.

The bot's seed is derived from (game, ply), and the bot's budget (a node or iteration
count, with no time cap) decides its thinking, so a figure can be recomputed exactly
by the same version of the bot (``engine.bots.bot_version``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import engine
from engine.bots import choose_move


@dataclass(frozen=True)
class Agreement:
    decisions: int
    matches: int


def decision_seed(game_id: int, ply: int) -> int:
    """The bot's fixed seed for decision ``ply`` of game ``game_id`` (63 bits)."""
    digest = hashlib.sha256(b"fairplay/%d/%d" % (game_id, ply)).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def replay_agreement(
    *,
    game_id: int,
    kind: str,
    seed: int,
    options: Mapping[str, Any],
    data_version: str,
    moves: Iterable[tuple[int, str, str]],
    side: str,
    level: int,
    skip_opening: int,
) -> Agreement:
    """Count the side's unforced decisions and how many were the bot's first choice.

    ``moves`` are the game's (ply, side, move text) in order. Raises the engine's
    errors (ReplayError, StateFormatError, OptionsError) when the record cannot be
    replayed or the bot refuses its input.
    """
    rules = engine.get_game(kind)
    state = rules.new_game(seed, options, data_version=data_version or None)
    own = decisions = matches = 0
    for ply, mover, text in moves:
        try:
            move = rules.parse_move(state, text)
        except engine.EngineError as error:
            raise engine.ReplayError(ply, error) from error
        if mover == side:
            own += 1
            if own > skip_opening and len(rules.legal_moves(state)) > 1:
                view = rules.view(state, side)
                choice = choose_move(kind, view, level=level, seed=decision_seed(game_id, ply))
                decisions += 1
                if rules.move_text(rules.parse_move(state, choice)) == rules.move_text(move):
                    matches += 1
        state = rules.apply(state, move)
    return Agreement(decisions=decisions, matches=matches)
