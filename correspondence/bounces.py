"""Bounces and complaints reported by the mail provider's webhook.

The provider (or a small adapter in front of it) POSTs JSON to
``/correspondence/webhooks/bounces/`` with the header ``X-Webhook-Secret``
(setting MAIL_WEBHOOK_SECRET), either one event or ``{"events": [...]}``::

    {"type": "bounce", "bounce_type": "hard", "email": "a@example.org", "detail": "550 no such user"}
    {"type": "bounce", "bounce_type": "soft", "email": "a@example.org"}
    {"type": "complaint", "email": "a@example.org"}

A hard bounce or a complaint marks the account's address failing
(accounts.deliverability.address_failure_record: no more mail to it; a complaint
also turns game mail off). A soft bounce (mailbox full, greylisting) is only
counted: the next mail may well arrive. Addresses of no account are counted and
ignored. Reporting an event twice changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from accounts.deliverability import Failure, address_failure_record

from .errors import CorrespondenceError

MAX_EVENTS = 1000


@dataclass
class BounceReport:
    marked: int = 0  # hard bounces and complaints of addresses of an account
    soft: int = 0  # soft bounces: counted, nothing changes
    unknown: int = 0  # addresses of no account: ignored

    def as_dict(self) -> dict[str, int]:
        return {"marked": self.marked, "soft": self.soft, "unknown": self.unknown}


def _event_read(event: Any, index: int) -> tuple[Failure | Literal["soft"], str, str]:
    """(failure or "soft", address, detail) of one event; bad input raises a 400."""
    if isinstance(event, dict):
        kind, email, detail = event.get("type"), event.get("email"), event.get("detail", "")
        bounce_type = event.get("bounce_type", "hard")
        if isinstance(email, str) and "@" in email and isinstance(detail, str):
            if kind == "complaint":
                return "complaint", email, detail
            if kind == "bounce" and bounce_type == "hard":
                return "bounce", email, detail
            if kind == "bounce" and bounce_type == "soft":
                return "soft", email, detail
    raise CorrespondenceError("bad_bounce_event", "Event %s is not a bounce or a complaint." % index, index=index)


def bounce_events_receive(*, payload: Any) -> BounceReport:
    """Record a webhook's events (all checked before any is recorded)."""
    events = payload.get("events") if isinstance(payload, dict) and "events" in payload else [payload]
    if not isinstance(events, list) or not 0 < len(events) <= MAX_EVENTS:
        raise CorrespondenceError(
            "bad_bounce_events", "Send one event or a list of 1 to %s events." % MAX_EVENTS, max=MAX_EVENTS
        )
    read = [_event_read(event, index) for index, event in enumerate(events)]
    report = BounceReport()
    for failure, email, detail in read:
        if failure == "soft":
            report.soft += 1
        elif address_failure_record(email=email, failure=failure, detail=detail) is None:
            report.unknown += 1
        else:
            report.marked += 1
    return report
