"""Receive replies by mail on a small SMTP server (aiosmtpd), to be played by a task.

    python manage.py mail_inbound_smtp --host 0.0.0.0 --port 2525

Point the MX (or the mail provider's forwarding) of CORRESPONDENCE_REPLY_DOMAIN
at it. Only recipients that look like our reply addresses are accepted. Like the
HTTP webhook, it stores each message (one row per recipient,
correspondence.services.inbound_mail_store) and a task plays it, so the 250 means
"stored": a mail is never lost to a worker killed while playing it, and the
inbound sweep plays what a lost task left. The envelope sender is kept: the null sender
``<>`` marks automatic mail, which never plays (RFC 3834). Deploy it behind the receiving
server that checks DKIM and DMARC and writes Authentication-Results, and name that server
in CORRESPONDENCE_INBOUND_AUTHSERV_ID (README). The sender gets the same answer mail
as before, from the same service, a moment later. (Without a broker, tasks run at
once, so the reply is played before the 250, as it always was.)
"""

from __future__ import annotations

import logging
import time

from asgiref.sync import sync_to_async
from django.core.management.base import BaseCommand
from django.db import DatabaseError, close_old_connections, transaction

from correspondence import services, tokens

log = logging.getLogger(__name__)


def _receive(raw: bytes, recipients: list[str], mail_from: str = "") -> list[int]:
    """Store a reply for each recipient, all or none (the play of each is enqueued), then
    drop the thread's database connection (a long-lived server). ``mail_from`` is the
    envelope sender, "<>" for the null sender of automatic mail (which plays nothing)."""
    try:
        with transaction.atomic():
            return [
                services.inbound_mail_store(raw=raw, recipient=recipient, envelope_sender=mail_from).pk
                for recipient in recipients
            ]
    finally:
        close_old_connections()


class ReplyHandler:
    """aiosmtpd handler: refuse foreign recipients, store each message for each recipient."""

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if not tokens.REPLY_RE.match(address or ""):
            return "550 No such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content or envelope.content
        mail_from = (envelope.mail_from or "").strip()
        if mail_from.strip("<>").strip() == "":
            mail_from = "<>"  # the null sender: a bounce or an auto-reply (RFC 3834)
        try:
            await sync_to_async(_receive, thread_sensitive=False)(raw, list(envelope.rcpt_tos), mail_from)
        except DatabaseError:
            log.exception("inbound mail not stored")
            return "451 Try again later"  # the sending server keeps the mail and retries
        return "250 Message accepted"


class Command(BaseCommand):
    help = "Run the SMTP server that receives moves by mail."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=2525)

    def handle(self, *args, host: str, port: int, **options):
        from aiosmtpd.controller import Controller

        controller = Controller(ReplyHandler(), hostname=host, port=port)
        controller.start()
        self.stdout.write("Receiving replies on %s:%s (Ctrl-C stops)." % (host, port))
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
        finally:
            controller.stop()
