"""Time of Swiss pairing (tournaments.pairing.swiss_pair, a networkx maximum-weight
matching) by player count, over whole simulated Swiss tournaments of ceil(log2 n)
rounds with random results; no database.

    .venv/bin/python bench/tournaments_pairing.py [--players 16 64 128 256] [--seed 1]

Prints, per player count, the rounds paired, the mean and the slowest round (ms).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing import SwissPlayer, swiss_pair  # noqa: E402


def simulate(n: int, rng: random.Random) -> list[float]:
    state = {i: {"score": 0, "opp": set(), "bye": False, "bal": 0, "last": None} for i in range(n)}
    timings = []
    for _ in range(max(1, math.ceil(math.log2(n)))):
        players = [
            SwissPlayer(
                id=i,
                score=s["score"],
                seed=i + 1,
                opponents=frozenset(s["opp"]),
                had_bye=s["bye"],
                seat_balance=s["bal"],
                last_seat=s["last"],
            )
            for i, s in state.items()
        ]
        started = time.perf_counter()
        paired = swiss_pair(players)
        timings.append(time.perf_counter() - started)
        if paired.bye is not None:
            state[paired.bye]["score"] += 2
            state[paired.bye]["bye"] = True
        for a, b in paired.pairs:
            pa, pb = rng.choice([(2, 0), (1, 1), (0, 2)])
            for me, other, pts, seat in ((a, b, pa, 0), (b, a, pb, 1)):
                state[me]["score"] += pts
                state[me]["opp"].add(other)
                state[me]["bal"] += 1 if seat == 0 else -1
                state[me]["last"] = seat
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[16, 64, 128, 256])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print("%8s %7s %12s %12s" % ("players", "rounds", "mean ms", "max ms"))
    for n in args.players:
        timings = simulate(n, rng)
        print("%8d %7d %12.1f %12.1f" % (n, len(timings), 1000 * sum(timings) / len(timings), 1000 * max(timings)))


if __name__ == "__main__":
    main()
