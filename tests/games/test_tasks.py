import pytest
from django.core import mail

from games import bots, services, tasks
from games.models import GameStatus, Move, SentMail

from .conftest import first_legal, play

pytestmark = pytest.mark.django_db


def solo_game(user, kind="onitama", options=None, side=None):
    """A solo game in which the bot moves first (found by trying sides)."""
    import engine
    rules = engine.get_game(kind)
    for attempt in range(40):
        game = services.game_create_solo(user=user, kind=kind, bot_level=1,
                                         side=side or rules.players[attempt % 2], options=options)
        if game.seats.get(side=game.to_move_side).is_bot:
            return game
    raise AssertionError("the bot never moved first")


def test_bot_turn_is_played_once_even_when_the_task_runs_twice(alice):
    game = solo_game(alice)
    assert game.ply == 0 and game.deadline is None and game.to_move_user is None
    played = tasks.bot_play_turn.delay(game.pk, 0).get()
    assert len(played) == 1
    again = tasks.bot_play_turn.delay(game.pk, 0).get()
    assert again == []
    game.refresh_from_db()
    assert game.ply == 1 and game.to_move_user == alice and game.deadline is not None
    move = Move.objects.get(game=game)
    assert move.user is None and move.bot_seed is not None and move.seat.is_bot


def test_bot_answers_after_the_human_moves(alice, django_capture_on_commit_callbacks):
    game = solo_game(alice)
    with django_capture_on_commit_callbacks(execute=True):
        tasks.bot_play_turn.delay(game.pk, 0).get()
    for _ in range(3):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        assert game.to_move_user == alice
        with django_capture_on_commit_callbacks(execute=True):
            services.move_submit(game_id=game.pk, user=alice, move_text=first_legal(game),
                                 expected_ply=game.ply)
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
        services.rules_for("onitama").new_game(services.game_secret(game)[1], game.options), "red")
    assert seen and set(seen[0]) == set(game_json)


def test_bot_choice_is_a_legal_move_and_repeats_with_its_seed(alice):
    game = solo_game(alice)
    rules = services.rules_for("onitama")
    state = services.game_state(game)
    view = rules.view(state, game.to_move_side)
    legal = {rules.move_text(m) for m in rules.legal_moves(state)}
    choices = {bots.bot_choose_move(game_kind="onitama", view=view, level=1, seed=s) for s in range(30)}
    assert choices <= legal and len(choices) > 1
    assert bots.bot_choose_move(game_kind="onitama", view=view, level=1, seed=7) == \
        bots.bot_choose_move(game_kind="onitama", view=view, level=1, seed=7)


def test_your_turn_mail_once_per_turn_and_player(onitama_game, django_capture_on_commit_callbacks):
    game = onitama_game
    mail.outbox.clear()
    assert tasks.notify_your_turn.delay(game.pk, 0).get() == "sent"
    assert tasks.notify_your_turn.delay(game.pk, 0).get() == "already_sent"
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [game.to_move_user.email]
    from django.conf import settings
    link = settings.SITE_URL + "/games/%d/" % game.pk
    assert link in message.body
    html = message.alternatives[0][0]
    assert 'href="%s"' % link in html
    assert SentMail.objects.filter(game=game, kind="your_turn").count() == 1
    # The next turn mails the other player, through on_commit.
    with django_capture_on_commit_callbacks(execute=True):
        play(game, 1)
    assert len(mail.outbox) == 2 and mail.outbox[1].to != message.to
    # A stale task (the game moved on) sends nothing.
    assert tasks.notify_your_turn.delay(game.pk, 0).get() == "stale"


def test_no_mail_when_the_player_turned_it_off(onitama_game):
    user = onitama_game.to_move_user
    user.email_on_your_turn = False
    user.save()
    mail.outbox.clear()
    assert tasks.notify_your_turn.delay(onitama_game.pk, 0).get() == "nobody"
    assert mail.outbox == []


def test_game_over_mail_once(onitama_game, alice, bob, django_capture_on_commit_callbacks):
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.game_resign(game_id=onitama_game.pk, user=alice)
    assert sorted(m.to[0] for m in mail.outbox) == [alice.email, bob.email]
    assert tasks.notify_game_over.delay(onitama_game.pk).get() == 0
    assert len(mail.outbox) == 2
    bodies = {m.to[0]: m.body for m in mail.outbox}
    assert "You lost." in bodies[alice.email] and "You won." in bodies[bob.email]


def test_tasks_are_late_acknowledged_and_retried():
    for task in (tasks.bot_play_turn, tasks.notify_your_turn, tasks.notify_game_over,
                 tasks.games_timeout_sweep):
        assert task.acks_late is True
        assert task.autoretry_for and task.retry_backoff
    assert tasks.games_timeout_sweep.name == "games.tasks.games_timeout_sweep"


def test_a_failing_engine_bot_falls_back_on_a_random_legal_move(alice, monkeypatch):
    import engine.bots

    def broken(*args, **kwargs):
        raise RuntimeError("search exploded")

    monkeypatch.setattr(engine.bots, "choose_move", broken)
    game = solo_game(alice)
    rules = services.rules_for("onitama")
    state = services.game_state(game)
    text = bots.bot_choose_move(game_kind="onitama", view=rules.view(state, game.to_move_side),
                                level=3, seed=11)
    assert text in {rules.move_text(m) for m in rules.legal_moves(state)}


def test_the_random_fallback_plays_maatatahay_from_the_view_only(alice, bob):
    from .conftest import start_game
    game = play(start_game(alice, bob, "maatatahay", {"variant": "standard"}), 7)
    rules = services.rules_for("maatatahay")
    state = services.game_state(game)
    view = rules.view(state, game.to_move_side)
    assert "piles" not in view
    legal = {rules.move_text(m) for m in rules.legal_moves(state)}
    for seed in range(5):
        assert bots.random_move_from_view(game_kind="maatatahay", view=view, seed=seed) in legal


def test_a_reminder_goes_out_once_per_turn_when_time_runs_short(onitama_game):
    from datetime import timedelta

    from django.utils import timezone

    from games import notifications
    from games.models import Game
    game = onitama_game
    now = timezone.now()
    mail.outbox.clear()
    assert notifications.remind_due(now=now) == 0  # three days left: too early
    later = game.deadline - timedelta(hours=5)
    assert notifications.remind_due(now=later) == 1
    assert notifications.remind_due(now=later) == 0
    assert len(mail.outbox) == 1 and mail.outbox[0].to == [game.to_move_user.email]
    assert "/games/%d/" % game.pk in mail.outbox[0].body
    assert notifications.remind_due(now=game.deadline + timedelta(seconds=1)) == 0  # past: time-out's job
    # the next turn may be reminded again
    game = play(game, 1)
    assert notifications.remind_due(now=game.deadline - timedelta(hours=1)) == 1
    assert Game.objects.get(pk=game.pk).status == GameStatus.ACTIVE
