"""Celery tasks of the api app: idempotent, acknowledged late, retried with backoff."""

from __future__ import annotations

from celery import shared_task

from maatasite.task_policy import RETRYING_TASK

from . import services


@shared_task(name="api.tasks.idempotency_purge", **RETRYING_TASK)
def idempotency_purge(self) -> int:
    """Delete stored answers past their expiry (running it twice deletes nothing more)."""
    return services.idempotency_purge()
