"""The game page offers the player to move a preview of each legal move (issue 15): what
the engine says the move would do, computed from the public table; nobody else gets any."""

from __future__ import annotations

import pytest

import engine
from games import selectors, services
from games.rules import legal_moves_of
from tests.factories import make_user, start_game, to_move

pytestmark = pytest.mark.django_db


def _play_until_placement(game):
    """Play first legal decisions until a Maatatahay placement is due; the game, fresh."""
    rules = engine.get_game("maatatahay")
    while rules.to_json(services.game_state(game))["phase"] != "place":
        state = services.game_state(game)
        services.move_submit(
            game_id=game.pk,
            user=to_move(game),
            expected_ply=game.ply,
            move_text=rules.move_text(rules.legal_moves(state)[0]),
        )
        game.refresh_from_db()
    return game


@pytest.mark.parametrize(
    "kind, options", [("onitama", None), ("maatatahay", {"variant": "first"}), ("maatatahay", {"variant": "standard"})]
)
def test_only_the_player_to_move_gets_previews_and_they_are_the_engines(kind, options):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    game = start_game(alice, bob, kind=kind, options=options)
    if kind == "maatatahay":
        game = _play_until_placement(game)
    mover = to_move(game)
    other = bob if mover == alice else alice
    rules = engine.get_game(kind)
    expected = rules.move_previews(services.game_state(game))

    page = selectors.game_for_viewer(game_id=game.pk, user=mover, previews=True)
    assert page.my_turn and len(page.legal_moves) == len(expected) > 0
    for legal, preview in zip(page.legal_moves, expected, strict=True):
        assert legal.text == rules.move_text(preview.move)
        assert legal.parts == rules.move_parts(preview.move)
        assert legal.preview == preview.effects and legal.preview is not None
        assert legal.preview["type"] == legal.parts["type"]
    if kind == "maatatahay":
        placements = [m.preview for m in page.legal_moves if m.parts["type"] == "place"]
        assert placements and all(p is not None and "strength" in p and "deaths" in p for p in placements)

    for viewer in (other, carol, None):
        assert selectors.game_for_viewer(game_id=game.pk, user=viewer, previews=True).legal_moves == []
    if game.ply:
        assert selectors.game_for_viewer(game_id=game.pk, user=mover, ply=game.ply - 1, previews=True).legal_moves == []


def test_legal_moves_without_previews_stay_as_they_were():
    game = start_game(make_user("alice"), make_user("bob"), kind="onitama")
    plain = legal_moves_of(kind="onitama", state=services.game_state(game))
    assert plain and all(m.preview is None for m in plain)
    with_previews = legal_moves_of(kind="onitama", state=services.game_state(game), previews=True)
    assert [(m.text, m.parts) for m in with_previews] == [(m.text, m.parts) for m in plain]


def test_the_page_data_has_no_previews_unless_asked(onitama_game):
    """What sends no preview (the API, the page until the Maatatahay board uses them) does not pay for one."""
    mover = onitama_game.to_move_user
    page = selectors.game_for_viewer(game_id=onitama_game.pk, user=mover)
    assert page.legal_moves and all(move.preview is None for move in page.legal_moves)
