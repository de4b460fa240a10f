"""games.boards.maatatahay.component_table keeps one copy of the engine's component table per
process and version: drawing a board, its extras and a mail picture reads it and never
changes it, so the kept copy stays the engine's."""

from __future__ import annotations

import copy

import engine
from correspondence.pictures import picture_svg
from engine.maatatahay import data as component_data
from games.boards import board_svg, extras_svg
from games.boards import maatatahay as maatatahay_board

RULES = engine.get_game("maatatahay")


def views_of_a_game(plies: int = 12) -> list[dict]:
    """Each side's view after each of a game's first plies (the first legal decision each time)."""
    state = RULES.new_game(seed=11, options={"variant": "first"})
    views = []
    for _ in range(plies):
        for side in RULES.players:
            views.append(RULES.view(state, side))
        moves = RULES.legal_moves(state)
        if not moves or RULES.outcome(state) is not None:
            break
        state = RULES.apply(state, moves[0])
    return views


def test_the_kept_table_is_read_not_changed_by_drawing():
    fresh = component_data.table(None)
    kept = maatatahay_board.component_table({})
    assert kept == fresh and kept is not fresh
    assert maatatahay_board.component_table({"data_version": component_data.CURRENT}) is kept  # one copy
    before = copy.deepcopy(kept)
    for view in views_of_a_game():
        for flip in (False, True):
            assert "<svg" in str(board_svg("maatatahay", view, flip=flip, last=()))
            assert str(extras_svg("maatatahay", view, flip=flip))
            assert "<svg" in picture_svg(kind="maatatahay", view=view, flip=flip)
    assert maatatahay_board.component_table({}) == before == component_data.table(None)


def test_an_unknown_version_draws_with_the_current_table():
    assert maatatahay_board.component_table({"data_version": "1999-01"}) is maatatahay_board.component_table({})
