"""Celery tasks of correspondence: idempotent, acknowledged late, retried with backoff.

``correspondence_sweep`` runs from beat (CELERY_BEAT_SCHEDULE
"correspondence-sweep"): due alarms, due digests, ended vacations. Each step
claims rows with skip-locked locks, so overlapping runs never double a mail.
"""
from __future__ import annotations

from celery import shared_task

from maatasite.task_policy import RETRYING_TASK

from . import services


@shared_task(name="correspondence.tasks.correspondence_sweep", **RETRYING_TASK)
def correspondence_sweep(self) -> dict[str, int]:
    """Send due alarms and digests; end vacations whose time is up."""
    alarms = services.alarms_send_due()
    digests = services.digests_send_due()
    return {"alarms_claimed": alarms.claimed, "alarms_sent": alarms.sent, "digests_sent": digests.sent,
            "vacations_ended": services.vacations_expire()}


@shared_task(name="correspondence.tasks.mail_reply_receive", **RETRYING_TASK)
def mail_reply_receive(self, raw: str, recipient: str | None = None) -> str:
    """Play a reply by mail (``raw``: the message as latin-1 text, so bytes survive JSON)."""
    return services.mail_reply_receive(raw=raw.encode("latin-1"), recipient=recipient).status
