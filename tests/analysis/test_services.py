"""Post-game analysis through its services and task: only for a game that is over, asked by
one of its players, cached per game, rate-limited per player, computed once however often
its task runs, and enqueued again by the sweep when its task was lost."""

from __future__ import annotations

from datetime import timedelta

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.utils import timezone

from analysis import selectors, services
from analysis.models import AnalysisStatus, GameAnalysis
from api.ratelimits import RateLimited
from engine.bots import bot_version
from games.errors import GameActionError
from games.models import GameStatus
from maatasite.celery import app
from tests.factories import start_game

from .conftest import LEVEL, finished

pytestmark = pytest.mark.django_db


def test_a_player_asks_and_the_task_judges_every_position(
    alice, bob, finished_game, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as sent:
        row, queued = services.game_analysis_request(game_id=finished_game.pk, user=alice)
    assert queued and len(sent) == 1
    row.refresh_from_db()
    assert row.status == AnalysisStatus.DONE, row.error
    assert (row.bot_level, row.bot_version, row.game_ply) == (LEVEL, bot_version("onitama"), finished_game.ply)
    assert [p["ply"] for p in row.positions] == list(range(finished_game.ply + 1))
    assert [p["played"] for p in row.positions[:-1]] == list(
        finished_game.moves.order_by("ply").values_list("text", flat=True)
    )
    # The other player's request finds it made: nothing queued, nothing spent.
    with django_capture_on_commit_callbacks(execute=True) as sent:
        again, queued = services.game_analysis_request(game_id=finished_game.pk, user=bob)
    assert (again.pk, queued, sent) == (row.pk, False, [])


@pytest.mark.parametrize("rated", [True, False])
def test_never_for_a_running_game_rated_or_not(alice, bob, rated, django_capture_on_commit_callbacks):
    game = start_game(alice, bob, "onitama", {"cards": "base"}, rated=rated)
    with django_capture_on_commit_callbacks(execute=True) as sent, pytest.raises(GameActionError) as refused:
        services.game_analysis_request(game_id=game.pk, user=alice)
    assert (refused.value.status, refused.value.code, sent) == (409, "analysis_game_running", [])
    assert "still running" in refused.value.message
    assert not GameAnalysis.objects.exists()
    assert selectors.analysis_for_viewer(game=game, user=alice) is None


def test_only_the_players_ask(carol, finished_game):
    with pytest.raises(GameActionError) as refused:
        services.game_analysis_request(game_id=finished_game.pk, user=carol)
    assert (refused.value.status, refused.value.code) == (403, "analysis_not_a_player")
    with pytest.raises(GameActionError) as refused:
        services.game_analysis_request(game_id=finished_game.pk + 1000, user=carol)
    assert refused.value.status == 404


def test_the_budget_is_per_player_and_a_made_analysis_costs_nothing(
    alice, bob, settings, django_capture_on_commit_callbacks
):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "analysis": "2/hour"}
    games = [finished(alice, bob, seed=seed) for seed in (1, 2, 3)]
    with django_capture_on_commit_callbacks(execute=True):
        for game in games[:2]:
            services.game_analysis_request(game_id=game.pk, user=alice)
    with pytest.raises(RateLimited) as limited:
        services.game_analysis_request(game_id=games[2].pk, user=alice)
    assert limited.value.retry_after >= 1 and "try again" in limited.value.message
    assert not GameAnalysis.objects.filter(game=games[2]).exists()
    # cached: asking again for a made one still works, and costs nothing
    row, queued = services.game_analysis_request(game_id=games[0].pk, user=alice)
    assert row.status == AnalysisStatus.DONE and not queued
    # bob's budget is his own
    _row, queued = services.game_analysis_request(game_id=games[2].pk, user=bob)
    assert queued


def test_a_changed_bot_or_game_is_analysed_again_never_reused(alice, finished_game, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        row, _ = services.game_analysis_request(game_id=finished_game.pk, user=alice)
    GameAnalysis.objects.filter(pk=row.pk).update(bot_version="onitama-old")
    shown = selectors.analysis_for_viewer(game=finished_game, user=alice)
    assert shown is not None and not shown.current and shown.can_request
    with django_capture_on_commit_callbacks(execute=True) as sent:
        again, queued = services.game_analysis_request(game_id=finished_game.pk, user=alice)
    assert queued and len(sent) == 1 and again.pk == row.pk
    again.refresh_from_db()
    assert again.status == AnalysisStatus.DONE and again.bot_version == bot_version("onitama")


def _lost_request(game, user) -> GameAnalysis:
    """An analysis whose task was lost: the on-commit enqueue of the request never runs here."""
    row, _ = services.game_analysis_request(game_id=game.pk, user=user)
    return row


def _run(analysis_id: int) -> GameAnalysis:
    row = services.game_analysis_run(analysis_id=analysis_id)
    assert row is not None
    return row


def _lost_ago():
    return timezone.now() - timedelta(seconds=settings.ANALYSIS_TASK_HARD_SECONDS + 5)


def test_the_task_is_idempotent_and_a_lost_one_is_enqueued_again(
    alice, finished_game, django_capture_on_commit_callbacks
):
    row = _lost_request(finished_game, alice)
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert services.game_analyses_requeue() == 0  # just queued: it may wait behind others
    assert sent == []
    GameAnalysis.objects.filter(pk=row.pk).update(requested_at=_lost_ago())
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert services.game_analyses_requeue() == 1
    assert len(sent) == 1
    row.refresh_from_db()
    assert row.status == AnalysisStatus.DONE
    finished_at = row.finished_at
    assert _run(row.pk).finished_at == finished_at  # done: unchanged
    with django_capture_on_commit_callbacks(execute=True):
        assert services.game_analyses_requeue() == 0


def test_a_run_under_way_is_left_alone_until_its_time_limit(alice, finished_game):
    row = _lost_request(finished_game, alice)
    GameAnalysis.objects.filter(pk=row.pk).update(status=AnalysisStatus.RUNNING, started_at=timezone.now())
    assert _run(row.pk).status == AnalysisStatus.RUNNING
    assert services.game_analyses_requeue() == 0
    GameAnalysis.objects.filter(pk=row.pk).update(requested_at=_lost_ago(), started_at=_lost_ago())
    assert services.game_analyses_requeue() == 1
    assert _run(row.pk).status == AnalysisStatus.DONE


def test_a_game_running_again_fails_its_queued_analysis(alice, finished_game):
    row = _lost_request(finished_game, alice)
    finished_game.__class__.objects.filter(pk=finished_game.pk).update(status=GameStatus.ACTIVE)
    done = _run(row.pk)
    assert done.status == AnalysisStatus.FAILED and done.result is None


def test_the_time_limit_fails_it_with_its_reason(alice, finished_game, monkeypatch):
    row = _lost_request(finished_game, alice)

    def too_long(*args, **kwargs):
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(services, "analyse_game", too_long)
    done = _run(row.pk)
    assert done.status == AnalysisStatus.FAILED and "ANALYSIS_TASK_SECONDS" in done.error


def test_maatatahay_marks_only_drops(alice, bob, django_capture_on_commit_callbacks):
    game = finished(alice, bob, kind="maatatahay", decisions=14)
    with django_capture_on_commit_callbacks(execute=True):
        row, _ = services.game_analysis_request(game_id=game.pk, user=bob)
    row.refresh_from_db()
    assert row.status == AnalysisStatus.DONE, row.error
    assert len(row.positions) == game.ply + 1
    assert all(m["kind"] == "drop" for m in row.marks)


def test_analyses_go_to_their_own_queue_with_a_worker_of_their_own():
    """Minutes of bot search per analysis never hold up moves, mail or the fair-play checks."""
    from pathlib import Path

    router = app.amqp.router
    assert router.route({}, "analysis.tasks.game_analysis_run")["queue"].name == "analysis"
    assert router.route({}, "analysis.tasks.game_analyses_sweep")["queue"].name == app.conf.task_default_queue
    assert router.route({}, "fairplay.tasks.fairplay_check_run")["queue"].name == "slow"
    procfile = (Path(__file__).resolve().parents[2] / "Procfile").read_text()
    lines = dict(line.split(":", 1) for line in procfile.splitlines() if ":" in line)
    assert "-Q analysis" in lines["analysis"] and "-Q" not in lines["worker"]
    from ops.management.commands.run_local import worker_queues

    assert "analysis" in worker_queues()  # make run's one worker serves it too
