"""Staff hold a game's clock (games.services.game_clock_pause / game_clock_resume)
and cancel a game (game_cancel): the held time is given back exactly, nobody
times out while held, and holds compose with vacations in both orders."""

from __future__ import annotations

from datetime import timedelta

import pytest

from correspondence import services as correspondence
from games import services
from games.errors import GameActionError
from games.models import Alarm, Game, GameStatus
from ratings.models import RatingChange
from tests.factories import to_move

from .conftest import play, start_game

pytestmark = pytest.mark.django_db


def held(game: Game) -> Game:
    game.refresh_from_db()
    return game


def test_a_hold_stops_the_clock_and_resume_gives_back_the_time_left(alice, bob):
    game = start_game(alice, bob)
    nominal = game.deadline
    assert nominal is not None and game.turn_started_at is not None  # the clock runs
    assert nominal == game.turn_started_at + timedelta(days=3)
    paused_at = game.turn_started_at + timedelta(days=1, hours=2)
    left_at_pause = nominal - paused_at

    services.game_clock_pause(game_id=game.pk, reason="Cheating report", now=paused_at)
    game = held(game)
    assert game.deadline is None and game.clock_paused_at == paused_at
    assert game.clock_held_since == paused_at and game.clock_hold_reason == "Cheating report"
    assert not Alarm.objects.filter(game=game, kind__in=["reminder", "last_call"]).exists()
    # a sweep long after the deadline ends nothing
    assert services.games_time_out(now=nominal + timedelta(days=30)) == 0
    assert held(game).status == GameStatus.ACTIVE

    resumed_at = paused_at + timedelta(days=9, minutes=17, seconds=3)
    services.game_clock_resume(game_id=game.pk, now=resumed_at)
    game = held(game)
    assert game.clock_held_since is None and game.clock_hold_reason == "" and game.clock_paused_at is None
    assert game.turn_paused == resumed_at - paused_at
    assert game.deadline is not None
    assert game.deadline - resumed_at == left_at_pause
    assert game.deadline == services.game_deadline(game)
    assert Alarm.objects.filter(game=game, kind="reminder").exists()
    assert services.games_time_out(now=game.deadline - timedelta(seconds=1)) == 0
    assert services.games_time_out(now=game.deadline + timedelta(seconds=1)) == 1


def test_a_turn_that_starts_during_a_hold_starts_stopped_with_its_full_time(alice, bob):
    game = start_game(alice, bob)
    services.game_clock_pause(game_id=game.pk, reason="Tournament paused")
    game = play(game, 1)
    assert game.turn == 2 and game.deadline is None and game.clock_paused_at is not None
    assert game.clock_held_since is not None  # still held for the new turn
    assert game.turn_started_at is not None
    resumed_at = game.turn_started_at + timedelta(hours=5)
    services.game_clock_resume(game_id=game.pk, now=resumed_at)
    game = held(game)
    assert game.deadline == resumed_at + timedelta(days=3)


def test_a_vacation_ending_inside_a_hold_does_not_restart_the_clock(alice, bob):
    game = start_game(alice, bob)
    mover = to_move(game)
    nominal = game.deadline
    assert nominal is not None and game.turn_started_at is not None  # the clock runs
    hold = game.turn_started_at + timedelta(hours=1)
    services.game_clock_pause(game_id=game.pk, reason="Investigation", now=hold)
    correspondence.vacation_start(user=mover, days=1, now=hold + timedelta(hours=1))
    correspondence.vacation_end(user=mover, now=hold + timedelta(hours=5))
    game = held(game)
    assert game.deadline is None and game.clock_paused_at == hold and game.clock_held_since == hold
    assert services.games_time_out(now=nominal + timedelta(days=30)) == 0
    services.game_clock_resume(game_id=game.pk, now=hold + timedelta(hours=10))
    game = held(game)
    assert game.turn_paused == timedelta(hours=10)
    assert game.deadline == nominal + timedelta(hours=10)


def test_a_hold_ending_inside_a_vacation_leaves_the_clock_stopped(alice, bob):
    game = start_game(alice, bob)
    mover = to_move(game)
    nominal = game.deadline
    assert nominal is not None and game.turn_started_at is not None  # the clock runs
    away = game.turn_started_at + timedelta(hours=2)
    correspondence.vacation_start(user=mover, days=1, now=away)
    services.game_clock_pause(game_id=game.pk, reason="Investigation", now=away + timedelta(hours=1))
    services.game_clock_resume(game_id=game.pk, now=away + timedelta(hours=3))
    game = held(game)
    assert game.clock_held_since is None
    assert game.deadline is None and game.clock_paused_at == away  # the vacation still stops it
    correspondence.vacation_end(user=mover, now=away + timedelta(hours=6))
    game = held(game)
    assert game.clock_paused_at is None and game.turn_paused == timedelta(hours=6)
    assert game.deadline == nominal + timedelta(hours=6)


def test_hold_and_resume_are_idempotent_and_refused_once_the_game_is_over(alice, bob):
    game = start_game(alice, bob)
    assert game.turn_started_at is not None
    first = game.turn_started_at + timedelta(hours=1)
    services.game_clock_pause(game_id=game.pk, reason="first", now=first)
    services.game_clock_pause(game_id=game.pk, reason="second", now=first + timedelta(hours=1))
    game = held(game)
    assert game.clock_held_since == first and game.clock_hold_reason == "first"
    services.game_clock_resume(game_id=game.pk, now=first + timedelta(hours=2))
    services.game_clock_resume(game_id=game.pk, now=first + timedelta(hours=4))
    assert held(game).turn_paused == timedelta(hours=2)

    services.game_clock_pause(game_id=game.pk, reason="again")
    services.game_resign(game_id=game.pk, user=alice)
    game = held(game)
    assert game.clock_held_since is None and game.clock_hold_reason == ""
    for action in (
        lambda: services.game_clock_pause(game_id=game.pk, reason="late"),
        lambda: services.game_clock_resume(game_id=game.pk),
    ):
        with pytest.raises(GameActionError) as over:
            action()
        assert over.value.code == "game_over" and over.value.status == 409
    with pytest.raises(GameActionError) as missing:
        services.game_clock_pause(game_id=game.pk + 1000, reason="x")
    assert missing.value.status == 404


def test_staff_cancel_a_game_after_both_sides_moved_without_a_result(alice, bob):
    game = play(start_game(alice, bob, rated=True), 3)
    assert not services.game_can_abort(game)
    services.game_cancel(game_id=game.pk, reason="tournament ended early")
    game = held(game)
    assert game.status == GameStatus.ABORTED and game.winner_side == "" and game.deadline is None
    assert game.revealed_seed != ""  # the seed is revealed as at every end
    assert not RatingChange.objects.filter(game=game).exists()
    with pytest.raises(GameActionError) as twice:
        services.game_cancel(game_id=game.pk)
    assert twice.value.code == "game_over"
