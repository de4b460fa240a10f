"""Onitama gauntlet: today's bot against the frozen bot of before the search rewrite.

    .venv/bin/python bench/onitama_gauntlet.py [--games 200] [--nodes 50000 | --depth 6]
                                              [--old-nodes N] [--jobs 2] [--out FILE]
                                              [--sprt 0,30] [--alpha 0.05] [--beta 0.05]
                                              [--no-sprt] [--minutes M]

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
interval's ends, and the mean nodes per move of each side. ``--minutes M`` stops playing
after M minutes (the game in play is dropped; the next run goes on).

SPRT: after each finished pair of games (one deal, both seats) the run tests H0 "today's bot
is ``elo0`` Elo stronger" against H1 "``elo1`` stronger" (``--sprt elo0,elo1``, 0,30 by
default) with error rates ``--alpha`` and ``--beta`` (0.05): the log-likelihood ratio of the
pair scores (the normal approximation of the generalised SPRT, on pairs so that the deal's
own bias cancels; the variance of a pair score is floored at 0.01 so a few equal pairs do
not decide), from at least 8 pairs. It stops at the first bound crossed, or at ``--games``;
a finished run prints its decision again. ``--no-sprt`` plays every game.
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

from _match_stats import elo, wilson

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


def logistic(elo_diff: float) -> float:
    return 1 / (1 + 10 ** (-elo_diff / 400))


MIN_PAIRS = 8
PAIR_VARIANCE_FLOOR = 0.01


def pair_scores(done: dict[int, dict], games: int) -> list[float]:
    """The mean score of each deal whose two games are both finished (games 2k and 2k + 1)."""
    return [
        (done[i]["score"] + done[i + 1]["score"]) / 2 for i in range(0, games - 1, 2) if i in done and i + 1 in done
    ]


def sprt(pairs: list[float], elo0: float, elo1: float, alpha: float, beta: float) -> tuple[float, float, float, str]:
    """(LLR, lower bound, upper bound, decision): "H1" (at least elo1), "H0" (at most elo0) or ""."""
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    n = len(pairs)
    if n < 2:
        return 0.0, lower, upper, ""
    mean = sum(pairs) / n
    variance = max(PAIR_VARIANCE_FLOOR, sum((x - mean) ** 2 for x in pairs) / n)
    s0, s1 = logistic(elo0), logistic(elo1)
    llr = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)
    decision = "" if n < MIN_PAIRS else ("H1" if llr >= upper else "H0" if llr <= lower else "")
    return llr, lower, upper, decision


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games in all (even: pairs of seats)")
    parser.add_argument("--nodes", type=int, default=50_000)
    parser.add_argument("--old-nodes", type=int, default=None, help="the frozen bot's budget (default: --nodes)")
    parser.add_argument("--depth", type=int, default=0, help="fixed depth for both instead of a node budget")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", default=None, help="JSON-lines file of finished games (resumable)")
    parser.add_argument("--sprt", default="0,30", help="elo0,elo1 of the SPRT (H0: elo0, H1: elo1)")
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--no-sprt", action="store_true", help="play every game, whatever the SPRT says")
    parser.add_argument("--minutes", type=float, default=None, help="stop playing after this long (resumable)")
    args = parser.parse_args()
    elo0, elo1 = (float(x) for x in args.sprt.split(","))
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

    def decided() -> str:
        return "" if args.no_sprt else sprt(pair_scores(done, args.games), elo0, elo1, args.alpha, args.beta)[3]

    start = time.monotonic()
    stopped = ""
    if decided():
        todo = []
    if todo:
        with open(out, "a", encoding="utf-8") as handle, Pool(args.jobs) as pool:
            for row in pool.imap_unordered(play, todo):
                done[row["index"]] = row
                handle.write(json.dumps(row) + "\n")
                handle.flush()
                if row["index"] ^ 1 in done:
                    llr, lower, upper, _ = sprt(pair_scores(done, args.games), elo0, elo1, args.alpha, args.beta)
                    print(
                        "  %d games, score %.3f, LLR %.2f [%.2f, %.2f], %.0f s"
                        % (
                            len(done),
                            sum(r["score"] for r in done.values()) / len(done),
                            llr,
                            lower,
                            upper,
                            time.monotonic() - start,
                        ),
                        flush=True,
                    )
                if decided():
                    stopped = "the SPRT decided"
                    break
                if args.minutes is not None and time.monotonic() - start > 60 * args.minutes:
                    stopped = "time is up (--minutes): run again to go on"
                    break
            pool.terminate()
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
        "[95%% %.1f%%, %.1f%%], Elo %s [%s, %s]; nodes a move: today %.0f, frozen %.0f; %.0f s"
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
    pairs = pair_scores(done, args.games)
    llr, lower, upper, decision = sprt(pairs, elo0, elo1, args.alpha, args.beta)
    verdict = {"H1": "H1 accepted (at least %+g Elo)" % elo1, "H0": "H0 accepted (at most %+g Elo)" % elo0}
    print(
        "SPRT elo0 %+g elo1 %+g alpha %g beta %g on %d pairs: LLR %.2f, bounds [%.2f, %.2f]: %s%s"
        % (
            elo0,
            elo1,
            args.alpha,
            args.beta,
            len(pairs),
            llr,
            lower,
            upper,
            verdict.get(decision, "undecided"),
            "; stopped: " + stopped if stopped else "",
        ),
        flush=True,
    )


if __name__ == "__main__":
    main()
