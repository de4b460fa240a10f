"""Post-game analysis: the strongest bot's judgement of every position of a finished game.

``analyse_game`` replays a game's record from its seed and, at every position where a
player was to move, asks the bot (``engine.bots.evaluate_position``) for its move and its
evaluation, given **the view of the player to move at that time** (``rules.view(state,
mover)``), never the full state: for Maatatahay the bot does not know the hidden order of
the piles and the bag any better than the player did, so a mark never blames a player for
a draw they could not see. The bot's seed is fixed per position (``position_seed``) and
its budget is its level's (no time cap), so the same record, level and seed always give
the same analysis, on any machine.

Each position's ``value`` is the advantage of the game's first player (``rules.players[0]``:
Onitama's red, Maatatahay's Balan) in [-1, 1]; a finished position is worth 1, -1 or 0.
Marks point at the moves that cost the most (``marks_of``):

- Onitama: a move that let a forced win slip (the mover had a proven win and, after
  the move, no longer had one) or that walked into a forced loss (the mover was not
  lost, and after the move the opponent had a proven win), with the bot's move there;
- Maatatahay: the largest drops of the mover's evaluation from a position to the next,
  at most ``MAX_DROPS`` per player and each at least ``DROP_MIN``.

A forced decision (one legal move) and the bot's own choice are never marked.

>>> from engine import get_game, random_game
>>> moves, _ = random_game(get_game("onitama"), 3, {"cards": "base"})
>>> found = analyse_game("onitama", seed=3, options={"cards": "base"}, moves=moves[:4], level=1, bot_seed=1)
>>> [p.ply for p in found.positions], found.positions[0].to_move
([0, 1, 2, 3, 4], 'red')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import get_game
from .bots import Evaluation, bot_version, evaluate_position
from .core import GameRules, GameState, JSONObject, Options, ReplayError
from .errors import EngineError, MoveSyntaxError
from .fair import SeedStream

SCHEMA = "analysis/1"
DROP_MIN = 0.2
"""The smallest drop of a Maatatahay mover's advantage (on the scale of [-1, 1]) that is marked."""
MAX_DROPS = 3
"""At most this many drops are marked per player of a Maatatahay game."""

MISSED_WIN = "missed_win"
WALKED_INTO_LOSS = "walked_into_loss"
DROP = "drop"
MARK_KINDS = (MISSED_WIN, WALKED_INTO_LOSS, DROP)

Evaluator = Callable[..., Evaluation]
"""``evaluate(game, view, *, level, seed) -> Evaluation``: ``engine.bots.evaluate_position``."""


@dataclass(frozen=True)
class Position:
    """The bot's judgement of the position after ``ply`` decisions.

    ``to_move`` is None once the game is over. ``value``: the first player's advantage in
    [-1, 1]. ``best``: the bot's move (None at the end). ``played``: the move played from
    here (None for the last position). ``win_in``: Onitama's proven result for the first
    player, in plies (positive: a forced win, negative: a forced loss), else None.
    ``forced``: the mover had a single legal move.
    """

    ply: int
    to_move: str | None
    value: float
    best: str | None = None
    played: str | None = None
    win_in: int | None = None
    forced: bool = False

    def as_dict(self) -> JSONObject:
        return {
            "ply": self.ply,
            "to_move": self.to_move,
            "value": round(self.value, 3),
            "best": self.best,
            "played": self.played,
            "win_in": self.win_in,
            "forced": self.forced,
        }


@dataclass(frozen=True)
class Mark:
    """A marked move: decision number ``ply`` (counted from 1, as the move list does) by
    ``side``, of ``kind`` (``MARK_KINDS``), with the move ``played`` and the bot's ``best``
    move in that position, and the mover's advantage ``before`` and ``after`` it."""

    ply: int
    side: str
    kind: str
    played: str
    best: str
    before: float
    after: float

    @property
    def drop(self) -> float:
        return self.before - self.after

    def as_dict(self) -> JSONObject:
        return {
            "ply": self.ply,
            "side": self.side,
            "kind": self.kind,
            "played": self.played,
            "best": self.best,
            "before": round(self.before, 3),
            "after": round(self.after, 3),
        }


@dataclass(frozen=True)
class GameAnalysis:
    game: str
    level: int
    bot_version: str
    positions: list[Position] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)

    def as_dict(self) -> JSONObject:
        return {
            "schema": SCHEMA,
            "game": self.game,
            "level": self.level,
            "bot_version": self.bot_version,
            "positions": [p.as_dict() for p in self.positions],
            "marks": [m.as_dict() for m in self.marks],
        }


def position_seed(bot_seed: int, ply: int) -> int:
    """The bot's seed for the position after ``ply`` decisions (63 bits)."""
    return SeedStream(bot_seed, "analysis/%d" % ply).below(1 << 63)


def _terminal_value(rules: GameRules, state: GameState) -> float:
    outcome = rules.outcome(state)
    if outcome is None or outcome.winner is None:
        return 0.0
    return 1.0 if outcome.winner == rules.players[0] else -1.0


def analyse_game(
    game: str,
    *,
    seed: int,
    options: Options | None,
    moves: Sequence[str],
    level: int,
    bot_seed: int,
    data_version: str | None = None,
    evaluate: Evaluator = evaluate_position,
) -> GameAnalysis:
    """Replay ``moves`` (move texts) from ``seed``'s setup and judge every position.

    Raises ReplayError at a move that cannot be played, and the bot's errors (OptionsError
    for a bad level). ``evaluate`` is the bot's evaluation (``engine.bots.evaluate_position``),
    given only the mover's view."""
    rules = get_game(game)
    first = rules.players[0]
    state = rules.new_game(seed, options, data_version=data_version)
    raw: list[dict[str, Any]] = []
    for ply in range(len(moves) + 1):
        mover = rules.to_move(state)
        row: dict[str, Any] = {"ply": ply, "to_move": mover}
        if mover is None:
            row["value"] = _terminal_value(rules, state)
        else:
            view = rules.view(state, mover)
            found = evaluate(game, view, level=level, seed=position_seed(bot_seed, ply))
            sign = 1.0 if mover == first else -1.0
            row["value"] = None if found.value is None else sign * found.value
            row["win_in"] = None if found.win_in is None else int(sign) * found.win_in
            row["best"] = found.move
            row["forced"] = len(rules.legal_moves(state)) == 1
        if ply < len(moves):
            if mover is None:
                raise ReplayError(ply + 1, MoveSyntaxError("game_over", "The game is over: no more moves"))
            try:
                move = rules.parse_move(state, moves[ply])
            except EngineError as error:
                raise ReplayError(ply + 1, error) from error
            row["played"] = rules.move_text(move)
            state = rules.apply(state, move)
        raw.append(row)
    _fill_values(raw)
    positions = [Position(**row) for row in raw]
    return GameAnalysis(
        game=game,
        level=level,
        bot_version=bot_version(game),
        positions=positions,
        marks=marks_of(game, positions, players=rules.players),
    )


def _fill_values(rows: list[dict[str, Any]]) -> None:
    """A position the bot gave no value (a forced move) takes the next one's, else the previous one's."""
    later: float | None = None
    for row in reversed(rows):
        if row["value"] is None:
            row["value"] = later
        later = row["value"]
    earlier = 0.0
    for row in rows:
        if row["value"] is None:
            row["value"] = earlier
        earlier = row["value"]


def _proven(position: Position, side: str, players: tuple[str, str]) -> int:
    """+1 when ``side`` has a proven win in ``position`` (or has won), -1 a proven loss, else 0."""
    sign = 1 if side == players[0] else -1
    if position.to_move is None:
        return 0 if position.value == 0 else (1 if position.value * sign > 0 else -1)
    if position.win_in is None:
        return 0
    return 1 if position.win_in * sign > 0 else -1


def marks_of(game: str, positions: Sequence[Position], *, players: tuple[str, str]) -> list[Mark]:
    """The marked moves of a judged game (see the module's docstring), in the order played."""
    marks: list[Mark] = []
    drops: dict[str, list[Mark]] = {players[0]: [], players[1]: []}
    for before, after in zip(positions, positions[1:], strict=False):
        side, played, best = before.to_move, before.played, before.best
        if side is None or played is None or best is None or before.forced or played == best:
            continue
        sign = 1.0 if side == players[0] else -1.0
        mark = Mark(before.ply + 1, side, DROP, played, best, sign * before.value, sign * after.value)
        if game == "onitama":
            was, now = _proven(before, side, players), _proven(after, side, players)
            if was == 1 and now != 1:
                marks.append(Mark(**{**mark.__dict__, "kind": MISSED_WIN}))
            elif was != -1 and now == -1:
                marks.append(Mark(**{**mark.__dict__, "kind": WALKED_INTO_LOSS}))
        elif mark.drop >= DROP_MIN:
            drops[side].append(mark)
    for side_drops in drops.values():
        side_drops.sort(key=lambda m: (-m.drop, m.ply))
        marks.extend(side_drops[:MAX_DROPS])
    marks.sort(key=lambda m: m.ply)
    return marks


def analysis_from_dict(data: Mapping[str, Any]) -> GameAnalysis:
    """Inverse of ``GameAnalysis.as_dict`` (values as rounded there)."""
    return GameAnalysis(
        game=str(data["game"]),
        level=int(data["level"]),
        bot_version=str(data["bot_version"]),
        positions=[Position(**p) for p in data["positions"]],
        marks=[Mark(**m) for m in data["marks"]],
    )


__all__ = [
    "SCHEMA",
    "DROP_MIN",
    "MAX_DROPS",
    "MARK_KINDS",
    "MISSED_WIN",
    "WALKED_INTO_LOSS",
    "DROP",
    "Position",
    "Mark",
    "GameAnalysis",
    "analyse_game",
    "analysis_from_dict",
    "marks_of",
    "position_seed",
]
