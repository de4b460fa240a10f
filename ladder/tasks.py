"""Celery tasks of the ladder app: idempotent, acknowledged late, retried with backoff."""

from __future__ import annotations

from celery import shared_task

from maatasite.task_policy import RETRYING_TASK


@shared_task(name="ladder.tasks.ladder_departed_games_resign", **RETRYING_TASK)
def ladder_departed_games_resign(self, ladder_id: int, user_id: int) -> int:
    """Resign the running ladder games of a player taken off the ladder (none left: a no-op)."""
    from . import services  # at run time: services import this module to enqueue

    return services.ladder_departed_games_resign(ladder_id=ladder_id, user_id=user_id)


@shared_task(name="ladder.tasks.ladder_departed_sweep", **RETRYING_TASK)
def ladder_departed_sweep(self) -> int:
    """The beat task (LADDER_SWEEP_SECONDS): enqueue again the resignations left undone."""
    from . import services  # at run time: services import this module to enqueue

    return services.ladder_departed_games_requeue()
