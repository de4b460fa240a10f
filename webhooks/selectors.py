"""Reads of the webhooks app: a player's own endpoints and their delivery log."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from .errors import WebhookNotFound
from .models import DeliveryAttempt, Endpoint
from .services import LOG_SIZE


def endpoints_of(*, user: Any) -> QuerySet[Endpoint]:
    return Endpoint.objects.filter(user=user).order_by("created_at", "pk")


def endpoint_of(*, user: Any, endpoint_id: int) -> Endpoint:
    """The user's endpoint; another player's is a 404 like a missing one."""
    endpoint = Endpoint.objects.filter(pk=endpoint_id, user=user).first()
    if endpoint is None:
        raise WebhookNotFound("endpoint_not_found")
    return endpoint


def delivery_log(*, endpoint: Endpoint) -> list[DeliveryAttempt]:
    """The endpoint's last LOG_SIZE attempts, newest first."""
    return list(endpoint.attempts.select_related("delivery").order_by("-at", "-pk")[:LOG_SIZE])
