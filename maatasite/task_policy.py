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

    @shared_task(name="games.tasks.bot_turn_play", **RETRYING_TASK)
    def bot_turn_play(self, game_id, ply): ...

Enqueueing is one call: ``some_task.delay_on_commit(*ids)`` (every task's class is
:class:`AfterCommitTask`, set in maatasite/celery.py). The message is published only once the
current transaction commits, so a worker never sees uncommitted rows; and a broker that
refuses it (down, full, unreachable) is logged and does not turn the committed work into an
error: every task enqueued this way has a beat sweep that finds its work undone and enqueues
it again (bot turns, pairing, ladder resignations, fair-play checks, mail, inbound replies).
Tests that record enqueues patch the task's ``delay``: it is looked up when the transaction
commits.

Services import their app's tasks at module level to enqueue them; so a tasks module imports
its services inside each task body (the one written exception to "no import in a function
body": the other direction would be an import cycle).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from celery.contrib.django.task import DjangoTask
from celery.utils.time import get_exponential_backoff_interval
from django.db import DatabaseError, transaction
from kombu.exceptions import OperationalError

log = logging.getLogger(__name__)

#: What a publish raises when the broker cannot take the message (kombu wraps connection
#: errors in OperationalError; a bare socket error or timeout may come through as is).
PUBLISH_FAILURES: tuple[type[Exception], ...] = (OperationalError, ConnectionError, TimeoutError)

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
    return get_exponential_backoff_interval(
        factor=1, retries=retries, maximum=RETRYING_TASK["retry_backoff_max"], full_jitter=RETRYING_TASK["retry_jitter"]
    )


class AfterCommitTask(DjangoTask):
    """The class of every task (``Celery(task_cls=...)``): ``delay_on_commit`` publishes once
    the transaction commits, and a refused publish is logged, not raised (see the module
    docstring: the task's sweep picks the work up). Only publish failures are caught: any
    other error (arguments that do not serialize) is a bug and raises. The inherited
    ``apply_async_on_commit`` has no such guard; nothing uses it (tests/test_task_enqueue.py)."""

    def delay_on_commit(self, *args: Any, **kwargs: Any) -> None:
        def publish() -> None:
            try:
                self.delay(*args, **kwargs)  # looked up now: tests patch ``delay``
            except PUBLISH_FAILURES as error:
                log.warning(
                    "task_enqueue_failed task=%s args=%r error=%r (its sweep enqueues it again)", self.name, args, error
                )

        transaction.on_commit(publish)


def on_commit_run(action: Callable[[], None], *, what: str) -> None:
    """Run ``action`` once the current transaction commits (at once outside one), for after-commit
    work that is not a task (a live push to open pages). Like a refused publish, an error it
    raises is logged and never becomes an error of the work already committed. All after-commit
    work is registered here (tests/test_task_enqueue.py); tasks use ``delay_on_commit``."""

    def run() -> None:
        try:
            action()
        except Exception as error:  # the commit stands; what missed it is found again (pages poll)
            log.warning("after_commit_failed what=%s error=%r", what, error)

    transaction.on_commit(run)
