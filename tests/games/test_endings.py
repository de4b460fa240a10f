from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

import engine
from engine import fair
from games import services
from games.errors import Conflict, InvalidInput, NotAllowed
from games.models import DrawOffer, DrawOfferStatus, Game, GameStatus
from games.signals import game_finished
from tests.factories import to_move

from .conftest import play, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_events():
    events = []

    def receiver(sender, game, result, **kwargs):
        events.append((game.pk, result))

    game_finished.connect(receiver, dispatch_uid="test-finished-events")
    yield events
    game_finished.disconnect(dispatch_uid="test-finished-events")


def other(game, user):
    return next(s.user for s in game.seats.all() if s.user != user)


def test_resign_ends_the_game_reveals_the_seed_and_signals_once(onitama_game, alice, finished_events):
    game = play(onitama_game, 3)
    services.game_resign(game_id=game.pk, user=alice)
    game.refresh_from_db()
    alice_side = game.seats.get(user=alice).side
    assert game.status == GameStatus.FINISHED and game.result_reason == "resign"
    assert game.winner_side != alice_side and game.winner_side
    state: dict[str, Any] = services.rules_for(game.kind).to_json(services.game_state(game))
    assert state["outcome"]["reason"] == "resign"
    assert fair.verify_commitment(game.seed_commitment, game.revealed_salt, int(game.revealed_seed))
    assert finished_events == [
        (game.pk, {"status": "finished", "winner": game.winner_side, "reason": "resign", "scores": None, "rated": True})
    ]
    with pytest.raises(Conflict):
        services.game_resign(game_id=game.pk, user=alice)
    with pytest.raises(Conflict):
        services.move_submit(game_id=game.pk, user=other(game, alice), move_text="x", expected_ply=game.ply)
    assert len(finished_events) == 1


def test_abort_is_allowed_until_both_sides_have_moved(alice, bob, finished_events):
    game = start_game(alice, bob)
    services.game_abort(game_id=game.pk, user=to_move(game))  # nobody moved
    game.refresh_from_db()
    assert game.status == GameStatus.ABORTED and game.winner_side == ""
    assert game.revealed_seed
    assert finished_events[-1][1]["status"] == "aborted"

    game = play(start_game(alice, bob), 1)  # one side moved: the other may still abort
    services.game_abort(game_id=game.pk, user=to_move(game))
    assert Game.objects.get(pk=game.pk).status == GameStatus.ABORTED

    game = play(start_game(alice, bob), 2)  # both moved: too late
    with pytest.raises(Conflict) as info:
        services.game_abort(game_id=game.pk, user=alice)
    assert info.value.code == "abort_too_late"
    assert Game.objects.get(pk=game.pk).status == GameStatus.ACTIVE


def test_draw_offer_accept(onitama_game, alice, bob, finished_events):
    game = onitama_game
    offer = services.draw_offer(game_id=game.pk, user=alice)
    assert offer.status == DrawOfferStatus.PENDING
    with pytest.raises(Conflict):
        services.draw_offer(game_id=game.pk, user=alice)
    with pytest.raises(Conflict):  # one cannot accept one's own offer
        services.draw_accept(game_id=game.pk, user=alice)
    services.draw_accept(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.winner_side == ""
    assert game.result_reason == "agreement"
    outcome = services.rules_for(game.kind).to_json(services.game_state(game))["outcome"]
    assert outcome == {"winner": None, "reason": "agreement", "scores": None}
    assert DrawOffer.objects.get(pk=offer.pk).status == DrawOfferStatus.ACCEPTED
    assert len(finished_events) == 1


def test_draw_decline_and_moving_declines(onitama_game, alice, bob):
    game = onitama_game
    services.draw_offer(game_id=game.pk, user=alice)
    services.draw_decline(game_id=game.pk, user=bob)
    assert not DrawOffer.objects.filter(game=game, status="pending").exists()
    waiting = other(game, game.to_move_user)
    services.draw_offer(game_id=game.pk, user=waiting)
    play(game, 1)  # the player offered to moves instead of answering
    assert not DrawOffer.objects.filter(game=game, status="pending").exists()
    # offering while the opponent's offer is pending accepts it
    game.refresh_from_db()
    services.draw_offer(game_id=game.pk, user=alice)
    services.draw_offer(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert game.result_reason == "agreement"


def test_no_draws_in_maatatahay_or_against_a_bot(alice, bob):
    game = start_game(alice, bob, "maatatahay", {"variant": "first"})
    with pytest.raises(InvalidInput):
        services.draw_offer(game_id=game.pk, user=alice)
    solo = services.game_create_solo(user=alice, kind="onitama", bot_level=1)
    with pytest.raises(InvalidInput):
        services.draw_offer(game_id=solo.pk, user=alice)


def test_strangers_cannot_act(onitama_game, carol):
    for action in (services.game_resign, services.game_abort, services.draw_offer):
        with pytest.raises(NotAllowed):
            action(game_id=onitama_game.pk, user=carol)


def test_time_out_is_a_loss_on_time_exactly_once(alice, bob, finished_events):
    game = play(start_game(alice, bob), 2)
    late = game.to_move_side
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    untouched = play(start_game(alice, bob), 2)
    assert services.games_time_out() == 1
    assert services.games_time_out() == 0
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.result_reason == "timeout"
    assert game.winner_side == engine.get_game("onitama").players[1 - engine.get_game("onitama").players.index(late)]
    assert [e[0] for e in finished_events] == [game.pk]
    assert Game.objects.get(pk=untouched.pk).status == GameStatus.ACTIVE


def test_time_out_before_the_first_move_aborts(alice, bob, finished_events):
    game = start_game(alice, bob)
    now = timezone.now() + timedelta(days=3, seconds=1)
    assert services.games_time_out(now=now) == 1
    game.refresh_from_db()
    assert game.status == GameStatus.ABORTED and game.result_reason == "aborted_timeout"
    assert services.games_time_out(now=now) == 0
    assert len(finished_events) == 1


def test_the_timeout_sweep_task(alice, bob):
    from games.tasks import games_timeout_sweep

    game = play(start_game(alice, bob), 2)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    assert games_timeout_sweep.delay().get()["games_timed_out"] == 1
    assert games_timeout_sweep.delay().get()["games_timed_out"] == 0


def test_a_signal_receiver_error_rolls_the_finish_back(onitama_game, alice):
    def broken(sender, **kwargs):
        raise RuntimeError("ladder is down")

    game_finished.connect(broken, dispatch_uid="test-broken")
    try:
        with pytest.raises(RuntimeError):
            services.game_resign(game_id=onitama_game.pk, user=alice)
    finally:
        game_finished.disconnect(dispatch_uid="test-broken")
    game = Game.objects.get(pk=onitama_game.pk)
    assert game.status == GameStatus.ACTIVE and not game.revealed_seed
