"""Engine speed: prints measured numbers, asserts no timings.

    .venv/bin/python bench/engine.py [--depth 6] [--seconds 10]

Onitama: perft leaves per second at the given depth from perft position 1,
beside a deliberately naive set-of-tuples generator, and their ratio.
Maatatahay: random complete games per second on one core, for both variants.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import engine_maatatahay  # noqa: E402
import engine_onitama  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=6, help="Onitama perft depth")
    parser.add_argument(
        "--seconds", type=float, default=10.0, help="how long to play Maatatahay random games per variant"
    )
    args = parser.parse_args()
    engine_onitama.run(depth=args.depth)
    engine_maatatahay.report(seconds=args.seconds)


if __name__ == "__main__":
    main()
