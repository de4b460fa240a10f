"""Mail goes out through a Celery task, so a slow SMTP server never holds up a page."""
import logging

from celery import shared_task

from maatasite.task_policy import RETRYING_TASK

logger = logging.getLogger(__name__)


@shared_task(**RETRYING_TASK)
def email_send(self, *, to: list[str], subject: str, body: str, html_body: str | None = None,
               headers: dict | None = None, images: dict[str, str] | None = None) -> int:
    """Send one message (``images``: content id -> base64 PNG); returns the number sent: 1, or 0
    when the SMTP server refused the recipient for good (the address is then marked failing
    and not retried; a temporary refusal raises and is retried)."""
    import base64

    from .mail import email_deliver, email_message

    message = email_message(to=to, subject=subject, body=body, html_body=html_body, headers=headers,
                            images={name: base64.b64decode(data) for name, data in (images or {}).items()})
    if not email_deliver(message):
        return 0
    logger.info("email_sent to=%s subject=%r task_id=%s", ",".join(to), subject, self.request.id)
    return 1


@shared_task(**RETRYING_TASK)
def unconfirmed_accounts_purge(self) -> int:
    """Delete accounts whose confirmation link expired unused (frees their usernames). Daily, from beat."""
    from .services import unconfirmed_accounts_purge as purge

    return purge()
