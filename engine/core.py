"""The one interface every game of the engine offers, and what is built on it.

A game is a ``GameRules`` object (``engine.get_game("onitama")``). Its states
are immutable values: ``apply`` returns a new state and never changes the one
it was given. The rules object is stateless, so one instance serves all games.

>>> from engine import get_game
>>> rules = get_game("onitama")
>>> state = rules.new_game(7, {"cards": "base"})
>>> move = rules.legal_moves(state)[0]
>>> after = rules.apply(state, move)
>>> rules.to_move(after) != rules.to_move(state)
True
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from .errors import EngineError, IllegalMoveError, MoveSyntaxError
from .fair import SeedStream

S = TypeVar("S")
M = TypeVar("M")


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``winner`` is a player name (``"red"``, ``"wazu"`` ...) or None for a draw;
    ``reason`` a stable code (``"master_captured"``, ``"temple_reached"``,
    ``"repetition"``, ``"agreement"``, ``"score"``, ``"more_warriors"``,
    ``"latest_relic"``, ``"tie"``); ``scores`` the final score per player for
    games that score (Maatatahay), else None.
    """

    winner: str | None
    reason: str
    scores: Mapping[str, int] | None = field(default=None)

    def as_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason,
                "scores": dict(self.scores) if self.scores is not None else None}


class GameRules(Protocol[S, M]):
    """What each game offers. ``S`` is its state type, ``M`` its move type."""

    name: str
    players: tuple[str, str]

    def normalize_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Fill defaults and check values; raise OptionsError on anything unknown."""
        ...

    def new_game(self, seed: int, options: Mapping[str, Any] | None = None, *,
                 data_version: str | None = None) -> S:
        """The state before the first decision, fully decided by (seed, options, data version)."""
        ...

    def to_move(self, state: S) -> str | None:
        """The player who takes the next decision, or None once the game is over."""
        ...

    def legal_moves(self, state: S) -> list[M]:
        """Every legal decision, each distinct in its result, in a fixed order."""
        ...

    def apply(self, state: S, move: M) -> S:
        """The state after ``move``; raises IllegalMoveError when it is not legal."""
        ...

    def parse_move(self, state: S, text: str) -> M:
        """Read move text; MoveSyntaxError when malformed, IllegalMoveError when not legal."""
        ...

    def move_text(self, move: M) -> str:
        """The move's canonical move text."""
        ...

    def outcome(self, state: S) -> Outcome | None:
        """How the game ended, or None while it runs."""
        ...

    def terminate(self, state: S, *, reason: str, winner: str | None) -> S:
        """End a running game by a site decision (``reason="agreement"``, ``winner=None``)."""
        ...

    def to_json(self, state: S) -> dict[str, Any]:
        """The full state as JSON data (hidden order included: server side only)."""
        ...

    def from_json(self, data: Mapping[str, Any]) -> S:
        """Inverse of ``to_json``; StateFormatError when the data is not a valid state."""
        ...

    def view(self, state: S, player: str | None) -> dict[str, Any]:
        """What ``player`` (None: a spectator) may see, as JSON data; never the hidden order."""
        ...

    def reveal(self, seed: int, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Everything the seed decides, as JSON data (for checking a finished game)."""
        ...

    def summary(self, state: S) -> str:
        """A short human-readable picture of the table (several lines of text)."""
        ...

    def result_line(self, state: S) -> str:
        """``result: ...`` as the command line prints it (``result: unfinished`` while running)."""
        ...

    def random_move(self, state: S, stream: SeedStream) -> M:
        """A uniformly random legal move drawn from ``stream``."""
        ...


class ReplayError(EngineError):
    """A recorded move could not be played; ``ply`` counts decisions from 1."""

    def __init__(self, ply: int, cause: EngineError) -> None:
        super().__init__(cause.code, cause.message, ply=ply, **cause.params)
        self.ply = ply
        self.cause = cause


def replay(rules: GameRules[S, M], seed: int, options: Mapping[str, Any] | None,
           moves: Iterable[str], *, data_version: str | None = None) -> S:
    """The state after playing ``moves`` (move texts) from the seed's setup.

    Raises ReplayError at the first malformed or illegal move.
    """
    state = rules.new_game(seed, options, data_version=data_version)
    for ply, text in enumerate(moves, start=1):
        try:
            if not isinstance(text, str):
                raise MoveSyntaxError("not_text", "A move must be text", value=repr(text))
            state = rules.apply(state, rules.parse_move(state, text))
        except EngineError as error:
            raise ReplayError(ply, error) from error
    return state


def random_game(rules: GameRules[S, M], seed: int, options: Mapping[str, Any] | None = None
                ) -> tuple[list[str], S]:
    """Play uniformly random legal moves to the end.

    The choices read the stream labelled ``random-game/<game name>`` of the same
    seed, so the same (seed, options) always gives the same game.
    """
    stream = SeedStream(seed, "random-game/" + rules.name)
    state = rules.new_game(seed, options)
    texts: list[str] = []
    while rules.outcome(state) is None:
        move = rules.random_move(state, stream)
        texts.append(rules.move_text(move))
        state = rules.apply(state, move)
    return texts, state


def check_legal(rules: GameRules[S, M], state: S, move: M) -> None:
    """Raise IllegalMoveError unless ``move`` is among the legal moves (slow generic check)."""
    if move not in rules.legal_moves(state):
        raise IllegalMoveError("illegal_move", "%s is not a legal move now" % rules.move_text(move),
                               move=rules.move_text(move))


__all__ = ["GameRules", "Outcome", "ReplayError", "replay", "random_game", "check_legal"]
