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

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeAlias

from .errors import EngineError, IllegalMoveError, MoveSyntaxError
from .fair import SeedStream

JSONValue: TypeAlias = "None | bool | int | float | str | list[JSONValue] | dict[str, JSONValue]"
"""A value of JSON data, as ``json.loads`` returns it."""
JSONObject: TypeAlias = "dict[str, JSONValue]"
"""A JSON object: a state's ``to_json``, a ``view``, a ``reveal``."""
OptionValue: TypeAlias = "str | int | None"
Options: TypeAlias = "Mapping[str, OptionValue]"
"""A game's options (``{"cards": "base"}``, ``{"variant": "first", "opening": 2}``)."""
MovePart: TypeAlias = "str | int | list[str]"
MoveParts: TypeAlias = "dict[str, MovePart]"
"""A move's structure as data: ``"type"`` names its kind, the other keys its parts.

Each game documents its keys (``engine.onitama``, ``engine.maatatahay``). They are
exactly what the move text holds, so ``move_text`` can be rebuilt from them, and a
board can offer the legal moves by their parts (square, card, rotation ...) without
reading move text.
"""

GameMove: TypeAlias = Hashable
"""A move: an opaque, hashable value of one game, made by ``parse_move``, ``legal_moves``
or ``random_move`` of that game's rules and passed back to them."""


class GameState:
    """The base of every game's state (``OnitamaState``, Maatatahay's ``State``).

    Opaque to code that serves any game: only the rules of its own game read it, and
    they refuse another game's state with a TypeError.
    """

    __slots__ = ()


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

    def as_dict(self) -> JSONObject:
        return {
            "winner": self.winner,
            "reason": self.reason,
            "scores": dict(self.scores) if self.scores is not None else None,
        }


@dataclass(frozen=True)
class MovePreview:
    """What one legal move would do, as its player may know it before confirming.

    ``move`` is the legal move (as ``legal_moves`` lists it), ``effects`` JSON data whose
    keys each game documents (``engine.onitama.rules``, ``engine.maatatahay.preview``):
    always ``"type"`` (the move's kind, as in ``move_parts``), then what the move does to
    the table (a capture, the warriors that die, crystals, score changes ...). Computed
    from the public table only: two states that differ only in hidden information have
    the same previews, and no preview holds hidden information.
    """

    move: GameMove
    effects: JSONObject


class GameRules(Protocol):
    """What each game offers: the one contract between the engine and its users (the
    site, the command line, the bots' callers). Both games implement it
    (``engine.onitama.RULES``, ``engine.maatatahay.RULES``).

    States and moves are opaque values of one game (``GameState``, ``GameMove``); a
    game's rules take back only their own. What a caller reads is data: JSON objects,
    move text and ``move_parts``.
    """

    name: str
    players: tuple[str, str]
    hidden_information: bool
    """Whether the game hides an order from the players (Maatatahay's piles and bag)."""

    def normalize_options(self, options: Options | None) -> dict[str, OptionValue]:
        """Fill defaults and check values; raise OptionsError on anything unknown."""
        ...

    def new_game(self, seed: int, options: Options | None = None, *, data_version: str | None = None) -> GameState:
        """The state before the first decision, fully decided by (seed, options, data version)."""
        ...

    def data_version(self, state: GameState) -> str:
        """The version of the game's component data the state plays with."""
        ...

    def to_move(self, state: GameState) -> str | None:
        """The player who takes the next decision, or None once the game is over."""
        ...

    def legal_moves(self, state: GameState) -> Sequence[GameMove]:
        """Every legal decision, each distinct in its result, in a fixed order."""
        ...

    def apply(self, state: GameState, move: GameMove) -> GameState:
        """The state after ``move``; raises IllegalMoveError when it is not legal."""
        ...

    def parse_move(self, state: GameState, text: str) -> GameMove:
        """Read move text; MoveSyntaxError when malformed, IllegalMoveError when not legal."""
        ...

    def move_text(self, move: GameMove) -> str:
        """The move's canonical move text."""
        ...

    def move_parts(self, move: GameMove) -> MoveParts:
        """The move's structure as data (see ``MoveParts``): what its text holds, by name."""
        ...

    def outcome(self, state: GameState) -> Outcome | None:
        """How the game ended, or None while it runs."""
        ...

    def terminate(self, state: GameState, *, reason: str, winner: str | None) -> GameState:
        """End a running game by a site decision (``reason="agreement"``, ``winner=None``)."""
        ...

    def to_json(self, state: GameState) -> JSONObject:
        """The full state as JSON data (hidden order included: server side only)."""
        ...

    def from_json(self, data: Mapping[str, JSONValue]) -> GameState:
        """Inverse of ``to_json``; StateFormatError when the data is not a valid state."""
        ...

    def view(self, state: GameState, player: str | None) -> JSONObject:
        """What ``player`` (None: a spectator) may see, as JSON data; never the hidden order."""
        ...

    def reveal(self, seed: int, options: Options | None = None) -> JSONObject:
        """Everything the seed decides, as JSON data (for checking a finished game)."""
        ...

    def summary(self, state: GameState) -> str:
        """A short human-readable picture of the table (several lines of text)."""
        ...

    def result_line(self, state: GameState) -> str:
        """``result: ...`` as the command line prints it (``result: unfinished`` while running)."""
        ...

    def random_move(self, state: GameState, stream: SeedStream) -> GameMove:
        """A uniformly random legal move drawn from ``stream``."""
        ...

    def move_previews(self, state: GameState) -> list[MovePreview]:
        """The preview of every legal move of the player to move, in ``legal_moves`` order
        (empty once the game is over); see ``MovePreview``."""
        ...

    def move_previews_at(self, state: GameState, square: str | None) -> list[MovePreview]:
        """The previews of ``move_previews`` whose move names ``square`` (as ``from``, ``to``
        or ``square`` of ``move_parts``), in the same order and equal to them; with None,
        those of the moves that name no square. Computes only those previews (a board that
        asks for one square's moves does not pay for every other square's)."""
        ...


class ReplayError(EngineError):
    """A recorded move could not be played; ``ply`` counts decisions from 1."""

    def __init__(self, ply: int, cause: EngineError) -> None:
        super().__init__(cause.code, cause.message, ply=ply, **cause.params)
        self.ply = ply
        self.cause = cause


def replay(
    rules: GameRules, seed: int, options: Options | None, moves: Iterable[str], *, data_version: str | None = None
) -> GameState:
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


def random_game(rules: GameRules, seed: int, options: Options | None = None) -> tuple[list[str], GameState]:
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


def check_legal(rules: GameRules, state: GameState, move: GameMove) -> None:
    """Raise IllegalMoveError unless ``move`` is among the legal moves (slow generic check)."""
    if move not in rules.legal_moves(state):
        raise IllegalMoveError(
            "illegal_move", "%s is not a legal move now" % rules.move_text(move), move=rules.move_text(move)
        )


__all__ = [
    "GameRules",
    "GameState",
    "GameMove",
    "JSONValue",
    "JSONObject",
    "Options",
    "OptionValue",
    "MovePart",
    "MoveParts",
    "MovePreview",
    "Outcome",
    "ReplayError",
    "replay",
    "random_game",
    "check_legal",
]
