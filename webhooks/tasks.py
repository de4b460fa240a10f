"""The webhooks' tasks (ids only; idempotent; the retry policy of maatasite.task_policy).

- ``webhooks_nudge(user_id)``: a change committed for the user (a move, a challenge, a game's
  end, a message); the feed serves an event only once it has settled (API_EVENTS_SETTLE_SECONDS),
  so it enqueues ``webhooks_user_sync`` that much later;
- ``webhooks_user_sync(user_id)``: the user's endpoints read their new events into deliveries,
  each sent by ``webhooks_deliver``;
- ``webhooks_deliver(delivery_id)``: one try of a delivery if it is due; a failed try enqueues
  the next one at its backoff;
- ``webhooks_sweep`` (beat, ``webhooks-sweep``): every active endpoint synced, and every due
  delivery sent, so a lost task never loses an event.
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from maatasite.task_policy import RETRYING_TASK


@shared_task(name="webhooks.tasks.webhooks_nudge", **RETRYING_TASK)
def webhooks_nudge(self, user_id: int) -> None:
    webhooks_user_sync.apply_async((user_id,), countdown=settings.API_EVENTS_SETTLE_SECONDS + 1)


@shared_task(name="webhooks.tasks.webhooks_user_sync", **RETRYING_TASK)
def webhooks_user_sync(self, user_id: int) -> None:
    from . import services

    for delivery_id in services.user_sync(user_id=user_id):
        webhooks_deliver.delay(delivery_id)


@shared_task(name="webhooks.tasks.webhooks_deliver", **RETRYING_TASK)
def webhooks_deliver(self, delivery_id: int) -> None:
    from . import services

    retry_at = services.delivery_send(delivery_id=delivery_id)
    if retry_at is not None and not self.request.is_eager:  # eager (tests): the test tries again
        webhooks_deliver.apply_async((delivery_id,), eta=retry_at)


@shared_task(name="webhooks.tasks.webhooks_sweep", **RETRYING_TASK)
def webhooks_sweep(self) -> None:
    from .models import Endpoint
    from .services import deliveries_due, endpoint_sync

    for endpoint_id in list(Endpoint.objects.filter(active=True).order_by("pk").values_list("pk", flat=True)):
        endpoint_sync(endpoint_id=endpoint_id)
    for delivery_id in deliveries_due():
        webhooks_deliver.delay(delivery_id)
