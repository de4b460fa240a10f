"""Onitama gauntlet: today's bot against the frozen bot of before the search rewrite.

    .venv/bin/python bench/onitama_gauntlet.py [--games 200] [--nodes 50000 | --depth 6]
                                              [--old-nodes N] [--jobs 2] [--out FILE]

Both sides play at a fixed budget (deterministic: the result of a game never depends on
the machine's load): ``--nodes N`` nodes a move for both (``--old-nodes`` for the frozen
bot, to give it another budget), or ``--depth D`` plies a move for both (fixed-depth
strength: evaluation and pruning without speed). Deals are random deals of the 16 base
cards, each played twice with the seats swapped. The frozen bot is
``bench/frozen/onitama_v1.py`` (bot version onitama-1), loaded beside today's under another
module name (the rest of the engine is shared: its rules did not change).

Resumable: every finished game is appended to ``--out`` (JSON lines, one per game, keyed by
the settings); a run with the same settings skips the games already there. It prints the
score of today's bot with its 95 % (Wilson) interval and the Elo difference with the
interval's ends, and the mean nodes per move of each side.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import sys
import time
from multiprocessing import Pool

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

MAX_PLIES = 200


def _frozen():
    name = "engine.bots._frozen_onitama_v1"
    if name in sys.modules:
        return sys.modules[name]
    import engine.bots  # noqa: F401  (the package the frozen module's relative imports use)

    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, "bench", "frozen", "onitama_v1.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _mover(module, nodes: int, depth: int):
    level = module.Level(nodes, depth, 0)

    def move(state, seed):
        r = module.search_position(
            state.red,
            state.blue,
            state.red_master,
            state.blue_master,
            state.red_hand,
            state.blue_hand,
            state.side,
            state.turn,
            level=level,
            seed=seed,
        )
        return r.text, r.nodes

    return move


def play(task):
    index, new_nodes, old_nodes, depth = task
    from engine import get_game
    from engine.bots import onitama as today

    rules = get_game("onitama")
    new = _mover(today, new_nodes, depth)
    old = _mover(_frozen(), old_nodes, depth)
    state = rules.new_game(7000 + index // 2, {"cards": "base"})
    new_side = rules.players[index % 2]
    plies = 0
    nodes = {"new": [0, 0], "old": [0, 0]}
    while rules.outcome(state) is None and plies < MAX_PLIES:
        who = "new" if rules.to_move(state) == new_side else "old"
        text, n = (new if who == "new" else old)(state, (index << 16) + plies)
        nodes[who][0] += n
        nodes[who][1] += 1
        state = rules.apply(state, rules.parse_move(state, text))
        plies += 1
    outcome = rules.outcome(state)
    score = 0.5 if outcome is None or outcome.winner is None else (1.0 if outcome.winner == new_side else 0.0)
    return {"index": index, "score": score, "plies": plies, "nodes": nodes}


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def elo(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return 400 * math.log10(p / (1 - p))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games in all (even: pairs of seats)")
    parser.add_argument("--nodes", type=int, default=50_000)
    parser.add_argument("--old-nodes", type=int, default=None, help="the frozen bot's budget (default: --nodes)")
    parser.add_argument("--depth", type=int, default=0, help="fixed depth for both instead of a node budget")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", default=None, help="JSON-lines file of finished games (resumable)")
    args = parser.parse_args()
    old_nodes = args.old_nodes or args.nodes
    if args.depth:
        new_nodes = old_nodes = 10**12
        key = "depth%d" % args.depth
    else:
        new_nodes = args.nodes
        key = "nodes%d-%d" % (new_nodes, old_nodes)
    out = args.out or os.path.join(ROOT, "bench", ".onitama_gauntlet_%s.jsonl" % key)
    done: dict[int, dict] = {}
    if os.path.exists(out):
        with open(out, encoding="utf-8") as handle:
            for line in handle:
                row = json.loads(line)
                done[row["index"]] = row
    todo = [(i, new_nodes, old_nodes, args.depth or 64) for i in range(args.games) if i not in done]
    print("onitama gauntlet %s: %d games done, %d to play (%s)" % (key, len(done), len(todo), out), flush=True)
    start = time.monotonic()
    with open(out, "a", encoding="utf-8") as handle, Pool(args.jobs) as pool:
        for row in pool.imap_unordered(play, todo):
            done[row["index"]] = row
            handle.write(json.dumps(row) + "\n")
            handle.flush()
    rows = [done[i] for i in sorted(done) if i < args.games]
    n = len(rows)
    p = sum(r["score"] for r in rows) / n
    lo, hi = wilson(p, n)
    wins = sum(r["score"] == 1.0 for r in rows)
    draws = sum(r["score"] == 0.5 for r in rows)

    def per_move(who: str) -> float:
        return sum(r["nodes"][who][0] for r in rows) / max(1, sum(r["nodes"][who][1] for r in rows))

    print(
        "today's bot against onitama-1 (%s): %d games, won %d drawn %d lost %d, score %.1f%% "
        "[95%% %.1f%%, %.1f%%], Elo %+.0f [%+.0f, %+.0f]; nodes a move: today %.0f, frozen %.0f; %.0f s"
        % (
            key,
            n,
            wins,
            draws,
            n - wins - draws,
            100 * p,
            100 * lo,
            100 * hi,
            elo(p),
            elo(lo),
            elo(hi),
            per_move("new"),
            per_move("old"),
            time.monotonic() - start,
        ),
        flush=True,
    )


if __name__ == "__main__":
    main()
