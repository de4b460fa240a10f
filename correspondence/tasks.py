"""Celery tasks of correspondence: idempotent, acknowledged late, retried with backoff.

``correspondence_sweep`` runs from beat (CELERY_BEAT_SCHEDULE
"correspondence-sweep"): due alarms (all of them, a thousand per transaction) and digests
become outbox rows, ended vacations
end, the mail pictures of games over for a day are deleted, and a drain of the outbox
(accounts.tasks.outbox_drain) sends the mail. Each step locks its rows with skip-locked
locks and queues them in one transaction, so overlapping runs never queue a mail twice.

``mail_pictures_render`` draws the mail pictures of a game's new position (after each move).
"""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from accounts.tasks import outbox_drain
from maatasite.task_policy import RETRYING_TASK


@shared_task(name="correspondence.tasks.correspondence_sweep", **RETRYING_TASK)
def correspondence_sweep(self) -> dict[str, int]:
    """Queue due alarms and digests in the outbox and drain it; end vacations whose time is up."""
    from . import pictures, services  # at run time: services import this module to enqueue

    now = timezone.now()

    # Many alarms due: the drain starts after the first thousand, sending while the rest are queued.
    alarms = services.alarms_queue_all_due(now=now, on_queued=outbox_drain.delay)
    digests = services.digests_queue_due(now=now)
    vacations_ended = services.vacations_expire(now=now)
    pictures_purged = pictures.mail_pictures_purge(now=now)
    if alarms.queued or digests.queued:
        # (after an early drain too: it may have found nothing left before the last rounds were
        # committed; two drains take disjoint rows, skip-locked, so a second one is a helper)
        outbox_drain.delay()
    return {
        "alarms_claimed": alarms.claimed,
        "alarms_queued": alarms.queued,
        "digests_queued": digests.queued,
        "vacations_ended": vacations_ended,
        "pictures_purged": pictures_purged,
    }


@shared_task(name="correspondence.tasks.inbound_mail_play", **RETRYING_TASK)
def inbound_mail_play(self, inbound_id: int) -> str:
    """Play a stored reply by mail (correspondence.InboundMail) once; a processed row plays nothing."""
    from . import services  # at run time: services import this module to enqueue

    return services.inbound_mail_play(inbound_id=inbound_id)


@shared_task(name="correspondence.tasks.inbound_mails_sweep", **RETRYING_TASK)
def inbound_mails_sweep(self) -> int:
    """The beat task (CORRESPONDENCE_INBOUND_SWEEP_SECONDS): enqueue again the stored
    replies left unprocessed (their task lost with a killed worker)."""
    from . import services  # at run time: services import this module to enqueue

    return services.inbound_mails_requeue()


@shared_task(name="correspondence.tasks.inbound_mails_purge", **RETRYING_TASK)
def inbound_mails_purge(self) -> int:
    """The beat task: delete stored replies older than CORRESPONDENCE_INBOUND_KEEP_DAYS."""
    from . import services  # at run time: services import this module to enqueue

    return services.inbound_mails_purge()


@shared_task(name="correspondence.tasks.mail_reply_receive", **RETRYING_TASK)
def mail_reply_receive(self, raw: str, recipient: str | None = None) -> int:
    """Only for messages queued before replies were stored as rows (``raw``: the message as
    latin-1 text): store it, to be played by ``inbound_mail_play``. Nothing sends it any
    more; remove it once no such message can be left in a broker."""
    from . import services  # at run time: services import this module to enqueue

    return services.inbound_mail_store(raw=raw.encode("latin-1"), recipient=recipient).pk


@shared_task(name="correspondence.tasks.mail_pictures_render", **RETRYING_TASK)
def mail_pictures_render(self, game_id: int) -> int:
    """Draw the mail pictures of a game's current position (enqueued after each move, see
    correspondence.receivers); idempotent: what is already current is not drawn again."""
    from . import pictures  # at run time: the receivers import this module to enqueue

    return pictures.mail_pictures_render(game_id=game_id).rendered
