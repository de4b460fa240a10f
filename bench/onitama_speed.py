"""Onitama search speed: nodes per second and depth reached, by piece count, and node
counts at a fixed depth (load-independent).

    .venv/bin/python bench/onitama_speed.py [--seconds 2] [--deals 16] [--per-bucket 12]
                                            [--fixed-depth 6] [--root DIR]

Positions (the same for every revision, built by the rules only):

- ``opening``: the opening position of each of ``--deals`` random deals of the 16 base
  cards (``new_game(seed)``, seeds 1..N);
- ``8-10``, ``5-7``, ``2-4`` pieces on the board: positions reached by seeded random play
  from further random deals, where the side to move cannot win at once. A search that
  ends before 90 % of its time (a proven result) is counted as "proven early" and left out
  of the speed and depth figures.

Each position is searched once in time-only mode (``seconds``: no node cap) with a
level of no noise; the bench prints, per group, the total nodes over the total wall
seconds (and CPU seconds), the median depth completed and the time per move (median,
p99, max). Then every opening position is searched to ``--fixed-depth`` plies with no
time limit: the node counts do not depend on the machine's load (they change only
with the search itself). A node is one call of the alpha-beta or quiescence search
(as counted by the bot's ``nodes``).

``--clock cpu`` makes the search's time limit read this process's CPU time instead of the
wall clock: on a loaded machine that shows what an idle core would reach in that time
(``wall`` figures then drop with the load; ``CPU`` nodes per second stay).

``--cli`` times the command line instead, as an outside match calls it: one
``python -m engine bot-move onitama --position <text> --level 5 --seconds S`` process per
position (this Python, from ``--root``), its wall time from start to exit (median, p99,
max, and the p99 as a multiple of S), per group and over all.

``--root DIR`` imports the engine from another checkout (``git worktree add /tmp/old
<rev>``, then ``--root /tmp/old``) to measure an older revision with the same positions.
The machine is shared: ``uptime`` is printed with the figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time


def _uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, timeout=5).stdout.strip()
    except OSError:
        return "(uptime unavailable)"


def positions(deals: int, per_bucket: int):
    from engine import get_game
    from engine.fair import SeedStream

    rules = get_game("onitama")
    groups: dict[str, list] = {"opening": [rules.new_game(seed, {"cards": "base"}) for seed in range(1, deals + 1)]}
    buckets = {"8-10": (8, 10), "5-7": (5, 7), "2-4": (2, 4)}
    for name in buckets:
        groups[name] = []
    seed = 5000
    while any(len(groups[name]) < per_bucket for name in buckets):
        seed += 1
        stream = SeedStream(seed, "bench/onitama-speed")
        state = rules.new_game(seed, {"cards": "base"})
        target = stream.below(40)
        for _ in range(target):
            if rules.outcome(state) is not None:
                break
            state = rules.apply(state, rules.random_move(state, stream))
        if rules.outcome(state) is not None or _wins_at_once(rules, state):
            continue
        pieces = (state.red | state.blue).bit_count()
        for name, (lo, hi) in buckets.items():
            if lo <= pieces <= hi and len(groups[name]) < per_bucket:
                groups[name].append(state)
    return groups


def _wins_at_once(rules, state) -> bool:
    for move in rules.legal_moves(state):
        outcome = rules.outcome(rules.apply(state, move))
        if outcome is not None and outcome.winner == rules.to_move(state):
            return True
    return False


def search(ob, state, *, seconds: float | None, max_depth: int):
    import inspect

    timed = {"time_only": True} if "time_only" in inspect.signature(ob.search_position).parameters else {}
    start_cpu = time.process_time()
    r = ob.search_position(
        state.red,
        state.blue,
        state.red_master,
        state.blue_master,
        state.red_hand,
        state.blue_hand,
        state.side,
        state.turn,
        level=ob.Level(10**12, max_depth, 0),
        seed=0,
        seconds=seconds,
        **(timed if seconds is not None else {}),
    )
    return r, time.process_time() - start_cpu


def _quantiles(times: list[float]) -> tuple[float, float, float]:
    ordered = sorted(times)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], ordered[-1]


def cli_times(groups, seconds: float, root: str) -> None:
    """Wall time of the command line's process per position (start to exit)."""
    from engine.onitama import position_text

    print("command line, --seconds %.2f, a process per position; %s" % (seconds, _uptime()), flush=True)
    every: list[float] = []
    for name, states in groups.items():
        times = []
        for state in states:
            command = [sys.executable, "-m", "engine", "bot-move", "onitama", "--position", position_text(state)]
            command += ["--level", "5", "--seconds", repr(seconds)]
            start = time.monotonic()
            subprocess.run(command, cwd=root, check=True, capture_output=True)
            times.append(time.monotonic() - start)
        every += times
        median, p99, top = _quantiles(times)
        print("  %-8s %3d positions  time/move median %.3f p99 %.3f max %.3f s" % (name, len(times), median, p99, top))
    median, p99, top = _quantiles(every)
    print(
        "  all      %3d positions  time/move median %.3f p99 %.3f (%.3fx the limit) max %.3f s; %s"
        % (len(every), median, p99, p99 / seconds, top, _uptime()),
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per position (time-only mode)")
    parser.add_argument("--deals", type=int, default=16)
    parser.add_argument("--per-bucket", type=int, default=12)
    parser.add_argument("--fixed-depth", type=int, default=6, help="0: skip the fixed-depth counts")
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="what the search's time limit reads: wall time, or this process's CPU time (what an "
        "idle core would give, on a loaded machine)",
    )
    parser.add_argument("--cli", action="store_true", help="time the command line's processes instead")
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    args = parser.parse_args()
    if args.clock == "cpu":
        time.monotonic = time.process_time  # the search's deadline (both builds read time.monotonic)
    sys.path.insert(0, os.path.abspath(args.root))
    from engine.bots import onitama as ob

    build = "compiled" if not getattr(ob, "__file__", "").endswith(".py") else "pure Python"
    print("onitama search speed (%s, %s): %s" % (os.path.abspath(args.root), build, ob.__file__), flush=True)
    groups = positions(args.deals, args.per_bucket)
    if args.cli:
        cli_times(groups, args.seconds, os.path.abspath(args.root))
        return
    print("time-only mode, %.2f s (%s clock) a position; %s" % (args.seconds, args.clock, _uptime()), flush=True)
    for name, states in groups.items():
        nodes = wall = cpu = 0.0
        depths, times, decided = [], [], 0
        for state in states:
            r, c = search(ob, state, seconds=args.seconds, max_depth=64)
            times.append(r.seconds)
            if r.seconds < 0.9 * args.seconds:
                decided += 1  # a proven result stopped the search early: no speed or depth figure
                continue
            nodes += r.nodes
            wall += r.seconds
            cpu += c
            depths.append(r.depth)
        times.sort()
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        print(
            "  %-8s %3d positions (%2d proven early)  %8.0f nodes/s wall  %8.0f nodes/s CPU  "
            "median depth %4.1f (min %d, max %d)  time/move median %.2f p99 %.2f max %.2f s"
            % (
                name,
                len(states),
                decided,
                nodes / max(wall, 1e-9),
                nodes / max(cpu, 1e-9),
                statistics.median(depths) if depths else 0,
                min(depths, default=0),
                max(depths, default=0),
                statistics.median(times),
                p99,
                times[-1],
            ),
            flush=True,
        )
    print("  after the timed runs: %s" % _uptime(), flush=True)
    if args.fixed_depth > 0:
        total = 0
        cpu = 0.0
        counts = []
        for state in groups["opening"]:
            r, c = search(ob, state, seconds=None, max_depth=args.fixed_depth)
            total += r.nodes
            cpu += c
            counts.append(r.nodes)
        print(
            "fixed depth %d from the %d openings: %d nodes in all (median %d a position), %.0f nodes/s CPU; %s"
            % (args.fixed_depth, len(counts), total, statistics.median(counts), total / max(cpu, 1e-9), _uptime()),
            flush=True,
        )


if __name__ == "__main__":
    main()
