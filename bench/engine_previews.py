"""Benchmark: the time and size of every legal move's preview, per decision (issue 15).

The game page computes ``RULES.move_previews`` for the player to move at each load
(``games.selectors.game_for_viewer``). This visits every decision of random games of
both Maatatahay variants and reports, for the typical (median) and the largest
decisions (and the slowest), the number of legal moves, the milliseconds to list them, the
milliseconds to preview them, and the size of the previews as JSON (raw and
gzipped, as a page or endpoint would send them). Measured numbers only; run it on
an otherwise idle core:

    .venv/bin/python bench/engine_previews.py [games per variant]

>>> r = run(games=1)
>>> r["decisions"] > 0 and r["largest"]["moves"] >= r["median"]["moves"] > 0
True
"""

from __future__ import annotations

import gzip
import json
import os
import statistics
import sys
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.fair import SeedStream  # noqa: E402
from engine.maatatahay import RULES  # noqa: E402


def _measure(state: Any, repeat: int = 3) -> dict[str, Any]:
    """One decision: the best of ``repeat`` timings (the others are other processes' noise)."""
    list_s = preview_s = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        moves = RULES.legal_moves(state)
        listed = time.perf_counter()
        previews = RULES.move_previews(state)
        done = time.perf_counter()
        list_s, preview_s = min(list_s, listed - start), min(preview_s, done - listed)
    data = json.dumps(
        [{"text": RULES.move_text(p.move), "preview": p.effects} for p in previews], separators=(",", ":")
    ).encode()
    return {
        "moves": len(moves),
        "list_ms": list_s * 1000,
        "preview_ms": preview_s * 1000,
        "json_kb": len(data) / 1024,
        "gzip_kb": len(gzip.compress(data)) / 1024,
    }


def run(games: int = 100) -> dict[str, Any]:
    """Every decision of ``games`` random games per variant: the median placement (by
    number of moves), the 90th percentile placement, the largest decision and the slowest."""
    rows = []
    for variant in ("first", "standard"):
        for seed in range(games):
            state = RULES.new_game(seed, {"variant": variant})
            stream = SeedStream(seed, "bench/previews")
            while RULES.outcome(state) is None:
                row = _measure(state)
                row["placement"] = RULES.decision(state) in ("place", "finish")
                rows.append(row)
                state = RULES.apply(state, RULES.random_move(state, stream))
    rows.sort(key=lambda row: (row["moves"], row["preview_ms"]))
    placements = [row for row in rows if row["placement"]]
    return {
        "decisions": len(rows),
        "median": placements[len(placements) // 2],
        "p90": placements[len(placements) * 9 // 10],
        "largest": rows[-1],
        "slowest": max(rows, key=lambda row: row["preview_ms"]),
        "mean_preview_ms": statistics.fmean(row["preview_ms"] for row in rows),
    }


def report(games: int = 100) -> None:
    """Print the figures of ``run``."""
    r = run(games)
    print("maatatahay move previews, %d random games per variant, %d decisions, one core:" % (games, r["decisions"]))
    for label in ("median", "p90", "largest", "slowest"):
        row = r[label]
        print(
            "  %-8s %4d moves: list %6.2f ms, previews %6.2f ms, JSON %7.1f KB (gzip %5.1f KB)"
            % (label, row["moves"], row["list_ms"], row["preview_ms"], row["json_kb"], row["gzip_kb"])
        )
    print("  mean previews per decision %.2f ms" % r["mean_preview_ms"])


if __name__ == "__main__":
    report(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
