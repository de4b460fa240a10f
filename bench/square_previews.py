"""Benchmark: the previews of one square, as the Maatatahay board asks for them (issue 15).

When a player chooses a space, the board fetches the previews of the moves on it
(``games.views.game_previews``). This visits the placements of random games of both
variants and times, for the square with the most moves of each decision (the worst a
click can ask for) and for a median square:

* ``all``: every preview of the position, then filtered to the square (what the
  endpoint did before: ``RULES.move_previews``);
* ``square``: the previews of that square only (``RULES.move_previews_at``).

Measured numbers only (best of 3 per decision, medians and maxima over decisions); run
it on an otherwise idle core:

    .venv/bin/python bench/square_previews.py [games per variant]

>>> r = run(games=1)
>>> r["decisions"] > 0
True
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections import Counter
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.fair import SeedStream  # noqa: E402
from engine.maatatahay import RULES  # noqa: E402


def _best(call: Any, *args: Any, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        call(*args)
        best = min(best, time.perf_counter() - start)
    return best * 1000


def _filtered(state: Any, square: str) -> list[Any]:
    return [p for p in RULES.move_previews(state) if RULES.move_parts(p.move).get("square") == square]


def run(games: int = 20) -> dict[str, Any]:
    rows: dict[str, list[float]] = {"all": [], "square": [], "median_square": []}
    for variant in ("first", "standard"):
        for seed in range(games):
            state = RULES.new_game(seed, {"variant": variant})
            stream = SeedStream(seed, "bench/square-previews")
            while RULES.outcome(state) is None:
                if RULES.decision(state) == "place":
                    counts = Counter(RULES.move_parts(m).get("square") for m in RULES.legal_moves(state))
                    ranked = sorted(counts, key=lambda sq: counts[sq])
                    busiest, median = ranked[-1], ranked[len(ranked) // 2]
                    rows["all"].append(_best(_filtered, state, busiest))
                    rows["square"].append(_best(RULES.move_previews_at, state, busiest))
                    rows["median_square"].append(_best(RULES.move_previews_at, state, median))
                state = RULES.apply(state, RULES.random_move(state, stream))
    return {
        "decisions": len(rows["all"]),
        **{key: (statistics.median(v), max(v)) for key, v in rows.items() if v},
    }


def report(games: int = 20) -> None:
    r = run(games)
    print("maatatahay previews of one square, %d random games per variant, %d placements:" % (games, r["decisions"]))
    print("  every preview, filtered (before): median %6.2f ms, max %6.2f ms" % r["all"])
    print("  busiest square only (after):      median %6.2f ms, max %6.2f ms" % r["square"])
    print("  a median square only (after):     median %6.2f ms, max %6.2f ms" % r["median_square"])


if __name__ == "__main__":
    report(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
