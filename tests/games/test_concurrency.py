"""Simultaneous submissions against the real PostgreSQL: exactly one wins."""

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

import engine
from games import services, tasks
from games.errors import Conflict, GameActionError
from games.models import Game, GameStatus, Move
from games.signals import game_finished
from tests.factories import to_move
from tests.helpers import run_together, succeeded

from .conftest import start_game

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_postgresql_is_in_use():
    assert connection.vendor == "postgresql"


@pytest.mark.parametrize("kind, options", [("onitama", {"cards": "base"}), ("maatatahay", {"variant": "first"})])
def test_exactly_one_of_many_simultaneous_submissions_wins(alice, bob, kind, options):
    game = start_game(alice, bob, kind, options)
    rules = engine.get_game(kind)
    legal = [rules.move_text(m) for m in rules.legal_moves(services.game_state(game))]
    mover = to_move(game)
    texts = [legal[i % len(legal)] for i in range(8)]
    results = run_together(
        [
            (lambda text=text: services.move_submit(game_id=game.pk, user=mover, move_text=text, expected_ply=0))
            for text in texts
        ]
    )
    wins = [r for r in results if not isinstance(r, Exception)]
    losses = [r for r in results if isinstance(r, Exception)]
    assert len(wins) == 1, results
    assert all(isinstance(r, Conflict) and r.status == 409 for r in losses), losses
    game.refresh_from_db()
    assert game.ply == 1 and Move.objects.filter(game=game).count() == 1
    assert Move.objects.get(game=game).text == wins[0].text


def test_concurrent_sweeps_time_a_game_out_once(alice, bob):
    game = start_game(alice, bob)
    for _ in range(2):
        game.refresh_from_db()
        services.move_submit(
            game_id=game.pk,
            user=to_move(game),
            move_text=services.rules_for("onitama").move_text(
                services.rules_for("onitama").legal_moves(services.game_state(game))[0]
            ),
            expected_ply=game.ply,
        )
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=5))
    fired = []

    def receiver(sender, game, **kwargs):
        fired.append(game.pk)

    game_finished.connect(receiver, dispatch_uid="test-concurrent-sweep")
    try:
        results = run_together([services.games_time_out for _ in range(4)])
    finally:
        game_finished.disconnect(dispatch_uid="test-concurrent-sweep")
    assert sum(succeeded(results)) == 1, results
    assert fired == [game.pk]
    assert Game.objects.get(pk=game.pk).result_reason == "timeout"


def test_a_resignation_racing_a_move_leaves_a_consistent_game(alice, bob):
    game = start_game(alice, bob)
    mover = to_move(game)
    other = alice if mover == bob else bob
    text = services.rules_for("onitama").move_text(
        services.rules_for("onitama").legal_moves(services.game_state(game))[0]
    )
    results = run_together(
        [
            lambda: services.move_submit(game_id=game.pk, user=mover, move_text=text, expected_ply=0),
            lambda: services.game_resign(game_id=game.pk, user=other),
        ]
    )
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.result_reason == "resign"
    if isinstance(results[0], GameActionError):
        assert game.ply == 0 and results[0].status == 409
    else:
        assert game.ply == 1


def test_a_bot_turn_run_twice_at_once_is_played_once(alice, monkeypatch):
    queued = []  # the bot turns the creation hands to the broker: kept here, not run
    monkeypatch.setattr(tasks.bot_turn_play, "delay", lambda *args: queued.append(args))
    for attempt in range(40):
        game = services.game_create_solo(
            user=alice,
            kind="maatatahay",
            bot_level=1,
            side=("balan", "wazu")[attempt % 2],
            options={"variant": "first"},
        )
        if game.seats.get(side=game.to_move_side).is_bot:
            break
    else:
        pytest.fail("the bot never moved first")
    assert [args for args in queued if args[0] == game.pk] == [(game.pk, 0)]
    results = run_together([lambda: services.bot_turn_play(game_id=game.pk, ply=0) for _ in range(3)])
    game.refresh_from_db()
    played = [m.text for m in Move.objects.filter(game=game).order_by("ply")]
    assert sum(len(r.played) for r in succeeded(results)) == len(played) >= 1
    assert game.status != GameStatus.ACTIVE or game.to_move_user == alice
    assert len({m.turn for m in Move.objects.filter(game=game)}) == 1
