"""Celery tasks of ops: idempotent, acknowledged late, retried with backoff."""

from __future__ import annotations

from celery import shared_task

from maatasite.task_policy import RETRYING_TASK

from . import selectors, services


@shared_task(name=selectors.HEARTBEAT_TASK, **RETRYING_TASK)
def heartbeat(self) -> str:
    """Run by beat every OPS_HEARTBEAT_SECONDS: a worker ran it, so /healthz/ knows both live."""
    services.heartbeat_record(name=selectors.HEARTBEAT_TASK)
    return "ok"
