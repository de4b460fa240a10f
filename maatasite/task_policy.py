"""The one retry policy of the project's Celery tasks.

Every task is idempotent, so it may run again: it is acknowledged only after it ran
(``acks_late``), and retried with jittered exponential backoff when the database or the
network fail for a while. With CELERY_TASK_REJECT_ON_WORKER_LOST a task whose worker
process died while the worker lived is delivered again; when the whole worker dies
(``kill -9`` of its process group, a lost machine) the task stays unacknowledged in the
broker until its visibility timeout, so work that must not wait that long is also found
again by a sweep from beat (mail: ``accounts-outbox-sweep``).

Running a task again must not repeat what it did outside the database, so no task
carries a mail: a task carries an outbox row's id (``accounts.tasks.outbox_send``) or
nothing (``outbox_drain``), and the row is marked sent right after the SMTP server's 250,
so a second run sends nothing. SMTP failures do not retry a task: the row is due again
after its own backoff (accounts.outbox).

    @shared_task(name="games.tasks.bot_play_turn", **RETRYING_TASK)
    def bot_play_turn(self, game_id, ply): ...
"""
from __future__ import annotations

from typing import Any

from celery.utils.time import get_exponential_backoff_interval
from django.db import DatabaseError

RETRYING_TASK: dict[str, Any] = {
    "bind": True,
    "acks_late": True,
    "autoretry_for": (DatabaseError, ConnectionError, TimeoutError),
    "retry_backoff": True,
    "retry_backoff_max": 600,
    "retry_jitter": True,
    "max_retries": 8,
}


def retry_countdown(retries: int) -> int:
    """The wait before retry number ``retries + 1`` of a task that retries on its own
    (``raise self.retry(exc=error, countdown=retry_countdown(self.request.retries))``),
    the same jittered doubling as RETRYING_TASK's automatic retries."""
    return get_exponential_backoff_interval(factor=1, retries=retries,
                                            maximum=RETRYING_TASK["retry_backoff_max"],
                                            full_jitter=RETRYING_TASK["retry_jitter"])
