"""The webhooks' mail (rendered when the outbox sends it, accounts.outbox):
``webhook_disabled``: an endpoint (``row.object_id``) was switched off after repeated failures."""

from __future__ import annotations

from django.urls import reverse

from accounts.mail import absolute_url, user_email_build
from accounts.outbox import mail_kind_register

from .models import Endpoint


def _load(rows: list) -> dict[int, Endpoint]:
    endpoints = Endpoint.objects.in_bulk([row.object_id for row in rows if row.object_id])
    return {row.pk: endpoints[row.object_id] for row in rows if row.object_id in endpoints}


def webhook_disabled_render(row, endpoint, _sending):
    if endpoint is None:
        return "endpoint deleted"
    if endpoint.active:
        return "endpoint switched on again"
    return user_email_build(
        user=row.user,
        subject_template="webhooks/email/disabled_subject.txt",
        body_template="webhooks/email/disabled_body.txt",
        context={
            "url": endpoint.url,
            "failures": endpoint.failures,
            "settings_url": absolute_url(reverse("webhooks:settings")),
        },
    )


def register() -> None:
    mail_kind_register("webhook_disabled", render=webhook_disabled_render, load=_load)
