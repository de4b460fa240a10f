"""Celery tasks of fair play: idempotent, acknowledged late, retried with backoff."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from maatasite.task_policy import RETRYING_TASK


@shared_task(
    name="fairplay.tasks.fairplay_check_run",
    soft_time_limit=settings.FAIRPLAY_CHECK_SECONDS,
    time_limit=settings.FAIRPLAY_CHECK_HARD_SECONDS,
    **RETRYING_TASK,
)
def fairplay_check_run(self, check_id: int) -> str:
    """Compute a fair-play check (minutes at level 5); a finished check is left as it is.

    The time limits bound the longest task of the site, which CELERY_VISIBILITY_TIMEOUT must
    exceed: past the soft one the check fails with its reason (the prefork pool enforces them)."""
    from . import services  # at run time: services import this module to enqueue

    check = services.fairplay_check_run(check_id=check_id)
    return check.status if check is not None else "missing"


@shared_task(name="fairplay.tasks.fairplay_checks_sweep", **RETRYING_TASK)
def fairplay_checks_sweep(self) -> int:
    """From beat (on the default queue, not behind the checks): enqueue the lost checks again."""
    from . import services  # at run time: services import this module to enqueue

    return services.fairplay_checks_requeue()
