"""Bot strength and speed: matches with win rates, 95% Wilson intervals and Elo differences.

    .venv/bin/python bench/bots.py [--game onitama|maatatahay|both] [--games N]
                                   [--pairs 2-1,3-2,4-3,5-4,5-random,5-greedy]
                                   [--scale F] [--jobs J] [--speed-seconds S]

A pairing ``A-B`` plays ``--games`` games of A against B. Players: ``1``..``5``
(the bot levels of ``engine.bots``), ``random`` (uniformly random legal moves)
and ``greedy`` (one ply: wins at once if it can, else plays the move after which
the bot's static evaluation (Onitama) or the heuristic score (Maatatahay) is best for it,
ties broken at random). Games come in pairs on the same deal with the seats swapped,
so each deal is played from both sides (alternating seats and dealt cards).
Every bot move reads its own seed (from the game number and ply), so a game can be replayed.

``--scale F`` multiplies every level's budget (nodes, MCTS iterations) by F,
for quick runs; the printed header names the budgets actually used.
Score = wins + draws / 2 (draws: repetition, or the ply cap); the interval is the
Wilson score interval on that rate; Elo = 400 log10(score / (1 - score)).

Finally (Onitama): search speed (nodes per second) and the depth completed in
``--speed-seconds`` (2 by default) from perft position 1.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import replace
from multiprocessing import Pool

from _match_stats import elo, wilson

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from engine import get_game  # noqa: E402
from engine.fair import SeedStream  # noqa: E402

PERFT1 = "bbBbb/5/5/5/rrRrr boar,ox elephant,horse crab r"
MAX_PLIES = {"onitama": 200, "maatatahay": 400}
DEFAULT_PAIRS = "2-1,3-2,4-3,5-4,5-random,5-greedy"


# --- players --------------------------------------------------------------------------------


def onitama_levels(scale: float):
    from engine.bots import ONITAMA_LEVELS

    return {k: replace(v, nodes=max(50, int(v.nodes * scale))) for k, v in ONITAMA_LEVELS.items()}


def onitama_player(name: str, scale: float):
    rules = get_game("onitama")
    from engine.bots import onitama as ob

    if name == "random":
        return lambda state, seed: rules.move_text(rules.random_move(state, SeedStream(seed, "bench/random")))
    if name == "greedy":
        evaluate = ob.make_evaluator(ob.DEFAULT_WEIGHTS)

        def greedy(state, seed):
            col = state.turn
            own, opp = (state.red, state.blue) if col == 0 else (state.blue, state.red)
            om, pm = (state.red_master, state.blue_master) if col == 0 else (state.blue_master, state.red_master)
            hand, ohand = (state.red_hand, state.blue_hand) if col == 0 else (state.blue_hand, state.red_hand)
            n = (own, opp, om, pm, hand[0], hand[1], ohand[0], ohand[1], state.side, col)
            wins = ob.Searcher.winning_moves(own, om, pm, hand[0], hand[1], col)
            if wins:
                return ob.move_text(wins[0])
            stream = SeedStream(seed, "bench/greedy")
            best, best_key = None, None
            for m in ob.Searcher(max_nodes=1).moves(own, hand[0], hand[1], col):
                c = ob.play(*n, 0, m)
                key = (-evaluate(*c[:10]), stream.below(1 << 30))
                if best_key is None or key > best_key:
                    best, best_key = m, key
            return ob.move_text(best)

        return greedy
    levels = onitama_levels(scale)
    level = levels[int(name)]

    def bot(state, seed):
        r = ob.search_position(
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
        return r.text

    return bot


def maatatahay_player(name: str, scale: float):
    from engine.bots import maatatahay as mb

    return mb.bench_player(name, scale)


def make_player(game: str, name: str, scale: float):
    return (onitama_player if game == "onitama" else maatatahay_player)(name, scale)


# --- games ----------------------------------------------------------------------------------

_CACHE: dict = {}


def play_game(task):
    """One game: (game, A, B, scale, index) -> (index, score of A, plies, seconds)."""
    game, a, b, scale, index = task
    rules = get_game(game)
    key = (game, a, b, scale)
    if key not in _CACHE:
        _CACHE[key] = (make_player(game, a, scale), make_player(game, b, scale))
    pa, pb = _CACHE[key]
    deal = 1000 + index // 2
    options = (
        {"cards": "base"}
        if game == "onitama"
        else {"variant": ("first", "standard")[deal % 2], **({"opening": 1 + deal % 4} if deal % 2 == 0 else {})}
    )
    state = rules.new_game(deal, options)
    a_player = rules.players[index % 2]
    start = time.monotonic()
    plies = 0
    while rules.outcome(state) is None and plies < MAX_PLIES[game]:
        mover = rules.to_move(state)
        player = pa if mover == a_player else pb
        text = player(state, (index << 16) + plies)
        state = rules.apply(state, rules.parse_move(state, text))
        plies += 1
    outcome = rules.outcome(state)
    if outcome is None or outcome.winner is None:
        score = 0.5
    else:
        score = 1.0 if outcome.winner == a_player else 0.0
    return index, score, plies, time.monotonic() - start


def run_pair(game: str, pair: str, games: int, scale: float, jobs: int) -> dict:
    a, b = pair.split("-")
    tasks = [(game, a, b, scale, i) for i in range(games)]
    start = time.monotonic()
    if jobs > 1:
        with Pool(jobs) as pool:
            results = pool.map(play_game, tasks, chunksize=1)
    else:
        results = [play_game(t) for t in tasks]
    scores = [r[1] for r in results]
    wins = sum(1 for s in scores if s == 1.0)
    draws = sum(1 for s in scores if s == 0.5)
    p = sum(scores) / len(scores)
    lo, hi = wilson(p, len(scores))
    plies = sum(r[2] for r in results) / len(results)
    print(
        "%-10s %-9s games %4d  won %4d drawn %3d lost %4d  score %5.1f%%  "
        "95%% CI [%5.1f%%, %5.1f%%]  Elo %5s  (%.0f plies/game, %.0fs)"
        % (
            game,
            pair,
            len(scores),
            wins,
            draws,
            len(scores) - wins - draws,
            100 * p,
            100 * lo,
            100 * hi,
            elo(p),
            plies,
            time.monotonic() - start,
        ),
        flush=True,
    )
    return {"pair": pair, "games": len(scores), "score": p, "ci": (lo, hi)}


def onitama_speed(seconds: float) -> None:
    from engine.bots import onitama as ob
    from engine.onitama import position_from_text

    s = position_from_text(PERFT1)
    r = ob.search_position(
        s.red,
        s.blue,
        s.red_master,
        s.blue_master,
        s.red_hand,
        s.blue_hand,
        s.side,
        s.turn,
        level=ob.Level(10**9, 64, 0),
        seed=0,
        seconds=seconds,
        time_only=True,
    )
    print(
        "onitama search from perft position 1: %d nodes in %.2fs = %.0f nodes/s, depth %d "
        "completed, move %s" % (r.nodes, r.seconds, r.nodes / r.seconds, r.depth, r.text),
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("onitama", "maatatahay", "both"), default="both")
    parser.add_argument("--games", type=int, default=100, help="games per pairing (even)")
    parser.add_argument(
        "--pairs", default=DEFAULT_PAIRS, help="comma-separated pairings A-B (levels 1-5, random, greedy)"
    )
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every level budget")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (2 cores here)")
    parser.add_argument("--speed-seconds", type=float, default=2.0, help="Onitama speed test length (0: skip)")
    args = parser.parse_args()
    games = ["onitama", "maatatahay"] if args.game == "both" else [args.game]
    if "onitama" in games and args.speed_seconds > 0:
        onitama_speed(args.speed_seconds)
    for game in games:
        if game == "onitama":
            budgets = ", ".join("L%d %d nodes" % (k, v.nodes) for k, v in onitama_levels(args.scale).items())
        else:
            from engine.bots import maatatahay as mb

            budgets = mb.budget_text(args.scale)
        print("%s budgets (scale %g): %s" % (game, args.scale, budgets), flush=True)
        for pair in args.pairs.split(","):
            run_pair(game, pair.strip(), args.games, args.scale, args.jobs)


if __name__ == "__main__":
    main()
