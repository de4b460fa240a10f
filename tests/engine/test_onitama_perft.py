"""Onitama perft: the four published positions through depth 5 (depth 6/7: bench)."""

from __future__ import annotations

import pytest

from engine.onitama import RULES, OnitamaState, perft, position_from_text
from engine.onitama.fast import node_moves, node_of, node_play, perft_node, zobrist_of

PUBLISHED = {
    "bbBbb/5/5/5/rrRrr boar,ox elephant,horse crab r": [10, 130, 1989, 28509, 487780],
    "bbBbb/5/5/5/rrRrr rooster,tiger cobra,rabbit frog r": [9, 72, 880, 10374, 138879],
    "bbBbb/5/5/5/rrRrr dragon,goose eel,mantis crane r": [10, 120, 1272, 16445, 211643],
    "bbBbb/5/5/5/rrRrr crab,dragon monkey,tiger mantis r": [11, 143, 1807, 23949, 325011],
}


@pytest.mark.parametrize("text", sorted(PUBLISHED))
def test_published_counts_through_depth_5(text: str) -> None:
    state = position_from_text(text)
    assert [perft(state, depth) for depth in range(1, 6)] == PUBLISHED[text]


def test_depth_zero_and_finished_positions_count_once() -> None:
    assert perft(position_from_text("bbBbb/5/5/5/rrRrr boar,ox elephant,horse crab r"), 0) == 1
    won = position_from_text("bbRbb/5/5/5/rr1rr boar,ox elephant,horse crab b")  # red on c5
    assert won.outcome is not None
    assert perft(won, 3) == 1
    with pytest.raises(ValueError):
        perft(won, -1)


def _node_perft(node: tuple, depth: int) -> int:
    """Perft through the search API (node_moves/node_play), no bulk counting."""
    if depth == 0:
        return 1
    total = 0
    for move in node_moves(node):
        child, won = node_play(node, move)
        total += 1 if won else _node_perft(child, depth - 1)
    return total


def _rules_perft(state: OnitamaState, depth: int) -> int:
    """Perft through the GameRules interface (applies repetition)."""
    if depth == 0 or RULES.outcome(state) is not None:
        return 1
    return sum(_rules_perft(RULES.apply(state, m), depth - 1) for m in RULES.legal_moves(state))


@pytest.mark.parametrize("text", sorted(PUBLISHED))
def test_search_api_and_rules_interface_agree_with_perft(text: str) -> None:
    state = position_from_text(text)
    assert _node_perft(node_of(state), 3) == PUBLISHED[text][2]
    assert _rules_perft(state, 3) == PUBLISHED[text][2]


def test_incremental_hash_matches_hash_from_scratch() -> None:
    state = position_from_text("bbBbb/5/5/5/rrRrr crab,dragon monkey,tiger mantis r")
    frontier = [node_of(state)]
    for _ in range(3):
        nxt = []
        for node in frontier:
            for move in node_moves(node):
                child, won = node_play(node, move)
                own, opp, om, pm, oh, ph, side, colour, h = child
                if colour == 0:
                    expect = zobrist_of(own, opp, om, pm, oh, ph, side, 0)
                else:
                    expect = zobrist_of(opp, own, pm, om, ph, oh, side, 1)
                assert h == expect
                if not won:
                    nxt.append(child)
        frontier = nxt[::7]


def test_perft_ignores_repetition() -> None:
    """Two cycles in, the next cycle's end would be a third occurrence: RULES calls it
    a draw, perft (position only) keeps counting."""
    cycle = "ox:c2d2 horse:c4c5 elephant:d2c3 ox:c5b5 horse:c3c2 elephant:b5c4".split()
    state = position_from_text("4B/2b2/5/2r2/R4 boar,ox crab,horse elephant r")
    for text in cycle + cycle[:4]:
        state = RULES.apply(state, RULES.parse_move(state, text))
    fresh = position_from_text("1b2B/5/2r2/5/R4 boar,horse crab,elephant ox r")
    assert fresh.key == state.key
    assert perft(state, 3) == perft(fresh, 3) == perft_node(node_of(state), 3)
    # through the rules the repeating line ends two plies early
    assert _rules_perft(state, 3) < perft(state, 3)
    assert _rules_perft(fresh, 3) == perft(fresh, 3)
