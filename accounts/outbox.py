"""The outbox: every mail of the site is first a row (``accounts.OutgoingMail``), then sent.

Why: a mail cannot be part of a database transaction, and a worker may die (``kill -9``)
at any moment or the SMTP server be down for an hour. So a mail is written as a row in
the transaction that decides it (a sign-up, a due alarm), and sent later, row by row:

1. claim: in one short transaction, lock due rows with ``FOR UPDATE SKIP LOCKED``
   (concurrent senders take disjoint rows) and push their ``due_at`` one lease
   (OUTBOX_CLAIM_LEASE_SECONDS) ahead: the rows of a sender that dies become due
   again when the lease ends, and the next sweep sends them;
2. render each row at send time through the renderer its app registered for its kind
   (``mail_kind_register``): signed links and reply addresses are made then, never
   stored; what each kind needs is loaded once per batch (constant queries), and a
   cache (e.g. board pictures) is shared by the batch;
3. send it over one kept-open SMTP connection and mark it done at once (one UPDATE,
   committed right after the server's 250).

So nothing is lost: a row is done only once the server accepted it, or refused it for
good (5xx: the address is marked failing, ``accounts.mail.email_deliver``), or its
renderer found nothing to say (e.g. a "your turn" whose turn is over). An SMTP outage
(connection refused, a timeout, 4xx, our own sender refused) leaves the rows unsent, due
again after a jittered exponential backoff (OUTBOX_RETRY_SECONDS doubling up to
OUTBOX_RETRY_MAX_SECONDS); a row is never dropped for a temporary failure. A message whose
content the server refuses for good (5xx after DATA) ends as ``refused``.
A mail goes out twice only when the sender dies between the server's 250 and the mark:
at most one mail per sending process and death. A sender stops and hands back the rest
of its batch when half its lease is used, so a live slow sender never loses its claim.

Who sends: ``outbox_add`` enqueues the task ``accounts.tasks.outbox_send`` (the row's id
only) after commit; a sweep that makes many rows (``outbox_add_many``) enqueues or runs a
drain (``outbox_send_due``); beat's ``accounts-outbox-sweep`` drains whatever is due (a
lost task, a dead sender's lease, a retry after an outage); ``accounts-outbox-purge``
deletes done rows after OUTBOX_KEEP_DAYS.

The outbox knows no app above accounts: each app registers its kinds (in its
``AppConfig.ready``). A kind's ``render(row, loaded, sending)`` returns the message, or a
short reason why nothing goes out (it becomes the row's outcome); ``loaded`` is what its
optional ``load(rows)`` returned for the row (it returns ``{row.pk: object}`` for a batch
of rows of its kind, in constant queries); ``sending`` has the time (``now``) and the
drain's ``cache``. A renderer may also answer ``Defer(until)``: not now (e.g. the
recipient's night); the row stays unsent, due again at ``until``, and is rendered again
then, so that what it says is true when it goes out.
"""

from __future__ import annotations

import functools
import logging
import random
import smtplib
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import DatabaseError, transaction
from django.db import connection as db_connection
from django.utils import timezone

from . import tasks
from .mail import email_deliver
from .models import OutgoingMail, User
from .selectors import email_deliverable

logger = logging.getLogger(__name__)


@dataclass
class Sending:
    """What a renderer gets besides its row: the time of sending and the drain's cache."""

    now: datetime
    cache: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Defer:
    """A renderer's answer "not now": the row stays unsent, due again at ``until``."""

    until: datetime


Render = Callable[[OutgoingMail, Any, Sending], "EmailMultiAlternatives | str | Defer"]
Load = Callable[[list[OutgoingMail]], dict[int, Any]]


@dataclass(frozen=True)
class MailKind:
    render: Render
    load: Load | None = None


_KINDS: dict[str, MailKind] = {}


def mail_kind_register(kind: str, *, render: Render, load: Load | None = None) -> None:
    """Register how to render the mails of ``kind`` (once, from the owning app's ready())."""
    known = _KINDS.get(kind)
    if known is not None and known.render is not render:
        raise ValueError("mail kind %r is registered twice" % kind)
    _KINDS[kind] = MailKind(render=render, load=load)


def mail_kinds() -> list[str]:
    return sorted(_KINDS)


def _lease() -> timedelta:
    return timedelta(seconds=settings.OUTBOX_CLAIM_LEASE_SECONDS)


def _backoff(attempts: int) -> timedelta:
    """The wait before try number ``attempts + 1``: doubling, capped, with jitter."""
    base = settings.OUTBOX_RETRY_SECONDS
    cap = settings.OUTBOX_RETRY_MAX_SECONDS
    seconds = min(cap, base * 2 ** max(0, attempts - 1))
    return timedelta(seconds=seconds * random.uniform(0.75, 1.0))


# ---------------------------------------------------------------- adding mail


def _new_row(
    *, kind: str, user: User, object_id: int | None, params: dict | None, to: str, now: datetime
) -> OutgoingMail:
    if kind not in _KINDS:
        raise ValueError("unknown mail kind %r (register it with mail_kind_register)" % kind)
    return OutgoingMail(kind=kind, user=user, object_id=object_id, params=params or {}, to=to or "", due_at=now)


def outbox_add(
    *, kind: str, user: User, object_id: int | None = None, params: dict | None = None, to: str = ""
) -> OutgoingMail | None:
    """Queue one mail and send it once the current transaction commits; None (nothing
    queued) when the user's address is missing or failing and no ``to`` is given."""
    if not to and not email_deliverable(user=user):
        logger.info("email_suppressed user_id=%s kind=%s", user.pk, kind)
        return None
    row = _new_row(kind=kind, user=user, object_id=object_id, params=params, to=to, now=timezone.now())
    row.save()
    tasks.outbox_send.delay_on_commit(row.pk)
    return row


def outbox_add_many(mails: list[dict], *, now: datetime | None = None) -> list[OutgoingMail]:
    """Queue many mails in one query (each dict: kind, user, object_id, params, to); no task
    per row: the caller drains (``outbox_send_due`` or the task ``outbox_drain``)."""
    now = now or timezone.now()
    rows = [
        _new_row(
            kind=m["kind"],
            user=m["user"],
            object_id=m.get("object_id"),
            params=m.get("params"),
            to=m.get("to", ""),
            now=now,
        )
        for m in mails
    ]
    return OutgoingMail.objects.bulk_create(rows, batch_size=1000)


# ---------------------------------------------------------------- sending


@dataclass
class SendResult:
    claimed: int = 0
    sent: int = 0
    retried: int = 0  # left unsent for a later try (an outage, a 4xx, a renderer's error)
    deferred: int = 0  # left unsent on the renderer's word (Defer), due again at its time
    outcomes: dict[str, int] = field(default_factory=dict)
    outage: str = ""  # why sending stopped (the SMTP server could not be reached)

    def add(self, other: SendResult) -> None:
        self.claimed += other.claimed
        self.sent += other.sent
        self.retried += other.retried
        self.deferred += other.deferred
        for outcome, count in other.outcomes.items():
            self.outcomes[outcome] = self.outcomes.get(outcome, 0) + count
        self.outage = self.outage or other.outage

    def as_dict(self) -> dict[str, Any]:
        return {
            "claimed": self.claimed,
            "sent": self.sent,
            "retried": self.retried,
            "deferred": self.deferred,
            "outcomes": self.outcomes,
            "outage": self.outage,
        }


def _claim(*, now: datetime, limit: int, ids: list[int] | None = None) -> list[OutgoingMail]:
    with transaction.atomic():
        due = OutgoingMail.objects.select_for_update(skip_locked=True).filter(done_at__isnull=True, due_at__lte=now)
        if ids is not None:
            due = due.filter(pk__in=ids)
        claimed = list(due.order_by("due_at").values_list("pk", flat=True)[:limit])
        if not claimed:
            return []
        # The UPDATE asks again whether each row is due: where SELECT ... FOR UPDATE locks
        # nothing (SQLite, as under `make run`), two senders still never claim one row.
        claim = uuid.uuid4().hex
        OutgoingMail.objects.filter(pk__in=claimed, done_at__isnull=True, due_at__lte=now).update(
            claimed_at=now, claim=claim, due_at=now + _lease()
        )
    return list(OutgoingMail.objects.filter(claim=claim, done_at__isnull=True).select_related("user").order_by("pk"))


@functools.cache
def _mark_sql(vendor: str) -> str:
    meta, quote = OutgoingMail._meta, db_connection.ops.quote_name
    column = {field.name: quote(str(field.column)) for field in meta.concrete_fields}
    return "UPDATE %s SET %s = %%s, %s = %%s, %s = NULL WHERE %s = %%s" % (
        quote(meta.db_table),
        column["done_at"],
        column["outcome"],
        column["claimed_at"],
        column["id"],
    )


class _Marks:
    """The marks of one batch: ``OutgoingMail.objects.filter(pk=...).update(done_at, outcome,
    claimed_at=None)`` written once as SQL (the ORM's compiling it cost more than running it,
    once per mail), run on one cursor for the batch (a new cursor per mail cost half as much
    again as the statement), each committed on its own (autocommit)."""

    def __init__(self, now: datetime) -> None:
        self.now = now
        self._cursor: Any = None
        self._when: Any = None

    def done(self, row: OutgoingMail, outcome: str, result: SendResult) -> None:
        """Mark one row done."""
        if self._cursor is None:
            self._cursor = db_connection.cursor()
            self._when = db_connection.ops.adapt_datetimefield_value(self.now)
        self._cursor.execute(_mark_sql(db_connection.vendor), [self._when, outcome, row.pk])
        result.outcomes[outcome] = result.outcomes.get(outcome, 0) + 1
        if outcome == "sent":
            result.sent += 1

    def close(self) -> None:
        if self._cursor is not None:
            cursor, self._cursor = self._cursor, None
            cursor.close()


def _retry_later(rows: list[OutgoingMail], error: str, now: datetime, result: SendResult) -> None:
    """Hand rows back, unsent, due again after their backoff (one UPDATE per attempt count)."""
    by_attempts: dict[int, list[int]] = {}
    for row in rows:
        by_attempts.setdefault(row.attempts + 1, []).append(row.pk)
    for attempts, pks in by_attempts.items():
        OutgoingMail.objects.filter(pk__in=pks).update(
            attempts=attempts, due_at=now + _backoff(attempts), claimed_at=None, last_error=error[:300]
        )
    result.retried += len(rows)


def _defer(row: OutgoingMail, until: datetime, result: SendResult) -> None:
    OutgoingMail.objects.filter(pk=row.pk).update(due_at=until, claimed_at=None)
    result.deferred += 1


def _release(rows: list[OutgoingMail], now: datetime) -> None:
    """Hand rows back untried, due at once (this sender ran out of lease)."""
    OutgoingMail.objects.filter(pk__in=[row.pk for row in rows]).update(due_at=now, claimed_at=None)


def _render(
    row: OutgoingMail, loaded: dict[str, dict[int, Any]], sending: Sending
) -> EmailMultiAlternatives | str | Defer:
    if not row.to and not email_deliverable(user=row.user):
        return "failing" if row.user.email else "no_address"
    kind = _KINDS.get(row.kind)
    if kind is None:
        raise LookupError("no renderer for mail kind %r" % row.kind)
    return kind.render(row, loaded.get(row.kind, {}).get(row.pk), sending)


def _marks_commit_asynchronously(on: bool) -> None:
    """On PostgreSQL, the marks of a batch commit without waiting for the disk (one fsync
    per mail would cost more than the mail). A mark is visible to every sender at once and
    survives the death of the worker; only a crash of PostgreSQL itself within a fraction of
    a second of a mark can undo it, and that mail is then sent again (doubled, never lost)."""
    if db_connection.vendor != "postgresql":
        return
    with db_connection.cursor() as cursor:
        cursor.execute("SET synchronous_commit TO OFF" if on else "RESET synchronous_commit")


class _Outage(Exception):
    """The SMTP server cannot take mail now (down, unreachable, 421)."""


def _smtp_send(message: EmailMultiAlternatives, connection) -> bool:
    """email_deliver over the kept-open connection; a connection the server dropped is
    opened again once (servers close idle connections or cap messages per connection)."""
    try:
        return email_deliver(message, connection=connection)
    except smtplib.SMTPServerDisconnected:
        connection.close()
        try:
            connection.open()
            return email_deliver(message, connection=connection)
        except (OSError, smtplib.SMTPException) as error:
            raise _Outage(repr(error)) from error
    except smtplib.SMTPRecipientsRefused as error:
        if any(code == 421 for code, _reply in error.recipients.values()):
            raise _Outage(repr(error)) from error
        raise
    except smtplib.SMTPSenderRefused as error:  # our own From refused: fix the settings, lose nothing
        logger.error("outbox_sender_refused code=%s sender=%s", error.smtp_code, error.sender)
        raise _Outage(repr(error)) from error
    except smtplib.SMTPResponseException as error:
        if error.smtp_code == 421:
            raise _Outage(repr(error)) from error
        raise
    except OSError as error:  # refused, reset, timed out (SMTPException is an OSError too)
        raise _Outage(repr(error)) from error


def _send_rows(
    rows: list[OutgoingMail], *, now: datetime, cache: dict, result: SendResult, claimed_clock: float | None = None
) -> None:
    """Render, send and mark each claimed row, one by one (see the module docstring).

    Half the lease is counted from ``claimed_clock`` (``time.monotonic()`` taken just before
    the claim; by default, now): loading the batch's objects and rendering a row take time
    too, and a sender that counted from after the load could go on past its lease while
    another sender claimed the same rows and sent them as well (tests/accounts/test_outbox.py
    slows the load and the render on a fake clock). The lease is asked again after each
    render, before the row goes to the SMTP server."""
    if claimed_clock is None:
        claimed_clock = time.monotonic()
    stop_at = claimed_clock + _lease().total_seconds() / 2
    loaded: dict[str, dict[int, Any]] = {}
    for kind_name in {row.kind for row in rows}:
        kind = _KINDS.get(kind_name)
        if kind is not None and kind.load is not None:
            loaded[kind_name] = kind.load([row for row in rows if row.kind == kind_name])
    sending = Sending(now=now, cache=cache)
    connection = None
    marks = _Marks(now)
    _marks_commit_asynchronously(True)

    def lease_used(index: int) -> bool:
        """Half the lease is gone: rows ``index`` on are handed back, untried."""
        if time.monotonic() <= stop_at:
            return False
        _release(rows[index:], now)
        logger.warning("outbox_lease_used released=%d", len(rows) - index)
        return True

    try:
        for index, row in enumerate(rows):
            if lease_used(index):
                return
            try:
                message = _render(row, loaded, sending)
            except Exception as error:  # a bug in one renderer must not hold back the others
                logger.exception("outbox_render_failed mail_id=%s kind=%s", row.pk, row.kind)
                _retry_later([row], "render: %r" % error, now, result)
                continue
            if isinstance(message, str):
                marks.done(row, message, result)
                continue
            if isinstance(message, Defer):
                _defer(row, max(message.until, now + timedelta(seconds=1)), result)
                continue
            if lease_used(index):
                return
            try:
                if connection is None:
                    connection = get_connection()
                    try:
                        connection.open()
                    except (OSError, smtplib.SMTPException) as error:
                        raise _Outage(repr(error)) from error
                delivered = _smtp_send(message, connection)
            except _Outage as outage:
                _retry_later(rows[index:], "smtp: %s" % outage, now, result)
                result.outage = str(outage)
                logger.warning("outbox_smtp_outage retried=%d error=%s", len(rows) - index, outage)
                return
            except smtplib.SMTPRecipientsRefused as error:  # 4xx: email_deliver marked any 5xx
                _retry_later([row], "smtp: %r" % (error.recipients,), now, result)
                continue
            except smtplib.SMTPResponseException as error:
                if error.smtp_code >= 500:  # the server refused this message (its DATA) for good
                    logger.warning("outbox_refused mail_id=%s code=%s", row.pk, error.smtp_code)
                    marks.done(row, "refused", result)
                else:
                    _retry_later([row], "smtp: %s %r" % (error.smtp_code, error.smtp_error), now, result)
                continue
            marks.done(row, "sent" if delivered else "failing", result)
            if delivered:
                logger.info("email_sent mail_id=%s kind=%s user_id=%s", row.pk, row.kind, row.user_id)
    finally:
        try:
            marks.close()
            _marks_commit_asynchronously(False)
        except DatabaseError:  # the connection broke: the session, and its setting, are gone
            pass
        if connection is not None:
            try:
                connection.close()
            except Exception:  # closing a dead connection
                pass


def outbox_send(*, mail_id: int, now: datetime | None = None) -> SendResult:
    """Send one row if it is still due and unclaimed: a second run, or a run for a row
    another sender holds or already sent, sends nothing."""
    now = now or timezone.now()
    result = SendResult()
    claimed_clock = time.monotonic()
    rows = _claim(now=now, limit=1, ids=[mail_id])
    result.claimed = len(rows)
    if rows:
        _send_rows(rows, now=now, cache={}, result=result, claimed_clock=claimed_clock)
    return result


def outbox_send_due(
    *, now: datetime | None = None, batch: int | None = None, on_full_batch: Callable[[], None] | None = None
) -> SendResult:
    """Send every due row, a batch at a time, until none is due or the SMTP server is out.

    ``on_full_batch`` is called once, when the first batch is full: the drain task uses
    it to enqueue a helper, so that every worker process sends in parallel.
    """
    batch = batch or settings.OUTBOX_BATCH
    total = SendResult()
    cache: dict = {}  # shared by the batches of this drain (e.g. board pictures)
    helped = False
    while True:
        when = now or timezone.now()
        claimed_clock = time.monotonic()
        rows = _claim(now=when, limit=batch)
        if not rows:
            return total
        if len(rows) == batch and on_full_batch is not None and not helped:
            helped = True
            on_full_batch()
        result = SendResult(claimed=len(rows))
        _send_rows(rows, now=when, cache=cache, result=result, claimed_clock=claimed_clock)
        total.add(result)
        if result.outage or result.claimed < batch:
            return total


def outbox_purge(*, now: datetime | None = None) -> int:
    """Delete the rows done more than OUTBOX_KEEP_DAYS ago (unsent rows stay, however old)."""
    now = now or timezone.now()
    cutoff = now - timedelta(days=settings.OUTBOX_KEEP_DAYS)
    return OutgoingMail.objects.filter(done_at__lt=cutoff).delete()[0]


def outbox_user_forget(*, user_id: int) -> int:
    """Delete every row of a user (account deletion: no pending mail, no record of it)."""
    return OutgoingMail.objects.filter(user_id=user_id).delete()[0]
