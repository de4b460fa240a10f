"""What the webhooks app holds about a user, for the account export and erasure (registered in
maatasite.personal_data; privacy runs it): their endpoints (without the secret) and each one's
delivery log; on deletion they go with everything under them."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from maatasite.personal_data import ErasePhase, EraseStep, ExportSection, PersonalData, registry, timestamp

from .models import Endpoint

if TYPE_CHECKING:
    from accounts.models import User


def _webhooks(user: User) -> list[dict[str, Any]]:
    endpoints = Endpoint.objects.filter(user=user).prefetch_related("attempts__delivery").order_by("created_at", "pk")
    return [
        {
            "url": e.url,
            "events": list(e.events),
            "active": e.active,
            "disabled_reason": e.disabled_reason or None,
            "created_at": timestamp(e.created_at),
            "delivery_log": [
                {
                    "at": timestamp(a.at),
                    "event_id": a.delivery.event_id,
                    "event": a.delivery.kind,
                    "delivered": a.ok,
                    "status_code": a.status_code,
                    "error": a.error or None,
                }
                for a in e.attempts.all()
            ],
        }
        for e in endpoints
    ]


def _webhooks_delete(user: User, now: datetime) -> dict[str, int]:
    count, _ = Endpoint.objects.filter(user=user).delete()
    return {"webhook_rows_deleted": count}


def register() -> None:
    registry.register(
        PersonalData(
            app="webhooks",
            models={
                "webhooks.Endpoint": "exported (without its secret) with its delivery log; deleted, and with it "
                "its deliveries and attempts (webhooks.Delivery, webhooks.DeliveryAttempt)",
            },
            export=(ExportSection(key="webhooks", position=95, build=_webhooks),),
            erase=(EraseStep(name="webhooks.endpoints", phase=ErasePhase.REMAINDER, run=_webhooks_delete),),
        )
    )
