"""The bot turns sweep (games.services.bot_turns_requeue): a bot turn whose task was lost is
enqueued again once it is overdue, and played exactly once however often it is enqueued.

In these tests (one rolled-back transaction each) the on-commit enqueue of a new game never
runs unless a test runs it: the bot's first task is lost, as with a killed worker."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone
from kombu.exceptions import OperationalError

from games import services, tasks
from games.models import Game, GameStatus, Move
from tests.helpers import task_publishes

from .conftest import first_legal, start_game
from .test_tasks import solo_game

pytestmark = pytest.mark.django_db


def _age(game: Game, seconds: float) -> None:
    """Make the game's turn and last decision ``seconds`` old."""
    then = timezone.now() - timedelta(seconds=seconds)
    Game.objects.filter(pk=game.pk).update(turn_started_at=then)
    Move.objects.filter(game=game).update(created_at=then)


def _overdue() -> float:
    return settings.GAMES_BOT_OVERDUE_SECONDS + 5


def _bot_moves(game: Game) -> list[int]:
    return list(Move.objects.filter(game=game, user__isnull=True).order_by("ply").values_list("ply", flat=True))


def test_a_lost_bot_turn_is_enqueued_again_once_overdue_and_played(
    no_mail_pictures, alice, django_capture_on_commit_callbacks
):
    game = solo_game(alice)
    _age(game, _overdue())
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert services.bot_turns_requeue() == 1
    assert len(task_publishes(sent)) == 1
    game.refresh_from_db()
    assert _bot_moves(game) == [1] and game.to_move_user == alice
    # answered: nothing is left for the next sweep
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert services.bot_turns_requeue() == 0
    assert sent == []


def test_a_fresh_bot_turn_is_left_to_its_own_task(alice, django_capture_on_commit_callbacks):
    game = solo_game(alice)
    _age(game, settings.GAMES_BOT_OVERDUE_SECONDS - 30)
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert services.bot_turns_requeue() == 0
    assert sent == [] and _bot_moves(game) == []


def test_finished_games_and_human_turns_are_ignored(alice, bob, django_capture_on_commit_callbacks):
    aborted = solo_game(alice)
    services.game_abort(game_id=aborted.pk, user=alice)
    answered = solo_game(alice)
    with django_capture_on_commit_callbacks(execute=True):
        tasks.bot_turn_play.delay(answered.pk, 0)
    between_players = start_game(alice, bob)
    for game in (aborted, answered, between_players):
        _age(game, 10 * _overdue())
    assert Game.objects.get(pk=aborted.pk).status == GameStatus.ABORTED
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert services.bot_turns_requeue() == 0
    assert sent == []


def test_overdue_counts_from_the_last_decision_not_the_start_of_the_turn(alice, django_capture_on_commit_callbacks):
    game = solo_game(alice)
    with django_capture_on_commit_callbacks(execute=True):
        tasks.bot_turn_play.delay(game.pk, 0)
    game.refresh_from_db()
    services.move_submit(game_id=game.pk, user=alice, move_text=first_legal(game), expected_ply=game.ply)
    game.refresh_from_db()
    assert game.to_move_user is None and game.status == GameStatus.ACTIVE
    # the turn started long ago, but its last decision (ply 2, alice's) was just played
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(seconds=10 * _overdue()))
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert services.bot_turns_requeue() == 0
    assert sent == []
    _age(game, _overdue())
    with django_capture_on_commit_callbacks(execute=True):
        assert services.bot_turns_requeue() == 1
    assert _bot_moves(game) == [1, 3]


def test_two_sweeps_and_the_late_original_enqueue_three_times_and_play_once(alice, django_capture_on_commit_callbacks):
    game = solo_game(alice)
    _age(game, _overdue())
    with django_capture_on_commit_callbacks(execute=False) as sent:
        assert services.bot_turns_requeue() == 1
        assert services.bot_turns_requeue() == 1  # the first sweep's task has not run yet
    assert len(sent) == 2
    for send in sent:
        send()
    tasks.bot_turn_play.delay(game.pk, 0)  # the killed worker's task, redelivered at last
    assert _bot_moves(game) == [1]
    assert Move.objects.filter(game=game).count() == 1


def test_a_sweep_beside_a_task_still_running_plays_the_ply_once(alice, monkeypatch, django_capture_on_commit_callbacks):
    # The original task chose its move, then the sweep's copy plays the turn before the
    # original commits: the original finds the ply taken and plays nothing.
    game = solo_game(alice)
    _age(game, _overdue())
    from games import bots

    real = bots.bot_choose_move
    played_by_copy: list[int] = []

    def slow_original(**kwargs):
        choice = real(**kwargs)
        if not played_by_copy:
            monkeypatch.setattr(bots, "bot_choose_move", real)
            with django_capture_on_commit_callbacks(execute=True):
                services.bot_turns_requeue()
            played_by_copy.extend(_bot_moves(game))
        return choice

    monkeypatch.setattr(bots, "bot_choose_move", slow_original)
    assert services.bot_turn_play(game_id=game.pk, ply=0).played == []
    assert played_by_copy == [1] and _bot_moves(game) == [1]


def test_the_sweep_is_bounded_per_run_oldest_first(alice, settings, django_capture_on_commit_callbacks):
    settings.GAMES_BOT_SWEEP_BATCH = 2
    games = [solo_game(alice) for _ in range(3)]
    for age, game in zip((3, 1, 2), games, strict=True):
        _age(game, age * _overdue())
    with django_capture_on_commit_callbacks(execute=False) as sent:
        assert services.bot_turns_requeue() == 2
    assert len(sent) == 2
    for send in sent:
        send()
    assert [bool(_bot_moves(g)) for g in games] == [True, False, True]


@pytest.mark.services
def test_the_sweep_reads_the_bot_to_move_index(alice):
    """However many games there are, the sweep reads only the partial index of the games
    whose bot is to move (the plan of its query, with sequential scans priced out)."""
    from django.test.utils import CaptureQueriesContext

    from games.selectors import bot_turns_overdue

    solo_game(alice)
    with CaptureQueriesContext(connection) as queries:
        bot_turns_overdue(before=timezone.now(), limit=10)
    (query,) = queries.captured_queries
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN " + query["sql"])
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "games_bot_to_move" in plan, plan


def test_beat_schedules_every_sweep_with_its_interval():
    from maatasite.celery import app

    expected = {
        "games-bot-turns-sweep": ("games.tasks.bot_turns_sweep", settings.GAMES_BOT_SWEEP_SECONDS),
        "tournaments-advance-sweep": (
            "tournaments.tasks.tournaments_advance_sweep",
            settings.TOURNAMENTS_SWEEP_SECONDS,
        ),
        "ladder-departed-sweep": ("ladder.tasks.ladder_departed_sweep", settings.LADDER_SWEEP_SECONDS),
        "fairplay-checks-sweep": ("fairplay.tasks.fairplay_checks_sweep", settings.FAIRPLAY_SWEEP_SECONDS),
    }
    app.loader.import_default_modules()
    for entry, (task, seconds) in expected.items():
        scheduled = settings.CELERY_BEAT_SCHEDULE[entry]
        assert scheduled["task"] == task and task in app.tasks
        assert scheduled["schedule"].total_seconds() == seconds
    assert settings.GAMES_BOT_OVERDUE_SECONDS + settings.GAMES_BOT_SWEEP_SECONDS <= 130  # "about 2 minutes"


def test_a_broker_that_refuses_the_bot_turn_keeps_the_move_and_the_sweep_plays_it(
    no_mail_pictures, alice, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    game = solo_game(alice)
    tasks.bot_turn_play.delay(game.pk, 0)
    game.refresh_from_db()

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to the broker. Connection refused.")

    monkeypatch.setattr(tasks.bot_turn_play, "delay", broker_down)
    with django_capture_on_commit_callbacks(execute=True) as sent:  # the publish runs after the commit
        services.move_submit(game_id=game.pk, user=alice, move_text=first_legal(game), expected_ply=game.ply)
    monkeypatch.undo()
    assert len(task_publishes(sent)) == 1  # it was tried, refused, and raised nothing for the player
    assert "task_enqueue_failed task=games.tasks.bot_turn_play" in caplog.text
    game.refresh_from_db()
    assert game.ply == 2 and Move.objects.filter(game=game, ply=2, user=alice).exists()
    assert _bot_moves(game) == [1]
    _age(game, _overdue())
    with django_capture_on_commit_callbacks(execute=True):
        assert services.bot_turns_requeue() == 1
    assert _bot_moves(game) == [1, 3]
