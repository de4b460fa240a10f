"""Celery tasks of post-game analysis: idempotent, ids only, acknowledged late, retried with backoff."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from maatasite.task_policy import RETRYING_TASK


@shared_task(
    name="analysis.tasks.game_analysis_run",
    soft_time_limit=settings.ANALYSIS_TASK_SECONDS,
    time_limit=settings.ANALYSIS_TASK_HARD_SECONDS,
    **RETRYING_TASK,
)
def game_analysis_run(self, analysis_id: int) -> str:
    """Compute a queued analysis (minutes of bot search, on the queue ``analysis``); one done,
    failed or being computed by another run is left as it is."""
    from . import services  # at run time: services import this module to enqueue

    row = services.game_analysis_run(analysis_id=analysis_id)
    return row.status if row is not None else "missing"


@shared_task(name="analysis.tasks.game_analyses_sweep", **RETRYING_TASK)
def game_analyses_sweep(self) -> int:
    """From beat (on the default queue): enqueue again the analyses whose task was lost."""
    from . import services  # at run time: services import this module to enqueue

    return services.game_analyses_requeue()
