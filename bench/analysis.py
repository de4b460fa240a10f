"""Post-game analysis cost: the time to judge every position of a game, per game and per position.

    .venv/bin/python bench/analysis.py [--game onitama|maatatahay|both] [--games N] [--level L]
                                       [--players-level P] [--max-plies N]

Each game is played by the bot of ``--players-level`` (3 by default: quick, and closer to real
play than random moves) against itself from a seeded deal, cut at ``--max-plies``; then
``engine.analysis.analyse_game`` judges it with the bot of ``--level`` (the site's
``ANALYSIS_BOT_LEVEL``, 5 by default), exactly as the task does (no time cap: the level's node or
iteration budget decides). Prints, per game kind, the positions judged, seconds per game and per
position (median and slowest) and the marks found. One process: run it on an idle machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from engine import get_game  # noqa: E402
from engine.analysis import analyse_game  # noqa: E402
from engine.bots import choose_move, evaluate_position  # noqa: E402

OPTIONS = {"onitama": {"cards": "base"}, "maatatahay": {"variant": "first", "opening": 2}}


def self_play(kind: str, seed: int, level: int, max_plies: int) -> list[str]:
    rules = get_game(kind)
    state = rules.new_game(seed, OPTIONS[kind])
    moves: list[str] = []
    while rules.to_move(state) is not None and len(moves) < max_plies:
        view = rules.view(state, rules.to_move(state))
        text = choose_move(kind, view, level=level, seed=seed * 1000 + len(moves))
        moves.append(text)
        state = rules.apply(state, rules.parse_move(state, text))
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=["onitama", "maatatahay", "both"], default="both")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--level", type=int, default=5)
    parser.add_argument("--players-level", type=int, default=3)
    parser.add_argument("--max-plies", type=int, default=200)
    args = parser.parse_args()
    kinds = ["onitama", "maatatahay"] if args.game == "both" else [args.game]
    for kind in kinds:
        per_position: list[float] = []
        per_game: list[float] = []
        positions = marks = 0
        for game in range(args.games):
            moves = self_play(kind, 1 + game, args.players_level, args.max_plies)
            times: list[float] = []

            def timed(*a, _times=times, **kw):  # type: ignore[no-untyped-def]
                start = time.perf_counter()
                try:
                    return evaluate_position(*a, **kw)
                finally:
                    _times.append(time.perf_counter() - start)

            start = time.perf_counter()
            found = analyse_game(
                kind, seed=1 + game, options=OPTIONS[kind], moves=moves, level=args.level, bot_seed=game, evaluate=timed
            )
            per_game.append(time.perf_counter() - start)
            per_position += times
            positions += len(found.positions)
            marks += len(found.marks)
            print(
                "%s game %d: %d decisions, %.1f s, %d marks"
                % (kind, game + 1, len(moves), per_game[-1], len(found.marks)),
                flush=True,
            )
        print(
            "%s level %d: %d games, %d positions; per game median %.1f s, slowest %.1f s; "
            "per position median %.2f s, slowest %.2f s; %d marks"
            % (
                kind,
                args.level,
                args.games,
                positions,
                statistics.median(per_game),
                max(per_game),
                statistics.median(per_position),
                max(per_position),
                marks,
            )
        )


if __name__ == "__main__":
    main()
