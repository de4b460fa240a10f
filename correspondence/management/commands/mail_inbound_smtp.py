"""Receive replies by mail on a small SMTP server (aiosmtpd) and play them.

    python manage.py mail_inbound_smtp --host 0.0.0.0 --port 2525

Point the MX (or the mail provider's forwarding) of CORRESPONDENCE_REPLY_DOMAIN
at it. Only recipients that look like our reply addresses are accepted; each
message goes to correspondence.services.mail_reply_receive, the same service
the HTTP webhook feeds.
"""
from __future__ import annotations

import time

from asgiref.sync import sync_to_async
from django.core.management.base import BaseCommand
from django.db import close_old_connections

from correspondence import services, tokens


def _receive(raw: bytes, recipient: str) -> str:
    """Play one reply, then drop the thread's database connection (a long-lived server)."""
    try:
        return services.mail_reply_receive(raw=raw, recipient=recipient).status
    finally:
        close_old_connections()


class ReplyHandler:
    """aiosmtpd handler: refuse foreign recipients, hand each message to the service."""

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if not tokens.REPLY_RE.match(address or ""):
            return "550 No such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content or envelope.content
        for recipient in envelope.rcpt_tos:
            await sync_to_async(_receive, thread_sensitive=False)(raw, recipient)
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
