import pytest

from games import bots, services, tasks
from games.models import Alarm, GameStatus, Move
from maatasite.celery import app

from .conftest import first_legal, play

pytestmark = pytest.mark.django_db


def solo_game(user, kind="onitama", options=None, side=None):
    """A solo game in which the bot moves first (found by trying sides)."""
    import engine

    rules = engine.get_game(kind)
    for attempt in range(40):
        game = services.game_create_solo(
            user=user, kind=kind, bot_level=1, side=side or rules.players[attempt % 2], options=options
        )
        if game.seats.get(side=game.to_move_side).is_bot:
            return game
    raise AssertionError("the bot never moved first")


def test_bot_turn_is_played_once_even_when_the_task_runs_twice(alice):
    game = solo_game(alice)
    assert game.ply == 0 and game.deadline is None and game.to_move_user is None
    played = tasks.bot_turn_play.delay(game.pk, 0).get()
    assert len(played) == 1
    again = tasks.bot_turn_play.delay(game.pk, 0).get()
    assert again == []
    game.refresh_from_db()
    assert game.ply == 1 and game.to_move_user == alice and game.deadline is not None
    move = Move.objects.get(game=game)
    assert move.user is None and move.bot_seed is not None and move.seat.is_bot


def test_bot_answers_after_the_human_moves(alice, django_capture_on_commit_callbacks):
    game = solo_game(alice)
    with django_capture_on_commit_callbacks(execute=True):
        tasks.bot_turn_play.delay(game.pk, 0).get()
    for _ in range(3):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        assert game.to_move_user == alice
        with django_capture_on_commit_callbacks(execute=True):
            services.move_submit(game_id=game.pk, user=alice, move_text=first_legal(game), expected_ply=game.ply)
    game.refresh_from_db()
    assert game.status != GameStatus.ACTIVE or game.to_move_user == alice
    assert Move.objects.filter(game=game, user__isnull=True).count() >= 3


def test_the_bot_sees_only_the_view(alice, monkeypatch):
    game = solo_game(alice)
    seen = []
    real = bots.bot_choose_move

    def spy(**kwargs):
        seen.append(kwargs["view"])
        return real(**kwargs)

    monkeypatch.setattr(bots, "bot_choose_move", spy)
    services.bot_turn_play(game_id=game.pk, ply=0)
    game_json = services.rules_for("onitama").view(
        services.rules_for("onitama").new_game(services.game_secret(game)[1], game.options), "red"
    )
    assert seen and set(seen[0]) == set(game_json)


def test_bot_choice_is_a_legal_move_and_repeats_with_its_seed(alice):
    game = solo_game(alice)
    rules = services.rules_for("onitama")
    state = services.game_state(game)
    view = rules.view(state, game.to_move_side)
    legal = {rules.move_text(m) for m in rules.legal_moves(state)}
    choices = {bots.bot_choose_move(game_kind="onitama", view=view, level=1, seed=s) for s in range(30)}
    assert choices <= legal and len(choices) > 1
    assert bots.bot_choose_move(game_kind="onitama", view=view, level=1, seed=7) == bots.bot_choose_move(
        game_kind="onitama", view=view, level=1, seed=7
    )


def test_a_turn_schedules_its_alarms_once(onitama_game, django_capture_on_commit_callbacks):
    """Mail is scheduled as alarm rows (sent by correspondence): "your turn" at the start,
    reminders at 80 % of the time and 6 hours before the deadline."""
    from datetime import timedelta

    game = onitama_game
    alarms = {a.kind: a for a in Alarm.objects.filter(game=game, turn=game.turn)}
    assert set(alarms) == {"your_turn", "reminder", "last_call"}
    assert all(a.user_id == game.to_move_user_id and a.sent_at is None for a in alarms.values())
    assert alarms["your_turn"].due_at == game.turn_started_at
    assert alarms["reminder"].due_at == game.turn_started_at + timedelta(days=3) * 0.8
    assert alarms["last_call"].due_at == game.deadline - timedelta(hours=6)
    first_player = game.to_move_user_id
    with django_capture_on_commit_callbacks(execute=True):
        game = play(game, 1)
    # the next turn belongs to the other player; the old turn's unsent reminders are gone
    assert Alarm.objects.filter(game=game, kind__in=["reminder", "last_call"]).count() == 2
    assert set(Alarm.objects.filter(game=game, kind="your_turn").values_list("user_id", flat=True)) == {
        first_player,
        game.to_move_user_id,
    }


def test_a_short_turn_gets_one_reminder(alice, bob):
    """With one day per move, 6 hours before the deadline comes before 80 %: one reminder."""
    from .conftest import start_game

    game = start_game(alice, bob, days_per_move=1)
    assert sorted(Alarm.objects.filter(game=game).values_list("kind", flat=True)) == ["reminder", "your_turn"]


def test_game_over_schedules_one_alarm_per_player(onitama_game, alice, bob):
    services.game_resign(game_id=onitama_game.pk, user=alice)
    over = Alarm.objects.filter(game=onitama_game, kind="game_over")
    assert sorted(over.values_list("user_id", flat=True)) == sorted([alice.pk, bob.pk])
    assert not Alarm.objects.filter(
        game=onitama_game, kind__in=["reminder", "last_call"], sent_at__isnull=True
    ).exists()


def test_no_alarm_for_a_bot(alice):
    game = solo_game(alice)
    assert not Alarm.objects.filter(game=game).exists()


def test_tasks_are_late_acknowledged_and_retried():
    for task in (tasks.bot_turn_play, tasks.games_timeout_sweep):
        assert task.acks_late is True
        assert task.autoretry_for and task.retry_backoff
    assert tasks.games_timeout_sweep.name == "games.tasks.games_timeout_sweep"


def test_the_bot_task_is_named_as_its_service_and_the_old_name_still_plays(alice):
    assert tasks.bot_turn_play.name == "games.tasks.bot_turn_play"
    # a message queued under the name before the rename, delivered after the deploy
    old = app.tasks["games.tasks.bot_play_turn"]
    game = solo_game(alice)
    assert len(old.delay(game.pk, 0).get()) == 1
    assert old.delay(game.pk, 0).get() == []
    game.refresh_from_db()
    assert game.ply == 1 and game.to_move_user == alice
