"""Celery tasks of the api app: idempotent, acknowledged late, retried with backoff."""
from __future__ import annotations

from celery import shared_task
from django.db import DatabaseError

from . import services


@shared_task(name="api.tasks.idempotency_purge", bind=True, acks_late=True, autoretry_for=(DatabaseError,),
             retry_backoff=True, retry_backoff_max=600, retry_jitter=True, max_retries=8)
def idempotency_purge(self) -> int:
    """Delete stored answers past their expiry (running it twice deletes nothing more)."""
    return services.idempotency_purge()
