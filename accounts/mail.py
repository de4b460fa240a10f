"""Rendering and enqueueing mail for users, in each user's own language.

Other apps use ``user_email_send`` for their notifications (e.g. "your turn"):
the subject and body templates are rendered in the recipient's language, the
context gets ``user`` and ``site_url`` (settings.SITE_URL, for absolute links),
and the message is handed to the ``accounts.tasks.email_send`` Celery task once
the current transaction commits.
"""
from django.conf import settings
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation

from .tasks import email_send


def absolute_url(path: str) -> str:
    """An absolute link to a path of this site, for mail."""
    return settings.SITE_URL + path


def email_enqueue(*, to: str, subject: str, body: str) -> None:
    """Send a message after the current transaction commits (at once outside a transaction)."""
    transaction.on_commit(lambda: email_send.delay(to=[to], subject=subject, body=body))


def user_email_send(*, user, subject_template: str, body_template: str, context: dict | None = None) -> None:
    """Render a subject/body pair of templates in ``user``'s language and enqueue the mail."""
    full_context = {"user": user, "site_url": settings.SITE_URL, **(context or {})}
    with translation.override(user.language or settings.LANGUAGE_CODE):
        subject = " ".join(render_to_string(subject_template, full_context).split())
        body = render_to_string(body_template, full_context)
    email_enqueue(to=user.email, subject=subject, body=body)
