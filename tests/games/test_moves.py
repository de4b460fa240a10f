import itertools
from typing import Any

import pytest
from django.utils import translation

import engine
from engine.core import replay
from engine.onitama import OnitamaState
from games import services
from games.errors import Conflict, MoveRejected, NotAllowed
from games.models import GameStatus, Move
from tests.factories import to_move

from .conftest import first_legal, play, start_game

pytestmark = pytest.mark.django_db


def test_move_submit_happy_path(onitama_game, alice, bob):
    game = onitama_game
    mover = game.to_move_user
    text = first_legal(game)
    move = services.move_submit(game_id=game.pk, user=mover, move_text=text, expected_ply=0)
    game.refresh_from_db()
    assert move.ply == 1 and move.turn == 1 and move.text == text and move.user == mover
    assert game.ply == 1 and game.turn == 2
    assert game.to_move_user != mover and game.to_move_user in (alice, bob)
    state = services.game_state(game)
    assert isinstance(state, OnitamaState) and state.ply == 1


def test_stale_or_repeated_submission_is_a_conflict_and_changes_nothing(onitama_game):
    game = onitama_game
    mover = game.to_move_user
    text = first_legal(game)
    services.move_submit(game_id=game.pk, user=mover, move_text=text, expected_ply=0)
    game.refresh_from_db()
    before = (game.ply, services.rules_for(game.kind).to_json(services.game_state(game)), game.deadline)
    with pytest.raises(Conflict) as info:  # the same submission again
        services.move_submit(game_id=game.pk, user=mover, move_text=text, expected_ply=0)
    assert info.value.status == 409 and info.value.code == "stale_ply"
    other = game.to_move_user
    with pytest.raises(Conflict):  # the opponent with a stale page
        services.move_submit(game_id=game.pk, user=other, move_text=first_legal(game), expected_ply=0)
    game.refresh_from_db()
    assert (game.ply, services.rules_for(game.kind).to_json(services.game_state(game)), game.deadline) == before
    assert Move.objects.filter(game=game).count() == 1


def test_not_your_turn_and_not_a_player(onitama_game, carol):
    game = onitama_game
    waiting = next(s.user for s in game.seats.all() if s.user != game.to_move_user)
    with pytest.raises(NotAllowed) as info:
        services.move_submit(game_id=game.pk, user=waiting, move_text=first_legal(game), expected_ply=0)
    assert info.value.code == "not_your_turn" and info.value.status == 403
    with pytest.raises(NotAllowed) as info:
        services.move_submit(game_id=game.pk, user=carol, move_text=first_legal(game), expected_ply=0)
    assert info.value.code == "not_a_player"


def test_illegal_and_malformed_moves_are_translated_engine_errors(onitama_game):
    game = onitama_game
    view: dict[str, Any] = services.rules_for("onitama").view(services.game_state(game), None)
    not_mine = view["hands"]["blue" if game.to_move_side == "red" else "red"][0]
    with pytest.raises(MoveRejected) as info:
        services.move_submit(game_id=game.pk, user=game.to_move_user, move_text="%s:c1c2" % not_mine, expected_ply=0)
    error = info.value
    assert error.code == "not_in_hand" and error.status == 400
    assert error.message == "The card %s is not in your hand." % not_mine
    with pytest.raises(MoveRejected) as info:
        services.move_submit(game_id=game.pk, user=game.to_move_user, move_text="hello", expected_ply=0)
    assert info.value.code == "bad_syntax"
    with translation.override("id"):
        assert info.value.message  # a message exists in every language (English fallback)
    game.refresh_from_db()
    assert game.ply == 0


def test_unknown_engine_codes_fall_back_to_the_engine_message():
    error = MoveRejected("brand_new_code", "The engine's own words", move_text="x")
    assert error.message == "The engine's own words"


@pytest.mark.parametrize(
    "kind, options",
    [
        ("onitama", {"cards": "senseis_path"}),
        ("maatatahay", {"variant": "first"}),
        ("maatatahay", {"variant": "standard"}),
    ],
)
def test_replaying_the_move_rows_gives_the_stored_state(alice, bob, kind, options):
    game = play(start_game(alice, bob, kind, options), 14)
    rules = engine.get_game(kind)
    _salt, seed = services.game_secret(game)
    texts = list(Move.objects.filter(game=game).order_by("ply").values_list("text", flat=True))
    assert len(texts) == game.ply
    state = replay(rules, seed, game.options, texts, data_version=game.data_version or None)
    assert rules.to_json(state) == rules.to_json(services.game_state(game))


def test_turn_counts_turns_not_decisions_and_deadline_resets_only_when_the_turn_passes(alice, bob):
    game = start_game(alice, bob, "maatatahay", {"variant": "first", "opening": 1}, days_per_move=2)
    rules = engine.get_game("maatatahay")
    seen_same_player = False
    for _ in range(30):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        side, turn, deadline = game.to_move_side, game.turn, game.deadline
        services.move_submit(game_id=game.pk, user=to_move(game), move_text=first_legal(game), expected_ply=game.ply)
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        if game.to_move_side == side:
            seen_same_player = True
            assert game.turn == turn and game.deadline == deadline
        else:
            assert game.deadline is not None and deadline is not None
            assert game.turn == turn + 1 and game.deadline > deadline
            assert game.to_move_side == rules.to_move(services.game_state(game))
    assert seen_same_player, "a Maatatahay turn of several decisions was expected"
    moves = list(Move.objects.filter(game=game).order_by("ply"))
    for earlier, later in itertools.pairwise(moves):
        assert (later.turn == earlier.turn) == (later.seat_id == earlier.seat_id)


def test_a_game_played_to_the_end_finishes_with_the_engine_outcome(alice, bob):
    game = play(start_game(alice, bob, "onitama", {"cards": "base"}), 400)
    assert game.status == GameStatus.FINISHED
    outcome = engine.get_game("onitama").outcome(services.game_state(game))
    assert outcome is not None
    assert game.result_reason == outcome.reason
    assert game.winner_side == (outcome.winner or "")
    assert game.to_move_user is None and game.deadline is None
    assert game.revealed_seed and len(game.revealed_salt) == 32


def test_maatatahay_engine_errors_are_translated(alice, bob):
    game = start_game(alice, bob, "maatatahay", {"variant": "first", "opening": 2})
    for text, code in (("first balan", "wrong_phase"), ("place z9 r0", "bad_move_text")):
        with pytest.raises(MoveRejected) as info:
            services.move_submit(game_id=game.pk, user=to_move(game), move_text=text, expected_ply=0)
        assert info.value.code == code
        assert info.value.message and "%(" not in info.value.message
    from games.errors import ENGINE_MESSAGES

    assert "pair_not_in_stream" in ENGINE_MESSAGES


def test_an_earlier_ply_is_shown_by_replaying(alice, bob):
    from games import selectors

    game = play(start_game(alice, bob, "maatatahay", {"variant": "standard"}), 9)
    rules = engine.get_game("maatatahay")
    _salt, seed = services.game_secret(game)
    texts = [m.text for m in Move.objects.filter(game=game).order_by("ply")]
    for ply in (0, 4, game.ply):
        page = selectors.game_for_viewer(game_id=game.pk, user=alice, ply=ply)
        assert page.viewer_seat is not None  # alice plays
        expected = replay(rules, seed, game.options, texts[:ply], data_version=game.data_version)
        assert page.shown_ply == ply and page.view == rules.view(expected, page.viewer_seat.side)
        assert page.is_current == (ply == game.ply)
        assert "piles" not in page.view and "seed" not in page.view
    assert selectors.game_for_viewer(game_id=game.pk, user=alice, ply=999).shown_ply == game.ply
