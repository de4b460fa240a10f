"""Celery tasks of the ladder app: idempotent, acknowledged late, retried with backoff."""
from __future__ import annotations

from celery import shared_task
from django.db import DatabaseError

from . import services


@shared_task(name="ladder.tasks.ladder_departed_games_resign", bind=True, acks_late=True,
             autoretry_for=(DatabaseError,), retry_backoff=True, retry_backoff_max=600,
             retry_jitter=True, max_retries=8)
def ladder_departed_games_resign(self, ladder_id: int, user_id: int) -> int:
    """Resign the running ladder games of a player taken off the ladder (none left: a no-op)."""
    return services.ladder_departed_games_resign(ladder_id=ladder_id, user_id=user_id)
