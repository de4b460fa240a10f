"""What the match benches (bench/bots.py, bench/onitama_gauntlet.py,
bench/maatatahay_gauntlet.py) report of a score: its 95 % interval and its Elo difference.

Run as scripts, they find it with ``import _match_stats`` (the script's own folder is on the path).
"""

from __future__ import annotations

import math


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a score rate ``p`` over ``n`` games (draws count half)."""
    if n == 0:
        return 0.0, 1.0
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def elo(p: float) -> str:
    """The Elo difference of a score rate, as printed: ``+inf`` / ``-inf`` at a whole score."""
    if p <= 0:
        return "-inf"
    if p >= 1:
        return "+inf"
    return "%+.0f" % (400 * math.log10(p / (1 - p)))
