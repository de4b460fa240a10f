"""Fair-play checks left undone by a killed worker are enqueued again by the sweep, once no run
of them can still be going (the task's hard time limit); the time limit itself fails a check
with its reason, and the broker's visibility timeout is longer than it."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.utils import timezone

from fairplay import services, tasks
from fairplay.models import CheckStatus, FairPlayCheck, FairPlayCheckGame
from maatasite.celery import app

from .conftest import finished

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def _lost_request(staff, player) -> FairPlayCheck:
    """A check whose task was lost: the on-commit enqueue of the request never runs here."""
    return services.fairplay_check_request(
        staff=staff, player=player, kind="onitama", games=5, reason="Reported for engine help."
    )


def _lost_ago() -> datetime:
    return timezone.now() - timedelta(seconds=settings.FAIRPLAY_CHECK_HARD_SECONDS + 5)


def test_a_lost_queued_check_is_enqueued_again_and_done(alice, bob, staff, django_capture_on_commit_callbacks):
    finished(alice, bob)
    check = _lost_request(staff, alice)
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert services.fairplay_checks_requeue() == 0  # just queued: it may wait behind others
    assert sent == []
    FairPlayCheck.objects.filter(pk=check.pk).update(requested_at=_lost_ago())
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert services.fairplay_checks_requeue() == 1
    assert len(sent) == 1
    check.refresh_from_db()
    assert check.status == CheckStatus.DONE and check.decisions > 0
    with django_capture_on_commit_callbacks(execute=True):
        assert services.fairplay_checks_requeue() == 0


def test_a_check_left_running_by_a_killed_worker_is_run_again_after_the_time_limit(
    alice, bob, staff, django_capture_on_commit_callbacks
):
    finished(alice, bob)
    check = _lost_request(staff, alice)
    started = timezone.now() - timedelta(seconds=settings.FAIRPLAY_CHECK_SECONDS)
    FairPlayCheck.objects.filter(pk=check.pk).update(
        status=CheckStatus.RUNNING, requested_at=_lost_ago(), started_at=started
    )
    with django_capture_on_commit_callbacks(execute=True):
        # within the hard limit a run may still be going: it is left alone
        assert services.fairplay_checks_requeue() == 0
    FairPlayCheck.objects.filter(pk=check.pk).update(started_at=_lost_ago())
    with django_capture_on_commit_callbacks(execute=False) as sent:
        assert services.fairplay_checks_requeue() == 1
        assert services.fairplay_checks_requeue() == 1
    for send in sent:  # two sweeps, then the lost task redelivered late
        send()
    assert tasks.fairplay_check_run.delay(check.pk).get() == CheckStatus.DONE
    check.refresh_from_db()
    assert check.status == CheckStatus.DONE
    assert FairPlayCheckGame.objects.filter(fairplay_check=check).count() == 1


def test_done_and_failed_checks_are_left_alone(alice, bob, staff, django_capture_on_commit_callbacks):
    finished(alice, bob)
    done, failed = _lost_request(staff, alice), _lost_request(staff, alice)
    FairPlayCheck.objects.filter(pk=done.pk).update(
        status=CheckStatus.DONE, requested_at=_lost_ago(), started_at=_lost_ago()
    )
    FairPlayCheck.objects.filter(pk=failed.pk).update(
        status=CheckStatus.FAILED, requested_at=_lost_ago(), started_at=_lost_ago()
    )
    with django_capture_on_commit_callbacks(execute=True) as sent:
        assert services.fairplay_checks_requeue() == 0
    assert sent == []


def test_a_check_past_its_soft_time_limit_fails_with_the_reason(
    alice, bob, staff, monkeypatch, django_capture_on_commit_callbacks
):
    finished(alice, bob)

    def too_long(**kwargs):
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(services, "game_agreement_compute", too_long)
    with django_capture_on_commit_callbacks(execute=True):
        check = _lost_request(staff, alice)
    check.refresh_from_db()
    assert check.status == CheckStatus.FAILED
    assert "FAIRPLAY_CHECK_SECONDS" in check.error and str(settings.FAIRPLAY_CHECK_SECONDS) in check.error


def test_the_check_task_is_time_limited_below_the_visibility_timeout():
    task = app.tasks["fairplay.tasks.fairplay_check_run"]
    assert task.soft_time_limit == settings.FAIRPLAY_CHECK_SECONDS
    assert task.time_limit == settings.FAIRPLAY_CHECK_HARD_SECONDS > task.soft_time_limit
    assert app.conf.broker_transport_options["visibility_timeout"] == settings.CELERY_VISIBILITY_TIMEOUT
    assert settings.CELERY_VISIBILITY_TIMEOUT > settings.FAIRPLAY_CHECK_HARD_SECONDS
    # the sweep itself is quick: it must not wait behind the checks on the slow queue
    assert (
        app.amqp.router.route({}, "fairplay.tasks.fairplay_checks_sweep")["queue"].name == app.conf.task_default_queue
    )
    assert app.amqp.router.route({}, "fairplay.tasks.fairplay_check_run")["queue"].name == "slow"


@pytest.mark.parametrize("visibility, check_seconds", [("3600", "3600"), ("600", None)])
def test_a_visibility_timeout_shorter_than_the_longest_task_is_refused_at_start(visibility, check_seconds):
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "maatasite.settings", "CELERY_VISIBILITY_TIMEOUT": visibility}
    if check_seconds:
        env["FAIRPLAY_CHECK_SECONDS"] = check_seconds
    run = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode != 0 and "CELERY_VISIBILITY_TIMEOUT must be longer" in run.stderr
