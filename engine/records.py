"""Game records, in two documented formats that ``python -m engine replay`` reads alike.

**The JSON replay record**: an object with ``game`` (the game's name), ``seed`` (the
decimal seed, revealed when the game ends), ``options``, ``moves`` (the move texts, one
per decision) and ``data_version``; the site adds ``tags`` (the text record's header,
below) and ``salt``. Keys it does not know are ignored.

**The text record**, in the spirit of PGN: header tags, one per line, ``[Name "value"]``
(a ``"`` or ``\\`` inside a value is written ``\\"`` or ``\\\\``), then a blank line, then
the decisions one per line as ``<ply>. <move text>`` (Maatatahay's move texts hold
spaces, so a line holds one decision), then the result token alone on the last line.
Lines starting with ``;`` are comments. The tags this module writes, in this order:

- ``Event``, ``Site``, ``Date`` (``YYYY.MM.DD``), ``Game`` (``onitama`` or ``maatatahay``);
- one per side, named by the side (``Red``/``Blue``, ``Balan``/``Wazu``), with the player's
  name, and ``<Side>Rating`` when rated;
- ``Result`` (``1-0``: the game's first side won, ``0-1``, ``1/2-1/2``, ``*`` while running)
  and ``Reason``;
- one per option the game takes (``Cards``, ``Variant``, ``Opening``), when set;
- ``Seed`` and ``Salt`` once revealed, and ``DataVersion``.

Reading needs ``Game`` and ``Seed``; option tags are read back by the game's own option
names, and other tags are kept as they are. Every reading error names the line (or, for
JSON, the field) it found wrong, and a move that cannot be played names its line and ply.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from . import GAME_NAMES, get_game
from .core import GameRules, GameState, ReplayError
from .errors import EngineError

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_MOVE = re.compile(r"^(\d+)\.\s+(\S.*?)\s*$")
MAX_RECORD_CHARS = 1_000_000
"""Longer texts are refused before they are read (a game of a few hundred plies is far smaller)."""


class RecordError(EngineError):
    """A record cannot be read or replayed; ``line`` is its 1-based line (0 when it has none)."""

    def __init__(self, line: int, code: str, message: str, **params: object) -> None:
        super().__init__(code, message, line=line, **params)
        self.line = line


@dataclass(frozen=True)
class GameRecord:
    """What a record holds: enough to replay the game, and its header tags."""

    game: str
    seed: int
    options: dict[str, str | int | None]
    moves: list[str]
    data_version: str | None = None
    tags: dict[str, str] = field(default_factory=dict)
    move_lines: list[int] = field(default_factory=list)
    """The line of each move in the text it was read from (empty for JSON or a new record)."""


def result_token(rules: GameRules, winner: str | None, finished: bool) -> str:
    """The result as the records write it: the first side's score first."""
    if not finished:
        return "*"
    if winner is None:
        return "1/2-1/2"
    return "1-0" if winner == rules.players[0] else "0-1"


def side_tag(side: str) -> str:
    return side[:1].upper() + side[1:]


def option_tag(option: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in option.split("_"))


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ").replace("\r", " ")


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def record_to_text(record: GameRecord) -> str:
    """The text record: tags, a blank line, one decision a line, the result."""
    tags = dict(record.tags)
    tags.setdefault("Game", record.game)
    for option, value in record.options.items():
        if value is not None and value != "":
            tags.setdefault(option_tag(option), str(value))
    tags.setdefault("Seed", str(record.seed))
    if record.data_version:
        tags.setdefault("DataVersion", record.data_version)
    result = tags.setdefault("Result", "*")
    lines = ['[%s "%s"]' % (name, _quote(value)) for name, value in tags.items()]
    lines.append("")
    lines += ["%d. %s" % (ply, text) for ply, text in enumerate(record.moves, start=1)]
    lines.append(result if result in RESULTS else "*")
    return "\n".join(lines) + "\n"


def record_to_json(record: GameRecord, *, salt: str | None = None) -> dict[str, object]:
    """The JSON replay record (what ``python -m engine replay`` reads), with the tags."""
    data: dict[str, object] = {
        "game": record.game,
        "seed": record.seed,
        "options": dict(record.options),
        "moves": list(record.moves),
        "data_version": record.data_version,
        "tags": dict(record.tags),
    }
    if salt:
        data["salt"] = salt
    return data


def _game_of(name: object, line: int) -> GameRules:
    if not isinstance(name, str) or name not in GAME_NAMES:
        raise RecordError(
            line, "record_game", "The record names no game this site plays (onitama or maatatahay)", game=str(name)
        )
    return get_game(name)


def _seed_of(value: object, line: int) -> int:
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 1 << 256:
        raise RecordError(line, "record_seed", "The record's seed must be a whole number below 2**256")
    return value


def _options_of(rules: GameRules, raw: Mapping[str, object], line: int) -> dict[str, str | int | None]:
    known = rules.normalize_options(None)
    options: dict[str, str | int | None] = {}
    for key, value in raw.items():
        if key not in known:
            raise RecordError(line, "record_option", "The game takes no option %(option)s" % {"option": key})
        if value is None or isinstance(value, str | int) and not isinstance(value, bool):
            options[key] = value
        else:
            raise RecordError(line, "record_option", "The option %(option)s has a bad value" % {"option": key})
    try:
        normalized = rules.normalize_options(options)
    except EngineError as error:
        raise RecordError(line, "record_option", error.message) from error
    return {key: value for key, value in normalized.items() if isinstance(value, str | int) or value is None}


def record_from_text(text: str) -> GameRecord:
    """Read a text record (see the module's docstring); RecordError names the line."""
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError(0, "record_too_long", "The record is longer than %d characters" % MAX_RECORD_CHARS)
    tags: dict[str, str] = {}
    tag_lines: dict[str, int] = {}
    moves: list[str] = []
    move_lines: list[int] = []
    result: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if result is not None:
            raise RecordError(number, "record_after_result", "Nothing may follow the result line")
        if line.startswith("["):
            if moves:
                raise RecordError(number, "record_tag_late", "Tags come before the moves")
            found = _TAG.match(line)
            if not found:
                raise RecordError(number, "record_tag", 'A tag is written [Name "value"]')
            tags[found.group(1)] = _unquote(found.group(2))
            tag_lines[found.group(1)] = number
            continue
        if line in RESULTS:
            result = line
            continue
        found = _MOVE.match(line)
        if not found:
            raise RecordError(number, "record_line", "A move line is written <ply>. <move>")
        if int(found.group(1)) != len(moves) + 1:
            raise RecordError(number, "record_ply", "Expected ply %(expected)d here" % {"expected": len(moves) + 1})
        moves.append(found.group(2))
        move_lines.append(number)
    if "Game" not in tags:
        raise RecordError(0, "record_game", "The record has no Game tag")
    rules = _game_of(tags["Game"], tag_lines["Game"])
    if "Seed" not in tags:
        raise RecordError(0, "record_seed", "The record has no Seed tag: the deal cannot be rebuilt")
    seed = _seed_of(tags["Seed"], tag_lines["Seed"])
    if result is not None and tags.get("Result", result) != result:
        raise RecordError(0, "record_result", "The Result tag and the last line disagree")
    by_tag = {option_tag(option): option for option in rules.normalize_options(None)}
    raw_options: dict[str, object] = {}
    for name, value in tags.items():
        if name in by_tag:
            raw_options[by_tag[name]] = int(value) if value.isdigit() else value
    first_option_line = min((tag_lines[n] for n in tags if n in by_tag), default=0)
    options = _options_of(rules, raw_options, first_option_line)
    return GameRecord(
        game=rules.name,
        seed=seed,
        options=options,
        moves=moves,
        data_version=tags.get("DataVersion") or None,
        tags=tags,
        move_lines=move_lines,
    )


def record_from_json(data: object) -> GameRecord:
    """Read a JSON replay record (already decoded); RecordError names the field."""
    if not isinstance(data, Mapping):
        raise RecordError(0, "record_json", "A JSON record is an object")
    rules = _game_of(data.get("game"), 0)
    seed = _seed_of(data.get("seed"), 0)
    moves = data.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordError(0, "record_moves", "The record's moves must be a list of move texts")
    options = data.get("options") or {}
    if not isinstance(options, Mapping):
        raise RecordError(0, "record_option", "The record's options must be an object")
    raw_tags = data.get("tags") or {}
    tags = {str(k): str(v) for k, v in raw_tags.items()} if isinstance(raw_tags, Mapping) else {}
    version = data.get("data_version")
    return GameRecord(
        game=rules.name,
        seed=seed,
        options=_options_of(rules, options, 0),
        moves=list(moves),
        data_version=version if isinstance(version, str) and version else None,
        tags=tags,
    )


def record_read(text: str) -> GameRecord:
    """Either format: a text that starts with ``{`` is JSON, any other the text record."""
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError(0, "record_too_long", "The record is longer than %d characters" % MAX_RECORD_CHARS)
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as error:
            raise RecordError(0, "record_json", "The record is not valid JSON: %s" % error) from error
        return record_from_json(data)
    return record_from_text(text)


def record_states(record: GameRecord, *, upto: int | None = None) -> list[GameState]:
    """The state before the first move and after each one (after the first ``upto`` only, when
    given); a move that cannot be played raises RecordError naming its line (in a text record)
    and its ply."""
    rules = get_game(record.game)
    try:
        state = rules.new_game(record.seed, record.options, data_version=record.data_version)
    except EngineError as error:
        raise RecordError(0, error.code, error.message) from error
    states = [state]
    for ply, text in enumerate(record.moves[:upto], start=1):
        try:
            states.append(replay_one(rules, states[-1], text, ply))
        except ReplayError as error:
            line = record.move_lines[ply - 1] if len(record.move_lines) >= ply else 0
            raise RecordError(line, error.code, "Ply %d (%s): %s" % (ply, text, error.message), ply=ply) from error
    return states


def replay_one(rules: GameRules, state: GameState, text: str, ply: int) -> GameState:
    """``state`` after the move ``text``, as ``replay`` plays it (ReplayError at ``ply``)."""
    try:
        return rules.apply(state, rules.parse_move(state, text))
    except EngineError as error:
        raise ReplayError(ply, error) from error


def record_replay(record: GameRecord) -> GameState:
    """The final state of the record's moves (RecordError at the first that cannot be played)."""
    return record_states(record)[-1]


__all__ = [
    "GameRecord",
    "RecordError",
    "RESULTS",
    "record_from_json",
    "record_from_text",
    "record_read",
    "record_replay",
    "record_states",
    "record_to_json",
    "record_to_text",
    "result_token",
]
