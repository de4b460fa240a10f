"""Writes of the webhooks app: endpoints, their secrets, and the deliveries of their events.

An endpoint's events come from its owner's events feed (games.events, the API's feed):
:func:`endpoint_sync` reads the feed after the endpoint's cursor, with the endpoint's row
locked, and makes one ``Delivery`` per event of a kind it asked for (the event id is the feed's
cursor of the event, stable; the unique constraint makes a second read add nothing), then moves
the cursor on, in the same transaction. :func:`delivery_send` sends one delivery: it takes a
lease on the row (so two workers never send it at once, and a dead worker's row is due again
when the lease ends), POSTs it signed with a fresh timestamp (webhooks.targets checks the address
connected to), and records the attempt: delivered, due again after a backoff, or given up after
WEBHOOKS_MAX_ATTEMPTS. After WEBHOOKS_DISABLE_AFTER_FAILURES failed attempts in a row the
endpoint is switched off and its owner mailed (the outbox's ``webhook_disabled``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from accounts.outbox import outbox_add
from games.events import Cursor, Event, events_for_user
from games.sealing import seal, unseal
from maatasite.task_policy import on_commit_run

from . import tasks
from .errors import WebhookConflict, WebhookInvalid, WebhookNotFound
from .models import Delivery, DeliveryAttempt, DeliveryStatus, Endpoint, WebhookEvent
from .signing import SIGNATURE_HEADER, secret_new, signature_make
from .targets import TargetRefused, check_url, post

MAX_ENDPOINTS = 5
LOG_SIZE = 50  # the delivery log: the last attempts an endpoint keeps
SYNC_PAGES = 20  # feed pages read per sync at most (the next sync goes on)
SYNC_PAGE_SIZE = 100
USER_AGENT = "Maatasite-Webhooks/1"
EVENT_KINDS = [kind.value for kind in WebhookEvent]


def _events_clean(events: Iterable[str] | None) -> list[str]:
    chosen = sorted({str(e) for e in (events or [])})
    if not chosen or any(e not in EVENT_KINDS for e in chosen):
        raise WebhookInvalid("events_invalid")
    return chosen


def _url_clean(url: str) -> str:
    url = (url or "").strip()
    try:
        check_url(url)
    except TargetRefused as refused:
        raise WebhookInvalid(refused.code, host=refused.params.get("host", "")) from None
    return url


def _start_cursor(now: datetime) -> str:
    """Events from now on (the settled feed serves nothing newer than now anyway)."""
    return Cursor.of(now).text()


def endpoint_create(
    *, user: User, url: str, events: Iterable[str], now: datetime | None = None
) -> tuple[Endpoint, str]:
    """A new endpoint of ``user`` and its secret (shown to the player this once)."""
    now = now or timezone.now()
    chosen = _events_clean(events)
    url = _url_clean(url)
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()  # serializes the count
        if Endpoint.objects.filter(user=user).count() >= MAX_ENDPOINTS:
            raise WebhookConflict("too_many_endpoints", limit=MAX_ENDPOINTS)
        secret = secret_new()
        endpoint = Endpoint.objects.create(
            user=user, url=url, events=chosen, secret_sealed=_seal(secret), cursor=_start_cursor(now), created_at=now
        )
    return endpoint, secret


def _seal(secret: str) -> str:
    return seal(secret, purpose="webhook_secret")


def endpoint_secret(endpoint: Endpoint) -> str:
    """The endpoint's signing secret (sealed in its row)."""
    return unseal(endpoint.secret_sealed, purpose="webhook_secret")


def _own(user: User, endpoint_id: int) -> Endpoint:
    endpoint = Endpoint.objects.select_for_update().filter(pk=endpoint_id, user=user).first()
    if endpoint is None:  # another player's endpoint is as unknown as a missing one
        raise WebhookNotFound("endpoint_not_found")
    return endpoint


def endpoint_update(
    *,
    user: User,
    endpoint_id: int,
    url: str | None = None,
    events: Iterable[str] | None = None,
    active: bool | None = None,
    now: datetime | None = None,
) -> Endpoint:
    """Change the address, the events, or switch the endpoint on or off. Switched on again, it
    starts from now: what happened while it was off is not sent."""
    now = now or timezone.now()
    chosen = _events_clean(events) if events is not None else None
    url = _url_clean(url) if url is not None else None
    with transaction.atomic():
        endpoint = _own(user, endpoint_id)
        if url is not None:
            endpoint.url = url
        if chosen is not None:
            endpoint.events = chosen
        if active is not None and active != endpoint.active:
            endpoint.active = active
            if active:
                endpoint.failures = 0
                endpoint.disabled_reason = ""
                endpoint.cursor = _start_cursor(now)
            else:
                endpoint.disabled_reason = "switched off by the player"
                _give_up_pending(endpoint, now)
        endpoint.save()
    return endpoint


def endpoint_delete(*, user: User, endpoint_id: int) -> None:
    with transaction.atomic():
        _own(user, endpoint_id).delete()


def secret_rotate(*, user: User, endpoint_id: int) -> tuple[Endpoint, str]:
    """A new secret for the endpoint (shown once); deliveries from now on are signed with it."""
    with transaction.atomic():
        endpoint = _own(user, endpoint_id)
        secret = secret_new()
        endpoint.secret_sealed = _seal(secret)
        endpoint.save(update_fields=["secret_sealed"])
    return endpoint, secret


# ---------------------------------------------------------------- from the feed to deliveries


def event_payload(event: Event, *, user: User) -> dict[str, Any]:
    """The JSON body of a webhook (README "Outbound webhooks")."""
    return json.loads(
        json.dumps(
            {
                "id": "ev_" + event.cursor.text(),
                "type": event.kind,
                "created_at": event.at,
                "user": user.username,
                "game_id": event.game_id,
                "challenge_id": event.challenge_id,
                "data": event.data,
            },
            cls=DjangoJSONEncoder,
        )
    )


def endpoint_sync(*, endpoint_id: int, now: datetime | None = None) -> list[int]:
    """Make the deliveries of the endpoint's new events; the ids of the pending ones made."""
    now = now or timezone.now()
    made: list[int] = []
    with transaction.atomic():
        endpoint = Endpoint.objects.select_for_update().select_related("user").filter(pk=endpoint_id).first()
        if endpoint is None or not endpoint.active:
            return []
        after = Cursor.parse(endpoint.cursor)
        wanted = set(endpoint.events)
        for _ in range(SYNC_PAGES):
            page = events_for_user(user=endpoint.user, after=after, limit=SYNC_PAGE_SIZE, now=now)
            rows = [
                Delivery(
                    endpoint=endpoint,
                    event_id="ev_" + e.cursor.text(),
                    kind=e.kind,
                    payload=event_payload(e, user=endpoint.user),
                    due_at=now,
                    created_at=now,
                )
                for e in page.events
                if e.kind in wanted
            ]
            if rows:
                Delivery.objects.bulk_create(rows, ignore_conflicts=True)
                made += Delivery.objects.filter(
                    endpoint=endpoint, event_id__in=[r.event_id for r in rows], status=DeliveryStatus.PENDING
                ).values_list("pk", flat=True)
            after = page.cursor
            if not page.has_more:
                break
        endpoint.cursor = after.text()
        endpoint.save(update_fields=["cursor"])
    return sorted(set(made))


def user_sync(*, user_id: int, now: datetime | None = None) -> list[int]:
    """:func:`endpoint_sync` for each active endpoint of the user."""
    ids = Endpoint.objects.filter(user_id=user_id, active=True).values_list("pk", flat=True)
    return [pk for endpoint_id in list(ids) for pk in endpoint_sync(endpoint_id=endpoint_id, now=now)]


def _has_endpoint_key(user_id: int) -> str:
    return "webhooks:has-endpoint:%d" % user_id


def users_with_endpoints(*, user_ids: Iterable[int]) -> list[int]:
    """Those of ``user_ids`` who have an active endpoint, sorted. Asked on every move and
    message, for two players who almost never have one: each answer is kept in the cache for
    one sweep period (WEBHOOKS_SWEEP_SECONDS) and forgotten when the user's endpoints change
    (:func:`endpoint_changed`). A stale "no" (an endpoint made by a transaction still running
    while the answer was read) delays that user's nudges by at most the period, after which
    beat's ``webhooks-sweep`` has read their events anyway."""
    wanted = sorted(set(user_ids))
    keys = {user_id: _has_endpoint_key(user_id) for user_id in wanted}
    known = cache.get_many(list(keys.values()))
    unknown = [user_id for user_id in wanted if keys[user_id] not in known]
    if unknown:
        active = set(Endpoint.objects.filter(user_id__in=unknown, active=True).values_list("user_id", flat=True))
        found = {keys[user_id]: user_id in active for user_id in unknown}
        cache.set_many(found, settings.WEBHOOKS_SWEEP_SECONDS)
        known.update(found)
    return [user_id for user_id in wanted if known[keys[user_id]]]


def endpoint_changed(*, user_id: int) -> None:
    """Forget whether the user has an active endpoint (any endpoint of theirs made, changed,
    switched off or deleted: the webhooks' receivers call this on every save and delete): now,
    and again after the commit, so an answer read meanwhile does not outlive the change."""
    key = _has_endpoint_key(user_id)

    def forget() -> None:
        cache.delete(key)

    forget()
    on_commit_run(forget, what="webhooks endpoint_changed")


def users_nudge(*, user_ids: Iterable[int]) -> None:
    """After the commit, look for new events of these users that have an active endpoint
    (called from the receivers of games' and chat's changes)."""
    for user_id in users_with_endpoints(user_ids=user_ids):
        tasks.webhooks_nudge.delay_on_commit(user_id)


# ---------------------------------------------------------------- sending


def _backoff(attempts: int) -> timedelta:
    """The wait after failed try number ``attempts``: doubling, capped, with jitter."""
    seconds = min(settings.WEBHOOKS_RETRY_MAX_SECONDS, settings.WEBHOOKS_RETRY_SECONDS * 2 ** max(0, attempts - 1))
    return timedelta(seconds=seconds * random.uniform(0.75, 1.0))


def _lease() -> timedelta:
    return timedelta(seconds=2 * settings.WEBHOOKS_TIMEOUT_SECONDS + 30)


def _give_up_pending(endpoint: Endpoint, now: datetime) -> None:
    endpoint.deliveries.filter(status=DeliveryStatus.PENDING).update(status=DeliveryStatus.FAILED, done_at=now)


def request_make(*, delivery: Delivery, secret: str, timestamp: int) -> tuple[bytes, dict[str, str]]:
    """The body and headers of one try: signed with ``timestamp`` (fresh at every try)."""
    body = json.dumps(delivery.payload, separators=(",", ":"), ensure_ascii=False).encode()
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        SIGNATURE_HEADER: signature_make(secret=secret, timestamp=timestamp, body=body),
        "Maatasite-Event": delivery.kind,
        "Maatasite-Event-Id": delivery.event_id,
        "Maatasite-Delivery-Attempt": str(delivery.attempts),
    }
    return body, headers


def delivery_send(*, delivery_id: int, now: datetime | None = None) -> datetime | None:
    """Try one delivery if it is due; when it should be tried again, or None."""
    with transaction.atomic():
        delivery = (
            Delivery.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("endpoint")
            .filter(pk=delivery_id, status=DeliveryStatus.PENDING)
            .first()
        )
        now = now or timezone.now()
        if delivery is None or not delivery.endpoint.active:
            return None
        if delivery.due_at > now:
            return delivery.due_at  # leased by a live sender, or waiting for its backoff
        delivery.attempts += 1
        delivery.due_at = now + _lease()
        delivery.save(update_fields=["attempts", "due_at"])
        url, secret = delivery.endpoint.url, endpoint_secret(delivery.endpoint)
    # Signed afresh at every try, with the try's time (a receiver refuses one over 5 minutes old).
    body, headers = request_make(delivery=delivery, secret=secret, timestamp=int(now.timestamp()))
    answer = post(url, body, headers)
    done = timezone.now() if now is None else now
    with transaction.atomic():
        endpoint = Endpoint.objects.select_for_update().select_related("user").filter(pk=delivery.endpoint_id).first()
        row = Delivery.objects.select_for_update().filter(pk=delivery.pk).first()
        if endpoint is None or row is None:
            return None  # deleted meanwhile (the player, or their account)
        DeliveryAttempt.objects.create(
            endpoint=endpoint,
            delivery=row,
            at=done,
            ok=answer.ok,
            status_code=answer.status,
            error=answer.error,
            duration_ms=answer.duration_ms,
        )
        keep = endpoint.attempts.order_by("-at", "-pk").values_list("pk", flat=True)[:LOG_SIZE]
        endpoint.attempts.exclude(pk__in=list(keep)).delete()
        if row.status != DeliveryStatus.PENDING:
            return None
        if answer.ok:
            row.status, row.done_at = DeliveryStatus.DELIVERED, done
            row.save(update_fields=["status", "done_at"])
            if endpoint.failures:
                endpoint.failures = 0
                endpoint.save(update_fields=["failures"])
            return None
        endpoint.failures += 1
        retry_at: datetime | None = None
        if row.attempts >= settings.WEBHOOKS_MAX_ATTEMPTS:
            row.status, row.done_at = DeliveryStatus.FAILED, done
        else:
            row.due_at = retry_at = done + _backoff(row.attempts)
        row.save(update_fields=["status", "done_at", "due_at"])
        if endpoint.active and endpoint.failures >= settings.WEBHOOKS_DISABLE_AFTER_FAILURES:
            endpoint.active = False
            endpoint.disabled_reason = "%d failed attempts in a row" % endpoint.failures
            _give_up_pending(endpoint, done)
            outbox_add(kind="webhook_disabled", user=endpoint.user, object_id=endpoint.pk)
            retry_at = None
        endpoint.save(update_fields=["failures", "active", "disabled_reason"])
        return retry_at


def deliveries_due(*, now: datetime | None = None, limit: int = 500) -> list[int]:
    """Pending deliveries of active endpoints whose time has come (a lost task, a dead sender's
    lease, a retry): the sweep sends them again."""
    now = now or timezone.now()
    return list(
        Delivery.objects.filter(status=DeliveryStatus.PENDING, due_at__lte=now, endpoint__active=True)
        .order_by("due_at")
        .values_list("pk", flat=True)[:limit]
    )
