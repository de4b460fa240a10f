"""Celery tasks of fair play: idempotent, acknowledged late, retried with backoff."""
from __future__ import annotations

from celery import shared_task

from maatasite.task_policy import RETRYING_TASK

from . import services


@shared_task(name="fairplay.tasks.fairplay_check_run", **RETRYING_TASK)
def fairplay_check_run(self, check_id: int) -> str:
    """Compute a fair-play check (minutes at level 5); a finished check is left as it is."""
    check = services.fairplay_check_run(check_id=check_id)
    return check.status if check is not None else "missing"
