"""Command line of the engine (a contract: other tools read its last lines).

python -m engine perft onitama --position "<position text>" --depth N
python -m engine random-game {onitama,maatatahay} --seed N [--variant first|standard]
                             [--opening 1-4] [--cards base|senseis_path|mixed]
python -m engine reveal {onitama,maatatahay} --seed N [same options]
python -m engine replay FILE       (a JSON replay record or a text record: engine/records.py)
python -m engine bot-move {onitama,maatatahay} --position <text or file> --level N
                          [--seed N] [--seconds S]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from . import GAME_NAMES, get_game
from .core import ReplayError, random_game, replay
from .errors import EngineError
from .records import RecordError, record_read


def _options(args: argparse.Namespace) -> dict[str, Any]:
    """The game options named on the command line (absent flags take the game's default)."""
    return {key: getattr(args, key) for key in ("variant", "opening", "cards") if getattr(args, key) is not None}


def _add_setup(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=GAME_NAMES)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--variant", choices=("first", "standard"))
    parser.add_argument("--opening", type=int, choices=(1, 2, 3, 4))
    parser.add_argument("--cards", choices=("base", "senseis_path", "mixed"))


def cmd_perft(args: argparse.Namespace) -> int:
    if args.game != "onitama":
        print("perft is defined for onitama only", file=sys.stderr)
        return 2
    from .onitama import perft, position_from_text

    print(perft(position_from_text(args.position), args.depth))
    return 0


def cmd_random_game(args: argparse.Namespace) -> int:
    rules = get_game(args.game)
    moves, state = random_game(rules, args.seed, _options(args))
    sys.stdout.write("".join(text + "\n" for text in moves))
    print(rules.result_line(state))
    return 0


def cmd_reveal(args: argparse.Namespace) -> int:
    rules = get_game(args.game)
    print(json.dumps(rules.reveal(args.seed, _options(args))))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Either record format (engine/records.py): the JSON replay record or the text record."""
    try:
        with open(args.file, encoding="utf-8") as handle:
            record = record_read(handle.read())
    except (OSError, ValueError) as error:
        print("cannot read the game record: %s" % error, file=sys.stderr)
        return 2
    except RecordError as error:
        where = "line %d: " % error.line if error.line else ""
        print("cannot read the game record: %s%s" % (where, error.message), file=sys.stderr)
        return 2
    rules = get_game(record.game)
    try:
        state = replay(rules, record.seed, record.options, record.moves, data_version=record.data_version)
    except ReplayError as error:
        sys.stdout.flush()
        print("illegal at ply %d: %s" % (error.ply, error.message))
        if record.move_lines:
            print("(line %d of the record)" % record.move_lines[error.ply - 1], file=sys.stderr)
        return 1
    print(rules.summary(state))
    print(rules.result_line(state))
    return 0


def cmd_bot_move(args: argparse.Namespace) -> int:
    from .bots import bot_move_from_cli

    print(bot_move_from_cli(args.game, args.position, level=args.level, seed=args.seed, seconds=args.seconds))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)

    perft = commands.add_parser("perft", help="count the leaves of the move tree")
    perft.add_argument("game", choices=("onitama",))
    perft.add_argument("--position", required=True)
    perft.add_argument("--depth", type=int, required=True)
    perft.set_defaults(run=cmd_perft)

    rand = commands.add_parser("random-game", help="play uniformly random legal moves")
    _add_setup(rand)
    rand.set_defaults(run=cmd_random_game)

    reveal = commands.add_parser("reveal", help="print everything a seed decides")
    _add_setup(reveal)
    reveal.set_defaults(run=cmd_reveal)

    rep = commands.add_parser("replay", help="replay a game record")
    rep.add_argument("file")
    rep.set_defaults(run=cmd_replay)

    bot = commands.add_parser("bot-move", help="let a bot choose a move")
    bot.add_argument("game", choices=GAME_NAMES)
    bot.add_argument("--position", required=True)
    bot.add_argument("--level", type=int, required=True, choices=(1, 2, 3, 4, 5))
    bot.add_argument("--seed", type=int, default=0)
    bot.add_argument("--seconds", type=float, default=None)
    bot.set_defaults(run=cmd_bot_move)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except EngineError as error:
        print("error: %s" % error.message, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
