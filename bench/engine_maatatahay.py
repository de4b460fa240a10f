"""Benchmark: uniformly random complete Maatatahay games per second, per variant.

Each game is exactly what ``python -m engine random-game maatatahay`` plays
(``engine.core.random_game``: setup from the seed, ``random_move``,
``move_text``, ``apply`` and ``outcome`` at every decision). Measured numbers
only; run it on an otherwise idle core:

    .venv/bin/python bench/engine_maatatahay.py [seconds per variant]

>>> r = run(seconds=0.05)
>>> sorted(r), all(v["games"] >= 1 for v in r.values())
(['first', 'standard'], True)
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.core import random_game  # noqa: E402
from engine.maatatahay import RULES  # noqa: E402


def run(seconds: float = 3.0) -> dict[str, dict[str, float]]:
    """Play random games of each variant for about ``seconds`` each.

    Returns per variant: games played, decisions, elapsed seconds, games/s.
    """
    out: dict[str, dict[str, float]] = {}
    for variant in ("first", "standard"):
        games = decisions = 0
        seed = 0
        start = time.perf_counter()
        while True:
            moves, _state = random_game(RULES, seed, {"variant": variant})
            games += 1
            decisions += len(moves)
            seed += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                break
        out[variant] = {"games": games, "decisions": decisions, "seconds": elapsed, "games_per_second": games / elapsed}
    return out


def report(seconds: float = 3.0) -> None:
    """Print random complete games per second for each variant (one core)."""
    print("maatatahay random complete games, one core, about %.0f s per variant:" % seconds)
    for variant, r in run(seconds).items():
        print(
            "  %-8s %7.1f games/s  (%d games, %.1f decisions/game, %.2f s)"
            % (variant, r["games_per_second"], r["games"], r["decisions"] / r["games"], r["seconds"])
        )


if __name__ == "__main__":
    report(float(sys.argv[1]) if len(sys.argv) > 1 else 3.0)
