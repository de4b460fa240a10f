"""Maatatahay gauntlet: today's bot against the frozen bot of before issue 18 (and greedy).

    .venv/bin/python bench/maatatahay_gauntlet.py [--new 5] [--old f4|f5|greedy|random|1..5]
                                                 [--games 40] [--scale 1] [--jobs 1]
                                                 [--set FIELD=VALUE,...] [--out FILE] [--minutes M]

Players: ``1``..``5`` are today's levels (``engine.bots.maatatahay.LEVELS``); ``f1``..``f5``
are the levels of the frozen copy ``bench/frozen/maatatahay_v1.py`` (bot version
maatatahay-1, loaded beside today's under another module name; the rules are shared);
``greedy`` is the frozen bot's one-ply heuristic ranking with no noise (its level 1 without
noise: the legal move after which the frozen heuristic margin is best for the mover, ties
broken by a seeded shuffle; it sees only its view); ``random`` plays uniformly random legal
moves. Every player but ``random`` sees only its own view (``view(state, player)``, checked).

Deals: game ``i`` is played on deal ``5000 + i // 2`` (even deals: the First Game with opening
``1 + deal % 4``; odd: the Standard Game), with ``--new`` seated as the first player in even
games and as the second in odd ones, so each deal is played from both seats. Every move reads
its own seed (game number and ply). Budgets are iteration counts (``--scale`` multiplies
them), so a game's result does not depend on the machine's load. ``--set`` changes fields of
today's ``--new`` level for a tuning run (``--set iterations=2000,rollout=4``: any field of
``MLevel``); the settings are part of the results file's name.

Resumable: every finished game is appended to ``--out`` (JSON lines), by default
``bench/.maatatahay_gauntlet_<new>-<old>_s<scale>_<version>.jsonl`` where ``<version>`` is
today's ``bot_version("maatatahay")``: a change to today's bot starts a new file, so results
of two versions never mix. ``--minutes M`` stops after M minutes (the next run goes on).

It prints the score of ``--new`` (wins + draws / 2) with its 95 % Wilson interval, the Elo
difference with the interval's ends, the plies per game, and each side's time per decision
(mean over all its decisions, forced ones included, and the mean over decisions with a
choice, with the largest).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time
from multiprocessing import Pool

from _match_stats import elo, wilson

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

MAX_PLIES = 400
FIRST_DEAL = 5000


def frozen():
    """The frozen bot (maatatahay-1) as ``engine.bots._frozen_maatatahay_v1``."""
    name = "engine.bots._frozen_maatatahay_v1"
    if name in sys.modules:
        return sys.modules[name]
    import engine.bots  # noqa: F401  (the package its relative imports use)

    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, "bench", "frozen", "maatatahay_v1.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def make_player(name: str, scale: float, settings: str = ""):
    """(full state, seed) -> (move text, had a choice); the player sees only its view."""
    from engine.bots import maatatahay as today
    from engine.fair import SeedStream
    from engine.maatatahay import RULES as S
    from engine.maatatahay import rules as R
    from engine.maatatahay.moves import move_text

    if name == "random":

        def random_player(state, seed):
            return move_text(R.random_move(state, SeedStream(seed, "bench/random"))), R.move_count(state) > 1

        return random_player
    if name == "greedy":
        old = frozen()

        def greedy(state, seed):
            view = S.view(state, S.to_move(state))
            old.check_view(view)
            stream = SeedStream(seed, "bench/greedy")
            sample = S.sample_state(view, stream)
            moves = R.legal_moves(sample)
            stream.shuffle(moves)
            ranked, _ = old.root_ranking(sample, moves, stream, 0.0)
            return move_text(ranked[0]), len(moves) > 1

        return greedy
    module = frozen() if name.startswith("f") else today
    level = module.scaled_levels(scale)[int(name.lstrip("f"))]
    if settings:
        from dataclasses import fields, replace

        types = {f.name: f.type for f in fields(level)}
        changes = {}
        for item in settings.split(","):
            field, _, value = item.partition("=")
            changes[field] = float(value) if types[field] in ("float", float) else int(value)
        level = replace(level, **changes)

    def bot(state, seed):
        view = S.view(state, S.to_move(state))
        module.check_view(view)
        r = module.search_view(view, level=level, seed=seed)
        return r.text, bool(r.visits) or r.iterations > 0 or len(R.legal_moves(state)) > 1

    return bot


_PLAYERS: dict = {}


def play(task):
    index, new_name, old_name, scale, settings = task
    from engine import get_game

    rules = get_game("maatatahay")
    key = (new_name, old_name, scale, settings)
    if key not in _PLAYERS:
        _PLAYERS[key] = (make_player(new_name, scale, settings), make_player(old_name, scale))
    new, old = _PLAYERS[key]
    deal = FIRST_DEAL + index // 2
    options = {"variant": "first", "opening": 1 + deal % 4} if deal % 2 == 0 else {"variant": "standard"}
    state = rules.new_game(deal, options)
    new_side = rules.players[index % 2]
    plies = 0
    # per side: [decisions, seconds, decisions with a choice, their seconds, largest]
    clock = {"new": [0, 0.0, 0, 0.0, 0.0], "old": [0, 0.0, 0, 0.0, 0.0]}
    while rules.outcome(state) is None and plies < MAX_PLIES:
        who = "new" if rules.to_move(state) == new_side else "old"
        start = time.perf_counter()
        text, choice = (new if who == "new" else old)(state, (index << 16) + plies)
        spent = time.perf_counter() - start
        c = clock[who]
        c[0] += 1
        c[1] += spent
        if choice:
            c[2] += 1
            c[3] += spent
            c[4] = max(c[4], spent)
        state = rules.apply(state, rules.parse_move(state, text))
        plies += 1
    outcome = rules.outcome(state)
    score = 0.5 if outcome is None or outcome.winner is None else (1.0 if outcome.winner == new_side else 0.0)
    return {"index": index, "score": score, "plies": plies, "clock": clock}


def report(rows: list[dict], label: str, seconds: float) -> None:
    n = len(rows)
    if not n:
        print("%s: no game finished" % label, flush=True)
        return
    p = sum(r["score"] for r in rows) / n
    lo, hi = wilson(p, n)
    wins = sum(r["score"] == 1.0 for r in rows)
    draws = sum(r["score"] == 0.5 for r in rows)

    def timing(who: str) -> str:
        d = sum(r["clock"][who][0] for r in rows)
        s = sum(r["clock"][who][1] for r in rows)
        dc = sum(r["clock"][who][2] for r in rows)
        sc = sum(r["clock"][who][3] for r in rows)
        top = max(r["clock"][who][4] for r in rows)
        return "%.3f s/decision (%d), %.3f s/choice (%d), max %.2f s" % (
            s / max(1, d),
            d,
            sc / max(1, dc),
            dc,
            top,
        )

    print(
        "%s: %d games, won %d drawn %d lost %d, score %.1f%% [95%% %.1f%%, %.1f%%], Elo %s [%s, %s]; "
        "%.0f plies/game; %.0f s/game; this run %.0f s"
        % (
            label,
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
            sum(r["plies"] for r in rows) / n,
            sum(r["clock"]["new"][1] + r["clock"]["old"][1] for r in rows) / n,
            seconds,
        ),
        flush=True,
    )
    print("  new: %s" % timing("new"), flush=True)
    print("  old: %s" % timing("old"), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--new", default="5", help="today's level (1..5) or any player")
    parser.add_argument("--old", default="f4", help="f1..f5 (frozen), greedy, random or today's 1..5")
    parser.add_argument("--games", type=int, default=40, help="games in all (even: both seats per deal)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every level's iterations")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--set", default="", help="FIELD=VALUE,... changes to today's --new level (tuning)")
    parser.add_argument("--out", default=None, help="JSON-lines file of finished games (resumable)")
    parser.add_argument("--minutes", type=float, default=None, help="stop playing after this long (resumable)")
    args = parser.parse_args()
    from engine.bots import bot_version

    version = bot_version("maatatahay")
    key = "%s%s-%s_s%g_%s" % (args.new, ("[%s]" % args.set) if args.set else "", args.old, args.scale, version)
    out = args.out or os.path.join(ROOT, "bench", ".maatatahay_gauntlet_%s.jsonl" % key)
    done: dict[int, dict] = {}
    if os.path.exists(out):
        with open(out, encoding="utf-8") as handle:
            for line in handle:
                row = json.loads(line)
                done[row["index"]] = row
    todo = [(i, args.new, args.old, args.scale, args.set) for i in range(args.games) if i not in done]
    print(
        "maatatahay gauntlet %s (today's bot %s): %d games done, %d to play (%s)"
        % (key, version, len(done), len(todo), out),
        flush=True,
    )
    start = time.monotonic()
    stopped = ""
    if todo:
        with open(out, "a", encoding="utf-8") as handle:
            if args.jobs > 1:
                pool = Pool(args.jobs)
                results = pool.imap_unordered(play, todo)
            else:
                pool = None
                results = map(play, todo)
            for row in results:
                done[row["index"]] = row
                handle.write(json.dumps(row) + "\n")
                handle.flush()
                rows = list(done.values())
                print(
                    "  game %d: %s, %d games, score %.3f, %.0f s"
                    % (
                        row["index"],
                        {1.0: "won", 0.5: "drawn", 0.0: "lost"}[row["score"]],
                        len(rows),
                        sum(r["score"] for r in rows) / len(rows),
                        time.monotonic() - start,
                    ),
                    flush=True,
                )
                if args.minutes is not None and time.monotonic() - start > 60 * args.minutes:
                    stopped = " (stopped: time is up, run again to go on)"
                    break
            if pool is not None:
                pool.terminate()
    rows = [done[i] for i in sorted(done) if i < args.games]
    label = "level %s%s against %s (scale %g)%s" % (
        args.new,
        " [%s]" % args.set if args.set else "",
        args.old,
        args.scale,
        stopped,
    )
    report(rows, label, time.monotonic() - start)


if __name__ == "__main__":
    main()
