"""Post-game analysis in the engine (engine.analysis), without a database: the evaluation
series of a record, Onitama's proven marks, Maatatahay's drops judged from the mover's view."""

from __future__ import annotations

from typing import Any

import pytest

from engine import get_game, random_game
from engine.analysis import (
    DROP,
    DROP_MIN,
    MAX_DROPS,
    MISSED_WIN,
    WALKED_INTO_LOSS,
    Position,
    analyse_game,
    analysis_from_dict,
    marks_of,
)
from engine.bots import bot_version, choose_move, evaluate_position
from engine.errors import StateFormatError
from engine.maatatahay import RULES as MAATATAHAY

ONITAMA: tuple[str, dict[str, str | int | None]] = ("onitama", {"cards": "base"})
FIRST_GAME: tuple[str, dict[str, str | int | None]] = ("maatatahay", {"variant": "first", "opening": 2})
PLAYERS = ("red", "blue")


def test_evaluate_position_plays_the_move_choose_move_plays_with_a_value_for_the_mover():
    rules = get_game("onitama")
    state = rules.new_game(5, {"cards": "base"})
    view = rules.view(state, rules.to_move(state))
    found = evaluate_position("onitama", view, level=2, seed=11)
    assert found.move == choose_move("onitama", view, level=2, seed=11)
    assert found.value is not None and -1 < found.value < 1 and found.win_in is None
    assert evaluate_position("onitama", view, level=2, seed=11) == found  # deterministic


def test_a_win_in_one_is_a_proven_win_for_the_mover_and_the_bot_takes_it():
    rules = get_game("onitama")
    moves, _ = random_game(rules, 4, {"cards": "base"})
    state = rules.new_game(4, {"cards": "base"})
    for text in moves:  # the first position of this random game where the mover can win at once
        mover = rules.to_move(state)
        if any(rules.outcome(rules.apply(state, m)) is not None for m in rules.legal_moves(state)):
            break
        state = rules.apply(state, rules.parse_move(state, text))
    found = evaluate_position("onitama", rules.view(state, mover), level=1, seed=1)
    assert found.value == 1.0 and found.win_in == 1
    outcome = rules.outcome(rules.apply(state, rules.parse_move(state, found.move)))
    assert outcome is not None and outcome.winner == mover


def test_the_maatatahay_evaluation_refuses_the_full_state():
    state = MAATATAHAY.new_game(3, {"variant": "first", "opening": 2})
    with pytest.raises(StateFormatError):
        evaluate_position("maatatahay", MAATATAHAY.to_json(state), level=2, seed=1)


@pytest.mark.parametrize(("kind", "options"), [ONITAMA, FIRST_GAME])
def test_the_series_has_every_position_the_moves_played_and_the_bots_moves(kind, options):
    rules = get_game(kind)
    moves, final = random_game(rules, 4, options)
    found = analyse_game(kind, seed=4, options=options, moves=moves, level=2, bot_seed=7)
    assert [p.ply for p in found.positions] == list(range(len(moves) + 1))
    assert [p.played for p in found.positions[:-1]] == moves  # canonical texts, as random_game writes them
    assert found.positions[-1].to_move is None and found.positions[-1].played is None
    outcome = rules.outcome(final)
    assert outcome is not None
    winner = outcome.winner
    assert found.positions[-1].value == (0.0 if winner is None else (1.0 if winner == rules.players[0] else -1.0))
    assert all(-1.0 <= p.value <= 1.0 for p in found.positions)
    assert all(p.best is not None for p in found.positions[:-1])
    assert found.bot_version == bot_version(kind) and found.level == 2
    again = analyse_game(kind, seed=4, options=options, moves=moves, level=2, bot_seed=7)
    assert again == found  # deterministic: budgets are counts, seeds fixed per position
    assert analysis_from_dict(found.as_dict()).as_dict() == found.as_dict()


def test_onitama_marks_are_proven_wins_let_slip_and_forced_losses_walked_into():
    kind, options = ONITAMA
    moves, _ = random_game(get_game(kind), 4, options)
    found = analyse_game(kind, seed=4, options=options, moves=moves, level=2, bot_seed=7)
    by_ply = {p.ply: p for p in found.positions}
    kinds = {m.kind for m in found.marks}
    assert kinds == {MISSED_WIN, WALKED_INTO_LOSS}, found.marks  # random play does both
    for mark in found.marks:
        before, after = by_ply[mark.ply - 1], by_ply[mark.ply]
        sign = 1 if mark.side == "red" else -1
        assert before.to_move == mark.side and before.played == mark.played and before.best == mark.best
        assert mark.played != mark.best and not before.forced
        if mark.kind == MISSED_WIN:
            assert before.win_in is not None and before.win_in * sign > 0
            assert after.to_move is not None and not (after.win_in is not None and after.win_in * sign > 0)
        else:
            assert not (before.win_in is not None and before.win_in * sign < 0)
            assert after.win_in is not None and after.win_in * sign < 0
    # and no move that kept a proven win is marked
    for a, b in zip(found.positions, found.positions[1:], strict=False):
        sign = 1 if a.to_move == "red" else -1
        kept = a.win_in is not None and a.win_in * sign > 0 and b.win_in is not None and b.win_in * sign > 0
        if kept:
            assert a.ply + 1 not in {m.ply for m in found.marks}


def _position(ply: int, to_move: str | None, value: float, **kw: Any) -> Position:
    defaults: dict[str, Any] = {"best": "b%d" % ply, "played": "p%d" % ply}
    defaults.update(kw)
    if to_move is None:
        defaults = {}
    return Position(ply=ply, to_move=to_move, value=value, **defaults)


def test_onitama_marks_from_a_series_the_bots_own_move_and_forced_moves_are_never_marked():
    # value and win_in are red's (the first player's), as analyse_game writes them
    series = [
        _position(0, "red", 1.0, win_in=5),  # red wins in 5, plays elsewhere ...
        _position(1, "blue", 0.2),  # ... and the win is gone: marked
        _position(2, "red", 0.3, played="b2"),  # the bot's own move, though it walks into a loss
        _position(3, "blue", -1.0, win_in=-3),  # blue wins in 3, and keeps the win
        _position(4, "red", -1.0, win_in=-2, forced=True),  # a forced move, never marked
        _position(5, "blue", 0.5),  # nothing proven either way
        _position(6, "red", 1.0, win_in=1),  # blue walked into a loss in one
        _position(7, None, 1.0),
    ]
    marks = marks_of("onitama", series, players=PLAYERS)
    assert [(m.ply, m.kind, m.side, m.played, m.best) for m in marks] == [
        (1, MISSED_WIN, "red", "p0", "b0"),
        (6, WALKED_INTO_LOSS, "blue", "p5", "b5"),
    ]
    series[4] = _position(4, "red", 0.0, forced=True)  # now blue's move of ply 4 let its win slip
    marks = marks_of("onitama", series, players=PLAYERS)
    assert [(m.ply, m.kind, m.side) for m in marks] == [
        (1, MISSED_WIN, "red"),
        (4, MISSED_WIN, "blue"),
        (6, WALKED_INTO_LOSS, "blue"),
    ]


def test_maatatahay_marks_the_largest_drops_of_each_player_only():
    values = [0.0, 0.9, 0.1, -0.5, 0.6, 0.55, -0.4, 0.3, 0.35, 0.9, 0.2]
    # Balan moves at even plies, Wazu at odd ones (values are Balan's advantage).
    series = [_position(i, "balan" if i % 2 == 0 else "wazu", v) for i, v in enumerate(values)]
    series.append(_position(len(values), None, 1.0))
    marks = marks_of("maatatahay", series, players=("balan", "wazu"))
    assert all(m.kind == DROP and m.drop >= DROP_MIN for m in marks)
    for side in ("balan", "wazu"):
        mine = [m for m in marks if m.side == side]
        assert len(mine) <= MAX_DROPS
        drops = sorted(
            (sign * (a.value - b.value), a.ply + 1)
            for a, b in zip(series, series[1:], strict=False)
            if a.to_move == side
            for sign in [1 if side == "balan" else -1]
        )
        expected = {ply for drop, ply in drops[::-1][:MAX_DROPS] if drop >= DROP_MIN}
        assert {m.ply for m in mine} == expected
    assert [m.ply for m in marks] == sorted(m.ply for m in marks)


def test_maatatahay_positions_are_judged_from_the_movers_view_never_the_full_state():
    kind, options = FIRST_GAME
    moves, _ = random_game(MAATATAHAY, 6, options)
    seen: list[tuple[dict[str, Any], str]] = []

    def spy(game: str, view: Any, *, level: int, seed: int) -> Any:
        seen.append((view, view["to_move"]))
        return evaluate_position(game, view, level=level, seed=seed)

    found = analyse_game(kind, seed=6, options=options, moves=moves[:12], level=2, bot_seed=3, evaluate=spy)
    state = MAATATAHAY.new_game(6, options)
    for (view, mover), text in zip(seen, moves[:12], strict=False):
        assert "piles" not in view and not isinstance(view.get("bag"), list)
        assert view["you"] == mover == MAATATAHAY.to_move(state)
        assert view == MAATATAHAY.view(state, mover)
        state = MAATATAHAY.apply(state, MAATATAHAY.parse_move(state, text))
    # Two deals that differ only in what is still hidden give the same judgement of the
    # positions they share: the bot never reads the hidden order.
    assert [p.best for p in found.positions[:3]] == [
        p.best for p in analyse_game(kind, seed=6, options=options, moves=moves[:2], level=2, bot_seed=3).positions
    ]
