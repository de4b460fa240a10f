"""A bot that fails plays no stand-in move: its turn's task retries with backoff, and after
the last retry the game is flagged for staff with its clock held; the bot turns sweep leaves
it alone until staff let the bot play again (games.tasks.bot_turn_play, games.services)."""

from datetime import timedelta

import pytest
from django.utils import timezone

import engine.bots
from accounts.models import StaffAction, StaffActionKind
from games import bots, selectors, services, tasks
from games.errors import Conflict
from games.models import Game, Move
from ops import services as ops_services

from .test_bot_sweep import _age, _overdue
from .test_tasks import solo_game

pytestmark = pytest.mark.django_db


class BrokenBot:
    """The engine's bot raising at every call (``calls`` counts them) until ``fix()``."""

    def __init__(self, monkeypatch):
        self.calls: list[int | None] = []  # the seed of each call
        self._monkeypatch = monkeypatch
        self._real = engine.bots.choose_move
        monkeypatch.setattr(engine.bots, "choose_move", self._broken)

    def _broken(self, *args, **kwargs):
        self.calls.append(kwargs.get("seed"))
        raise RuntimeError("search exploded")

    def fix(self) -> None:
        self._monkeypatch.setattr(engine.bots, "choose_move", self._real)


@pytest.fixture
def broken_bot(monkeypatch):
    """In-process (eager) tasks run their retries at once, one after the other, when an
    error is not raised to the caller (a worker runs them after their countdowns)."""
    tasks.bot_turn_play.app.conf.task_eager_propagates = False  # restored by tests/conftest.py
    return BrokenBot(monkeypatch)


def test_a_failing_bot_raises_instead_of_playing_a_random_move(alice, broken_bot):
    game = solo_game(alice)
    rules = services.rules_for("onitama")
    view = rules.view(services.game_state(game), game.to_move_side)
    with pytest.raises(bots.BotFailed, match="RuntimeError: search exploded"):
        bots.bot_choose_move(game_kind="onitama", view=view, level=3, seed=11)
    with pytest.raises(bots.BotFailed):
        services.bot_turn_play(game_id=game.pk, ply=0)
    assert not Move.objects.filter(game=game).exists()


def test_a_bot_failing_on_every_retry_flags_the_game_and_holds_its_clock(
    alice, broken_bot, django_capture_on_commit_callbacks
):
    game = solo_game(alice)
    assert tasks.bot_turn_play.delay(game.pk, 0).get() == []
    # The first try and every retry asked the bot; none played anything.
    assert len(broken_bot.calls) == tasks.bot_turn_play.max_retries + 1
    game.refresh_from_db()
    assert game.ply == 0 and not Move.objects.filter(game=game).exists()
    assert game.bot_failed_at is not None and "search exploded" in game.bot_failure
    assert game.clock_held_since == game.bot_failed_at and game.clock_hold_reason

    # The sweep leaves the flagged game alone, however overdue its turn.
    _age(game, 10 * _overdue())
    assert selectors.bot_turns_overdue(before=timezone.now(), limit=10) == []
    with django_capture_on_commit_callbacks(execute=False) as sent:
        assert services.bot_turns_requeue() == 0
    assert sent == []
    # A stray copy of the task (a late redelivery) does not ask the bot again either.
    asked = len(broken_bot.calls)
    assert tasks.bot_turn_play.delay(game.pk, 0).get() == []
    assert len(broken_bot.calls) == asked


def test_the_task_retries_a_failing_bot_with_backoff(alice, broken_bot, monkeypatch):
    game = solo_game(alice)
    countdowns = []
    real_retry = tasks.bot_turn_play.retry

    def spy_retry(*args, **kwargs):
        countdowns.append(kwargs["countdown"])
        return real_retry(*args, **kwargs)

    monkeypatch.setattr(tasks.bot_turn_play, "retry", spy_retry)
    tasks.bot_turn_play.delay(game.pk, 0).get()
    assert len(countdowns) == tasks.bot_turn_play.max_retries
    assert all(0 <= wait <= 2**attempt for attempt, wait in enumerate(countdowns))


def test_staff_let_the_fixed_bot_play_again(alice, broken_bot, django_capture_on_commit_callbacks):
    game = solo_game(alice)
    tasks.bot_turn_play.delay(game.pk, 0).get()
    staff = type(alice).objects.create_user("staffer", password="pw-staff-123456", is_staff=True)
    broken_bot.fix()
    with django_capture_on_commit_callbacks(execute=True):
        ops_services.game_bot_release(game_id=game.pk, staff=staff, reason="engine fixed")
    game.refresh_from_db()
    assert game.bot_failed_at is None and game.bot_failure == ""
    assert game.clock_held_since is None and game.clock_paused_at is None
    assert game.ply >= 1 and Move.objects.filter(game=game, user__isnull=True).exists()
    audit = StaffAction.objects.get(action=StaffActionKind.BOT_RELEASE)
    assert audit.target == game and audit.reason == "engine fixed"
    assert "search exploded" in audit.details["failure"]
    with pytest.raises(Conflict):
        ops_services.game_bot_release(game_id=game.pk, staff=staff, reason="again")


def test_a_game_that_moved_on_is_not_flagged(alice, bob):
    from .conftest import start_game

    game = start_game(alice, bob)
    services.bot_turn_flag(game_id=game.pk, ply=game.ply + 1, failure="late")
    game.refresh_from_db()
    assert game.bot_failed_at is None and game.clock_held_since is None


def test_releasing_keeps_a_hold_that_came_otherwise(alice, broken_bot):
    game = solo_game(alice)
    held_at = timezone.now() - timedelta(hours=1)
    services.game_clock_pause(game_id=game.pk, reason="tournament paused", now=held_at)
    tasks.bot_turn_play.delay(game.pk, 0).get()
    game.refresh_from_db()
    assert game.bot_failed_at is not None and game.clock_held_since == held_at
    services.bot_turn_unflag(game_id=game.pk)
    game = Game.objects.get(pk=game.pk)
    assert game.bot_failed_at is None and game.clock_held_since == held_at


def test_staff_see_the_flag_in_the_admin_and_release_from_it(
    client, alice, broken_bot, django_capture_on_commit_callbacks
):
    from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
    from django.urls import reverse

    flagged, healthy = solo_game(alice), solo_game(alice)
    tasks.bot_turn_play.delay(flagged.pk, 0).get()
    boss = type(alice).objects.create_superuser("boss", "boss@example.org", "pw-boss-123456")
    client.force_login(boss)
    changelist = reverse("admin:ops_gameadjudication_changelist")
    shown = client.get(changelist, {"bot_failed_at__isnull": "False"})
    assert shown.status_code == 200
    assert list(shown.context["cl"].result_list) == [Game.objects.get(pk=flagged.pk)]
    assert client.get(reverse("admin:games_game_change", args=[flagged.pk])).status_code == 200
    page = client.get(reverse("admin:ops_gameadjudication_change", args=[flagged.pk])).content.decode()
    assert "search exploded" in page
    broken_bot.fix()
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(
            changelist,
            {"action": "release_bot", ACTION_CHECKBOX_NAME: [flagged.pk], "apply": "1", "reason": "engine fixed"},
        )
    assert done.status_code == 302
    assert Game.objects.get(pk=flagged.pk).bot_failed_at is None
    # A game whose bot never failed is refused with a message, and nothing is logged for it.
    refused = client.post(
        changelist,
        {"action": "release_bot", ACTION_CHECKBOX_NAME: [healthy.pk], "apply": "1", "reason": "why not"},
        follow=True,
    )
    assert "nothing to release" in refused.content.decode()
    assert [action.target for action in StaffAction.objects.all()] == [flagged]
