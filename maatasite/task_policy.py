"""The one retry policy of the project's Celery tasks.

Every task is idempotent, so it may run again: it is acknowledged only after
it ran (``acks_late``; with CELERY_TASK_REJECT_ON_WORKER_LOST a task whose
worker died is delivered again), and retried with jittered exponential
backoff when the database, the SMTP server or the network fail for a while.

    @shared_task(name="games.tasks.bot_play_turn", **RETRYING_TASK)
    def bot_play_turn(self, game_id, ply): ...
"""
from __future__ import annotations

from smtplib import SMTPException
from typing import Any

from django.db import DatabaseError

RETRYING_TASK: dict[str, Any] = {
    "bind": True,
    "acks_late": True,
    "autoretry_for": (DatabaseError, SMTPException, ConnectionError, TimeoutError),
    "retry_backoff": True,
    "retry_backoff_max": 600,
    "retry_jitter": True,
    "max_retries": 8,
}
