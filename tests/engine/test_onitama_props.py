"""Onitama engine: properties over many random games of each card pool.

At every decision of every game: each listed move applies, their results are
all different, and its text reads back to the same move; a sample of the
superset of candidates (the five cards in play x 25 x 25 squares, plus a pass
per card) is accepted exactly when listed, by ``apply`` and by ``parse_move``;
the JSON round trip is exact and the view agrees with the state. In some games
the whole superset is tried at two decisions. After each game, replay from the
move texts gives the same state.

The normal run plays a few hundred games per pool; ``-m slow`` thousands.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import replay
from engine.errors import IllegalMoveError, MoveSyntaxError
from engine.fair import SeedStream
from engine.onitama import CARD_NAMES, RULES, Move, perft, position_from_text, position_text
from engine.onitama.cards import square_name
from engine.onitama.fast import node_of, zobrist_of

POOLS = ("base", "senseis_path", "mixed")
NORMAL, SLOW = 200, 2500
FULL_NORMAL, FULL_SLOW = 30, 400
SAMPLE = 24
seeds = st.integers(min_value=0, max_value=2**256 - 1)


def cards_in_play(state) -> list[str]:
    return sorted(CARD_NAMES[c] for c in (*state.red_hand, *state.blue_hand, state.side))


SUPERSET_SIZE = 5 * 25 * 25 + 5


def candidate(cards: list[str], index: int) -> Move:
    """Element ``index`` of the superset: every (card, from, to) of the five cards in
    play, then a pass per card."""
    if index >= 5 * 625:
        return Move(cards[index - 5 * 625])
    card, rest = divmod(index, 625)
    return Move(cards[card], rest // 25, rest % 25)


def text_of(move: Move) -> str:
    if move.src is None:
        return move.card + ":pass"
    assert move.dst is not None  # a move with a source has a destination
    return "%s:%s%s" % (move.card, square_name(move.src), square_name(move.dst))


def check_candidate(state, move: Move, legal: set) -> None:
    if move in legal:
        assert RULES.parse_move(state, text_of(move)) == move
        return
    try:
        RULES.apply(state, move)
    except IllegalMoveError:
        pass
    else:
        raise AssertionError("apply accepted the unlisted %r" % (move,))
    try:
        RULES.parse_move(state, text_of(move))
    except (IllegalMoveError, MoveSyntaxError):
        pass
    else:
        raise AssertionError("parse_move accepted the unlisted %s" % text_of(move))


def check_state(state) -> None:
    """Invariants of one running state."""
    moves = RULES.legal_moves(state)
    assert moves and len(set(moves)) == len(moves)
    children = [RULES.apply(state, m) for m in moves]
    assert len({c.key for c in children}) == len(moves)
    for move in moves:
        assert RULES.parse_move(state, RULES.move_text(move)) == move
    assert perft(state, 1) == len(moves)
    data = RULES.to_json(state)
    assert RULES.from_json(json.loads(json.dumps(data))) == state
    assert position_from_text(position_text(state)).key == state.key
    assert state.zobrist == zobrist_of(
        state.red,
        state.blue,
        state.red_master,
        state.blue_master,
        state.red_hand,
        state.blue_hand,
        state.side,
        state.turn,
    )
    assert state.history[-1] == state.key
    view = RULES.view(state, None)
    assert view["position"] == position_text(state) and view["to_move"] == state.to_play
    assert node_of(state)[7] == state.turn


def play_game(seed: int, cards: str, play_seed: int, full: bool = False):
    """Play a random game checking every state; with ``full`` try the whole superset at
    the first decision and at one more drawn among the next 29 (if the game lasts)."""
    stream = SeedStream(play_seed, "test/onitama-props")
    full_plies = {0, 1 + stream.below(29)} if full else set()
    state = RULES.new_game(seed, {"cards": cards})
    texts: list[str] = []
    while RULES.outcome(state) is None:
        assert state.ply < 5000
        check_state(state)
        legal = set(RULES.legal_moves(state))
        in_play = cards_in_play(state)
        for _ in range(SAMPLE):
            check_candidate(state, candidate(in_play, stream.below(SUPERSET_SIZE)), legal)
        if state.ply in full_plies:
            accepted = set()
            for index in range(SUPERSET_SIZE):
                move = candidate(in_play, index)
                check_candidate(state, move, legal)
                if move in legal:
                    accepted.add(move)
            assert accepted == legal
        move = RULES.random_move(state, stream)
        texts.append(RULES.move_text(move))
        state = RULES.apply(state, move)
    # finished states: nothing is legal, the JSON still round-trips
    assert RULES.legal_moves(state) == [] and RULES.to_move(state) is None
    assert RULES.from_json(RULES.to_json(state)) == state
    in_play = cards_in_play(state)
    for index in range(0, SUPERSET_SIZE, 97):
        with pytest.raises(IllegalMoveError):
            RULES.apply(state, candidate(in_play, index))
    assert replay(RULES, seed, {"cards": cards}, texts) == state
    assert RULES.result_line(state) in ("result: red", "result: blue", "result: draw")
    return state


def _games(count: int):
    return settings(max_examples=count, deadline=None, derandomize=False, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("cards", POOLS)
@_games(NORMAL)
@given(seed=seeds, play_seed=seeds)
def test_random_games(cards: str, seed: int, play_seed: int) -> None:
    play_game(seed, cards, play_seed)


@pytest.mark.parametrize("cards", POOLS)
@_games(FULL_NORMAL)
@given(seed=seeds, play_seed=seeds)
def test_whole_superset_at_two_decisions(cards: str, seed: int, play_seed: int) -> None:
    play_game(seed, cards, play_seed, full=True)


@pytest.mark.slow
@pytest.mark.parametrize("cards", POOLS)
@_games(SLOW)
@given(seed=seeds, play_seed=seeds)
def test_random_games_slow(cards: str, seed: int, play_seed: int) -> None:
    play_game(seed, cards, play_seed)


@pytest.mark.slow
@pytest.mark.parametrize("cards", POOLS)
@_games(FULL_SLOW)
@given(seed=seeds, play_seed=seeds)
def test_whole_superset_slow(cards: str, seed: int, play_seed: int) -> None:
    play_game(seed, cards, play_seed, full=True)
