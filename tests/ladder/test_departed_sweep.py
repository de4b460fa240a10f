"""The ladder sweep (services.ladder_departed_games_requeue): when the task resigning a removed
player's running games is lost (a killed worker), the sweep enqueues it again once overdue.

In these tests (one rolled-back transaction each) an on-commit enqueue runs only when the
test runs it: the removal's own task is lost."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from games.models import GameStatus
from ladder import services, tasks
from ladder.models import LadderMember
from tests.helpers import task_publishes

from .conftest import position
from .test_ladder_rules import _time_out, challenge

pytestmark = pytest.mark.django_db


def _removed_with_a_game_left_running(ladder, players):
    """Three timeouts take players[3] off the ladder; the task resigning their running game is lost."""
    slow = players[3]
    running = challenge(ladder, slow, players[1])
    for challenger in players[4:7]:
        _time_out(challenge(ladder, challenger, slow).game, slow)
    assert position(ladder, slow) is None
    running.game.refresh_from_db()
    assert running.game.status == GameStatus.ACTIVE
    return slow, running


def _age_departure(ladder, user, seconds: float | None = None) -> None:
    LadderMember.objects.filter(ladder=ladder, user=user).update(
        left_at=timezone.now() - timedelta(seconds=seconds or settings.LADDER_RESIGN_OVERDUE_SECONDS + 5)
    )


def test_a_lost_resignation_is_enqueued_again_once_overdue(
    no_mail_pictures, ladder, players, django_capture_on_commit_callbacks
):
    slow, running = _removed_with_a_game_left_running(ladder, players)
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert services.ladder_departed_games_requeue() == 0  # just removed: its own task may be running
    assert sent == []
    _age_departure(ladder, slow)
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert services.ladder_departed_games_requeue() == 1
    assert len(task_publishes(sent)) == 1
    running.game.refresh_from_db()
    assert running.game.status == GameStatus.FINISHED and running.game.result_reason == "resign"
    assert running.game.winner_side != running.game.seats.get(user=slow).side
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert services.ladder_departed_games_requeue() == 0
    assert sent == []


def test_twice_and_a_late_redelivery_resign_once(ladder, players, django_capture_on_commit_callbacks):
    slow, running = _removed_with_a_game_left_running(ladder, players)
    _age_departure(ladder, slow)
    with django_capture_on_commit_callbacks(execute=False) as sent:
        assert services.ladder_departed_games_requeue() == 1
        assert services.ladder_departed_games_requeue() == 1
    sent[0]()
    running.game.refresh_from_db()
    assert running.game.status == GameStatus.FINISHED and running.game.result_reason == "resign"
    finished_at = running.game.finished_at
    sent[1]()
    # the removal's own task, redelivered late, finds nothing left to resign
    assert tasks.ladder_departed_games_resign.delay(ladder.pk, slow.pk).get() == 0
    running.game.refresh_from_db()
    assert running.game.finished_at == finished_at


def test_a_player_back_on_the_ladder_keeps_their_games(ladder, players, django_capture_on_commit_callbacks):
    slow, running = _removed_with_a_game_left_running(ladder, players)
    _age_departure(ladder, slow)
    services.ladder_join(ladder_id=ladder.pk, user=slow)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.ladder_departed_games_requeue() == 0
    running.game.refresh_from_db()
    assert running.game.status == GameStatus.ACTIVE
