"""Mail goes out through the outbox (accounts.outbox) and these tasks, so a slow SMTP server
never holds up a page and a worker's death loses no mail.

The tasks carry a row's id or nothing, never a message: running one again (a retry, a
redelivery after a worker died) sends nothing that was already sent.
"""

import logging

from celery import shared_task

from maatasite.task_policy import RETRYING_TASK

logger = logging.getLogger(__name__)


@shared_task(name="accounts.tasks.outbox_send", **RETRYING_TASK)
def outbox_send(self, mail_id: int) -> int:
    """Send one outbox row if it is still due and unclaimed; returns the number sent (0 or 1).

    An SMTP outage or a 4xx leaves the row due again after its backoff (the outbox sweep
    sends it then), so this task never retries for SMTP errors itself."""
    from . import outbox  # at run time: outbox imports this module to enqueue

    return outbox.outbox_send(mail_id=mail_id).sent


@shared_task(name="accounts.tasks.outbox_drain", **RETRYING_TASK)
def outbox_drain(self) -> dict:
    """Send every due outbox row (beat's ``accounts-outbox-sweep``, and after a sweep queued
    many): rows never picked up (a lost task), rows of a dead worker whose lease ended, rows
    due again after an outage. A full first batch enqueues one more drain, so that every
    worker process helps."""
    from . import outbox  # at run time: outbox imports this module to enqueue

    def helper() -> None:
        if not self.request.is_eager:
            outbox_drain.delay()

    return outbox.outbox_send_due(on_full_batch=helper).as_dict()


@shared_task(name="accounts.tasks.outbox_purge", **RETRYING_TASK)
def outbox_purge(self) -> int:
    """Delete outbox rows done more than OUTBOX_KEEP_DAYS ago. Daily, from beat."""
    from . import outbox  # at run time: outbox imports this module to enqueue

    return outbox.outbox_purge()


@shared_task(**RETRYING_TASK)
def unconfirmed_accounts_purge(self) -> int:
    """Delete accounts whose confirmation link expired unused (frees their usernames). Daily, from beat."""
    from .services import unconfirmed_accounts_purge as purge  # at run time: services import outbox, outbox this module

    return purge()
