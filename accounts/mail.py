"""Rendering and sending mail for users, in each user's own language: the one path for mail.

``user_email_build`` renders a subject, a plain-text body and (optionally) an
HTML body in the recipient's language; the context gets ``user`` and
``site_url`` (settings.SITE_URL, for absolute links). Extra headers (e.g.
List-Unsubscribe), a Reply-To address and inline images (referenced from the
HTML as ``cid:<name>``) are carried along.

``user_email_send`` builds a message and hands it to the ``accounts.tasks.email_send``
Celery task once the current transaction commits. A caller that must know when
a message went out (a sweep marking rows sent) sends the built message itself,
through ``email_deliver``.

No mail goes to a failing address (a hard bounce or a spam complaint):
``accounts.selectors.email_deliverable`` is the one gate. ``user_email_send`` skips
such a user, ``user_email_build`` refuses to build for one (sweeps check first and
record why nothing went out). The one exception is a mail to an address the user is
confirming (``to=``): it is how a failing address gets fixed. ``email_deliver`` turns
an SMTP server's permanent refusal of a recipient (5xx) into a hard bounce of that
address instead of an error that would be retried for nothing.
"""
import base64
import logging
from email.mime.image import MIMEImage
from smtplib import SMTPRecipientsRefused

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation

from .deliverability import address_failure_record
from .selectors import email_deliverable
from .tasks import email_send

logger = logging.getLogger(__name__)


class AddressFailing(Exception):
    """A mail was built for a user whose address is failing: the caller must check first."""


def absolute_url(path: str) -> str:
    """An absolute link to a path of this site, for mail."""
    return settings.SITE_URL + path


def email_enqueue(*, to: str, subject: str, body: str, html_body: str | None = None,
                  headers: dict | None = None, images: dict[str, bytes] | None = None) -> None:
    """Send a message after the current transaction commits (at once outside a transaction)."""
    encoded = {name: base64.b64encode(data).decode("ascii") for name, data in (images or {}).items()}
    transaction.on_commit(lambda: email_send.delay(to=[to], subject=subject, body=body, html_body=html_body,
                                                   headers=headers or None, images=encoded or None))


def email_message(*, to: list[str], subject: str, body: str, html_body: str | None = None,
                  headers: dict | None = None, images: dict[str, bytes] | None = None) -> EmailMultiAlternatives:
    """A ready message; ``images`` maps a content id to PNG bytes shown inline by the HTML."""
    headers = dict(headers or {})
    reply_to = [headers.pop("Reply-To")] if headers.get("Reply-To") else None
    message = EmailMultiAlternatives(subject=subject, body=body, from_email=settings.DEFAULT_FROM_EMAIL,
                                     to=to, headers=headers, reply_to=reply_to)
    if html_body:
        message.attach_alternative(html_body, "text/html")
    for name, data in (images or {}).items():
        image = MIMEImage(data, "png")
        image.add_header("Content-ID", "<%s>" % name)
        image.add_header("Content-Disposition", "inline", filename="%s.png" % name)
        message.attach(image)
    return message


def user_email_render(*, user, subject_template: str, body_template: str, html_template: str | None = None,
                      context: dict | None = None) -> tuple[str, str, str | None]:
    """(subject, text body, HTML body or None) rendered in ``user``'s language."""
    full_context = {"user": user, "site_url": settings.SITE_URL, **(context or {})}
    with translation.override(user.language or settings.LANGUAGE_CODE):
        subject = " ".join(render_to_string(subject_template, full_context).split())
        body = render_to_string(body_template, full_context)
        html = render_to_string(html_template, full_context) if html_template else None
    return subject, body, html


def email_deliver(message: EmailMultiAlternatives, *, connection=None) -> bool:
    """Send a built message (over ``connection`` when given); False when the server refused
    its recipients for good (5xx), which marks each such address as a hard bounce.

    A temporary refusal (4xx) still raises, so the caller's retry tries again later.
    """
    if connection is not None:
        message.connection = connection
    try:
        message.send()
    except SMTPRecipientsRefused as error:
        for address, (code, reply) in error.recipients.items():
            if code >= 500:
                text = reply.decode("utf-8", "replace") if isinstance(reply, bytes) else str(reply)
                address_failure_record(email=address, failure="bounce", detail="SMTP %s %s" % (code, text))
                logger.warning("email_refused to=%s code=%s", address, code)
        if any(code < 500 for code, _reply in error.recipients.values()):
            raise
        return False
    return True


def user_email_build(*, user, subject_template: str, body_template: str, html_template: str | None = None,
                     context: dict | None = None, headers: dict | None = None,
                     images: dict[str, bytes] | None = None) -> EmailMultiAlternatives:
    """A message to ``user`` rendered in their language, for callers that send it themselves
    (after checking ``email_deliverable``: a failing address raises AddressFailing)."""
    if not email_deliverable(user=user):
        raise AddressFailing("no mail to user %s: no address or a failing one" % user.pk)
    subject, body, html = user_email_render(user=user, subject_template=subject_template,
                                            body_template=body_template, html_template=html_template,
                                            context=context)
    return email_message(to=[user.email], subject=subject, body=body, html_body=html, headers=headers,
                         images=images)


def user_email_send(*, user, subject_template: str, body_template: str, context: dict | None = None,
                    html_template: str | None = None, headers: dict | None = None,
                    images: dict[str, bytes] | None = None, to: str | None = None) -> bool:
    """Render a subject/body pair of templates in ``user``'s language and enqueue the mail;
    False (nothing sent) when the user's address is missing or failing.

    ``to``: an address the user is confirming (sent whatever the state of the account's own).
    """
    if to is None:
        if not email_deliverable(user=user):
            logger.info("email_suppressed user_id=%s template=%s", user.pk, subject_template)
            return False
        to = user.email
    subject, body, html = user_email_render(user=user, subject_template=subject_template,
                                            body_template=body_template, html_template=html_template,
                                            context=context)
    email_enqueue(to=to, subject=subject, body=body, html_body=html, headers=headers, images=images)
    return True
