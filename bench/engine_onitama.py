"""Benchmark: Onitama perft speed, the engine's generator against a naive one.

Counts the leaves of perft position 1 (``bbBbb/5/5/5/rrRrr boar,ox
elephant,horse crab r``) to the given depth twice: with ``engine.onitama.perft``
(25-bit boards, per-card per-square destination masks, bulk counting at the
last ply) and with ``naive_perft`` below, a deliberately plain generator over
a frozenset of ``(file, rank, colour, kind)`` tuples that rebuilds every child
position and counts leaves one by one. Both follow the rulings' counting rules,
so the counts must be equal (asserted); the timings are only printed.

    .venv/bin/python bench/engine_onitama.py [depth]     # default 6

>>> naive_perft(naive_position("bbBbb/5/5/5/rrRrr boar,ox elephant,horse crab r"), 3)
1989
"""

from __future__ import annotations

import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.onitama import perft, position_from_text  # noqa: E402
from engine.onitama.fast import node_moves, node_of, node_play  # noqa: E402

POSITION = "bbBbb/5/5/5/rrRrr boar,ox elephant,horse crab r"
_CARDS_FILE = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "engine", "onitama", "cards.json"
)

# --- the naive generator ---------------------------------------------------------------------


def _load_offsets() -> dict[str, list[tuple[int, int]]]:
    with open(_CARDS_FILE, encoding="utf-8") as handle:
        data = json.load(handle)
    return {
        name: [tuple(m) for m in card["moves"]]
        for pool in ("base", "senseis_path")
        for name, card in data[pool].items()
    }


OFFSETS = _load_offsets()


def naive_position(text: str) -> tuple:
    """``(pieces, hands, side, turn)``: pieces a frozenset of (file, rank, colour, kind)
    with colour 'r'/'b' and kind 'master'/'student'; hands a dict colour -> tuple of names."""
    board, red, blue, side, turn = text.split()
    pieces = set()
    for row, rank_text in enumerate(board.split("/")):
        file = 0
        for ch in rank_text:
            if ch.isdigit():
                file += int(ch)
            else:
                pieces.add((file, 4 - row, ch.lower(), "master" if ch.isupper() else "student"))
                file += 1
    return frozenset(pieces), {"r": tuple(red.split(",")), "b": tuple(blue.split(","))}, side, turn


def naive_children(position: tuple) -> list[tuple]:
    """Every child position, rebuilt from scratch; an empty list after a win."""
    pieces, hands, side, turn = position
    other = "b" if turn == "r" else "r"
    masters = {colour for (_, _, colour, kind) in pieces if kind == "master"}
    if len(masters) < 2:
        return []
    for x, y, colour, kind in pieces:
        if kind == "master" and (x, y) == ((2, 4) if colour == "r" else (2, 0)):
            return []
    sign = 1 if turn == "r" else -1
    children = []
    for card in hands[turn]:
        new_hands = dict(hands)
        new_hands[turn] = tuple(c for c in hands[turn] if c != card) + (side,)
        for piece in pieces:
            x, y, colour, kind = piece
            if colour != turn:
                continue
            for dx, dy in OFFSETS[card]:
                tx, ty = x + sign * dx, y + sign * dy
                if not (0 <= tx < 5 and 0 <= ty < 5):
                    continue
                if any((px, py) == (tx, ty) and pc == turn for (px, py, pc, _) in pieces):
                    continue
                rest = {p for p in pieces if p != piece and (p[0], p[1]) != (tx, ty)}
                rest.add((tx, ty, colour, kind))
                children.append((frozenset(rest), new_hands, card, other))
    if not children:
        for card in hands[turn]:
            new_hands = dict(hands)
            new_hands[turn] = tuple(c for c in hands[turn] if c != card) + (side,)
            children.append((pieces, new_hands, card, other))
    return children


def naive_perft(position: tuple, depth: int) -> int:
    """Leaves of the move tree, one child at a time."""
    if depth == 0:
        return 1
    children = naive_children(position)
    if not children:
        return 1
    return sum(naive_perft(child, depth - 1) for child in children)


def search_api_perft(node: tuple, depth: int) -> int:
    """Perft through ``engine.onitama.fast``'s search API (what a bot calls per node):
    one ``node_play`` per move, no bulk counting."""
    if depth == 0:
        return 1
    total = 0
    for move in node_moves(node):
        child, won = node_play(node, move)
        total += 1 if won else search_api_perft(child, depth - 1)
    return total


# --- the measurement -------------------------------------------------------------------------


def _timed(count, *args) -> tuple[int, float]:
    """Leaves and CPU seconds of this process (steadier than wall time on a shared machine)."""
    start = time.process_time()
    leaves = count(*args)
    return leaves, max(time.process_time() - start, 1e-9)


def run(depth: int = 6) -> None:
    """Print leaves per CPU second at ``depth`` from perft position 1 for the engine's perft,
    the engine's search API and the naive generator, and the engine/naive ratio. Asserts
    that all three count the same leaves."""
    position = position_from_text(POSITION)
    fast, fast_s = _timed(perft, position, depth)
    api, api_s = _timed(search_api_perft, node_of(position), depth)
    naive, naive_s = _timed(naive_perft, naive_position(POSITION), depth)
    assert fast == naive == api, "the generators disagree: %d, %d, %d" % (fast, api, naive)
    print("onitama perft position 1, depth %d: %d leaves (CPU time)" % (depth, fast))
    for label, seconds in (
        ("engine perft (bitboards, bulk last ply)", fast_s),
        ("engine search API (node_play per move)", api_s),
        ("naive (frozenset of tuples)", naive_s),
    ):
        print("  %-40s %12.0f leaves/s  (%.2f s)" % (label, fast / seconds, seconds))
    print("  %-40s %12.1fx" % ("ratio engine perft / naive", naive_s / fast_s))
    print("  %-40s %12.1fx" % ("ratio engine search API / naive", naive_s / api_s))


if __name__ == "__main__":
    run(int(sys.argv[1]) if len(sys.argv) > 1 else 6)
