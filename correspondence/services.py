"""Everything that changes correspondence state (keyword-only arguments, transactions).

Mail goes out through the outbox of accounts (``accounts.outbox``), never from here.
Due alarms (``alarms_queue_due``) and digests (``digests_queue_due``) become outbox
rows, each in one transaction with a constant number of queries whatever the number
of rows:

1. lock due rows with ``FOR UPDATE SKIP LOCKED`` (concurrent sweeps take disjoint rows);
2. decide each one: an alarm whose turn is over is ``stale``, a preference may turn it
   ``off`` or into the ``digest``, a failing address gets nothing (``failing``); the rest
   become outbox rows of kind ``alarm`` (the alarm's id) or ``digest`` (the user);
3. mark the alarms (``sent_at``, ``outcome`` ``queued`` or why not) or move the digest
   on to its next day.

A worker that dies in the transaction leaves the rows due, so nothing is lost; a
committed row is in the outbox and never queued again, so nothing is queued twice.
The outbox renders each mail when it sends it (correspondence.mail registers the
renderers: signed links and reply addresses are made then), sends and marks each
row on its own, and sends again what a dead worker left claimed (see accounts.outbox
for what may be doubled: at most the one mail in flight per sending process).
"""

from __future__ import annotations

import hashlib
import logging
import math
import secrets
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, timedelta
from email import message_from_bytes, policy
from email.utils import parseaddr
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import transaction
from django.db.models import F, Prefetch, Q
from django.utils import timezone

import engine
from accounts.models import TurnMail
from accounts.outbox import outbox_add, outbox_add_many, outbox_send_due
from accounts.selectors import email_deliverable
from games import rules as game_rules
from games import services as games_services
from games.clock import local_hour_next
from games.errors import GameActionError, MoveRejected
from games.models import Alarm, Game, GameStatus, Move, Seat

from . import replies, selectors, tasks, tokens
from .errors import CorrespondenceError
from .models import CalendarFeed, DigestAlarm, InboundMail, ReplyAddressUse, Vacation, VacationAccount

log = logging.getLogger(__name__)
User = get_user_model()

SWEEP_LIMIT = 1000
# Rows per UPDATE of bulk_update: its CASE per field costs the square of the rows it holds.
BULK_UPDATE_BATCH = 200


def _now() -> datetime:
    return timezone.now()


# ---------------------------------------------------------------- alarms


@dataclass
class SweepResult:
    claimed: int = 0
    queued: int = 0
    sent: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)


def alarms_queue_due(*, now: datetime, limit: int = SWEEP_LIMIT) -> SweepResult:
    """Turn up to ``limit`` due alarms into outbox rows, or mark why they send nothing
    (one transaction, see the module docstring)."""
    result = SweepResult()
    with transaction.atomic():
        # The due alarms alone (the partial index games_alarm_due), then their players and
        # games by primary key: a join here lets the planner read every account when it
        # guesses many rows due, so the sweep would cost what exists, not what is due.
        alarms = list(
            Alarm.objects.select_for_update(skip_locked=True)
            .filter(sent_at__isnull=True, due_at__lte=now)
            .prefetch_related("user", Prefetch("game", queryset=Game.objects.defer("sealed_state", "sealed_seed")))
            .order_by("due_at")[:limit]
        )
        by_outcome: dict[str, list[int]] = {}
        mails = []
        for alarm in alarms:
            outcome = selectors.alarm_outcome(alarm, now=now)
            if outcome is None:
                mails.append({"kind": "alarm", "user": alarm.user, "object_id": alarm.pk})
                outcome = "queued"
            by_outcome.setdefault(outcome, []).append(alarm.pk)
        outbox_add_many(mails, now=now)
        for outcome, pks in by_outcome.items():
            Alarm.objects.filter(pk__in=pks).update(sent_at=now, outcome=outcome)
            result.outcomes[outcome] = len(pks)
    result.claimed, result.queued = len(alarms), len(mails)
    return result


def alarms_queue_all_due(
    *, now: datetime, limit: int = SWEEP_LIMIT, on_queued: Callable[[], None] | None = None
) -> SweepResult:
    """``alarms_queue_due`` again and again until no alarm is due (each round its own
    transaction of up to ``limit`` alarms), so that a burst of 10,000 due alarms is queued in
    one sweep, not one thousand a minute. ``on_queued`` is called once, after the first full
    round that queued mail (committed) when more rounds follow: the beat task starts the
    outbox's drain there, which sends while the next rounds are queued."""
    total = SweepResult()
    while True:
        result = alarms_queue_due(now=now, limit=limit)
        total.claimed += result.claimed
        total.queued += result.queued
        for outcome, count in result.outcomes.items():
            total.outcomes[outcome] = total.outcomes.get(outcome, 0) + count
        if result.claimed < limit:
            return total
        if result.queued and on_queued is not None:
            on_queued()
            on_queued = None


def alarms_send_due(*, now: datetime | None = None, limit: int = SWEEP_LIMIT) -> SweepResult:
    """Queue the due alarms, then send what the outbox has due (in this process)."""
    now = now or _now()
    result = alarms_queue_due(now=now, limit=limit)
    result.sent = outbox_send_due(now=now).sent
    return result


# ---------------------------------------------------------------- digests

# The user fields a digest row follows: a save that changes one of them syncs the row
# (correspondence.receivers.digest_alarm_follow).
DIGEST_FIELDS = frozenset({"turn_mail", "email_on_your_turn", "is_active", "digest_hour", "time_zone"})


def digest_wanted(user: Any) -> bool:
    """Whether this user's turn mail comes as a daily digest."""
    return bool(user.is_active and user.email_on_your_turn and user.turn_mail == TurnMail.DIGEST)


def digest_alarm_sync(*, user: Any, now: datetime) -> None:
    """Keep this user's one digest row in step with their preferences: made, moved or removed.

    Called when a user's preferences are saved, so the sweep only reads the rows that are due.
    """
    if not digest_wanted(user):
        DigestAlarm.objects.filter(user_id=user.pk).delete()
        return
    hour, time_zone = user.digest_hour, user.time_zone
    due_at = local_hour_next(now, time_zone=time_zone, hour=hour)
    row, created = DigestAlarm.objects.get_or_create(
        user_id=user.pk, defaults={"hour": hour, "time_zone": time_zone, "due_at": due_at}
    )
    if not created and (row.hour, row.time_zone) != (hour, time_zone):
        DigestAlarm.objects.filter(pk=row.pk).update(hour=hour, time_zone=time_zone, due_at=due_at)


def digests_queue_due(*, now: datetime, limit: int = SWEEP_LIMIT) -> SweepResult:
    """Queue each due digest (when a game waits for the user) and schedule the next one.

    Reads only the due rows. A row whose user no longer wants the digest (preferences
    changed by an UPDATE that no save signal saw) is removed; one whose hour or time zone
    changed moves to the new hour.
    """
    result = SweepResult()
    with transaction.atomic():
        rows = list(
            DigestAlarm.objects.select_for_update(skip_locked=True)
            .filter(due_at__lte=now)
            .prefetch_related("user")  # by primary key, as the alarms' (alarms_queue_due)
            .order_by("due_at")[:limit]
        )
        unwanted = [row for row in rows if not digest_wanted(row.user)]
        rows = [row for row in rows if digest_wanted(row.user)]
        waiting = selectors.games_waiting_for(user_ids=[row.user_id for row in rows]) if rows else {}
        mails = []
        for row in rows:
            if (row.hour, row.time_zone) != (row.user.digest_hour, row.user.time_zone):
                row.hour, row.time_zone = row.user.digest_hour, row.user.time_zone
                row.due_at = local_hour_next(now, time_zone=row.time_zone, hour=row.hour)
                continue
            if waiting.get(row.user_id) and email_deliverable(user=row.user):
                mails.append({"kind": "digest", "user": row.user})
                row.last_sent_at = now
            row.due_at = local_hour_next(max(now, row.due_at), time_zone=row.time_zone, hour=row.hour)
        if unwanted:
            DigestAlarm.objects.filter(pk__in=[row.pk for row in unwanted]).delete()
        outbox_add_many(mails, now=now)
        DigestAlarm.objects.bulk_update(
            rows, ["hour", "time_zone", "due_at", "last_sent_at"], batch_size=BULK_UPDATE_BATCH
        )
    result.claimed, result.queued = len(rows) + len(unwanted), len(mails)
    return result


def digests_send_due(*, now: datetime | None = None, limit: int = SWEEP_LIMIT) -> SweepResult:
    """Queue the due digests, then send what the outbox has due (in this process)."""
    now = now or _now()
    result = digests_queue_due(now=now, limit=limit)
    result.sent = outbox_send_due(now=now).sent
    return result


# ---------------------------------------------------------------- preferences and unsubscribe

PREFERENCE_FIELDS = (
    "turn_mail",
    "digest_hour",
    "email_on_your_turn",
    "email_reminders",
    "email_on_game_over",
    "quiet_hours_start",
    "quiet_hours_end",
)


def mail_preferences_update(*, user: Any, **values: Any) -> Any:
    """Change the mail and quiet-hours preferences; deadlines follow new quiet hours at once."""
    unknown = set(values) - set(PREFERENCE_FIELDS)
    if unknown:
        raise CorrespondenceError("bad_preference", fields=", ".join(sorted(unknown)))
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        quiet_before = (locked.quiet_hours_start, locked.quiet_hours_end)
        for name, value in values.items():
            setattr(locked, name, value)
        locked.full_clean(exclude=["password", "username", "email"])
        locked.save(update_fields=list(values))
        if (locked.quiet_hours_start, locked.quiet_hours_end) != quiet_before:
            games_services.games_clock_update(user_id=locked.pk)
    return locked


def mail_unsubscribe(*, token: str) -> tuple[Any, str]:
    """Follow a one-click unsubscribe link: turn off that kind of mail only (no login)."""
    try:
        user_id, kind = tokens.unsubscribe_token_read(token)
    except signing.BadSignature:
        raise CorrespondenceError("bad_link", status=404) from None
    with transaction.atomic():
        updated = User.objects.filter(pk=user_id).update(**{tokens.UNSUBSCRIBE_FIELDS[kind]: False})
        if not updated:
            raise CorrespondenceError("bad_link", status=404)
        DigestAlarm.objects.filter(user_id=user_id).exclude(user__email_on_your_turn=True).delete()
    return User.objects.get(pk=user_id), kind


# ---------------------------------------------------------------- vacation


def _month_start(day: date) -> date:
    return day.replace(day=1)


def _months_between(earlier: date, later: date) -> int:
    return (later.year - earlier.year) * 12 + later.month - earlier.month


def vacation_account(*, user: Any, now: datetime | None = None) -> VacationAccount:
    """The user's allowance, credited for each month begun since the last credit, capped.

    A new account starts with one month's credit. Locks the row: call in a transaction.
    """
    now = now or _now()
    month = _month_start(now.date())
    per_month = round(settings.CORRESPONDENCE_VACATION_DAYS_PER_YEAR * 24 / 12)
    cap = settings.CORRESPONDENCE_VACATION_CAP_DAYS * 24
    account, created = VacationAccount.objects.select_for_update().get_or_create(
        user_id=user.pk, defaults={"balance_hours": min(per_month, cap), "accrued_month": month}
    )
    months = _months_between(account.accrued_month, month)
    if not created and months > 0:
        account.balance_hours = min(cap, account.balance_hours + months * per_month)
        account.accrued_month = month
        account.save(update_fields=["balance_hours", "accrued_month"])
    return account


def vacation_start(*, user: Any, days: int, now: datetime | None = None) -> Vacation:
    """Start a vacation of ``days`` days: the clocks of the user's games stand still
    (where the game allows it) and the opponents are told."""
    now = now or _now()
    if not isinstance(days, int) or days < 1:
        raise CorrespondenceError("bad_days", status=400)
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if locked.vacation_since is not None:
            raise CorrespondenceError("already_on_vacation", status=409)
        account = vacation_account(user=locked, now=now)
        if days * 24 > account.balance_hours:
            raise CorrespondenceError("vacation_too_long", status=409, hours=account.balance_hours)
        vacation = Vacation.objects.create(user=locked, started_at=now, planned_end=now + timedelta(days=days))
        locked.vacation_since = now
        locked.save(update_fields=["vacation_since"])
        games_services.games_clock_update(user_id=locked.pk, now=now)
        _vacation_announce(user=locked, vacation=vacation)
    return vacation


def _vacation_announce(*, user: Any, vacation: Vacation, kind: str = "vacation_notice") -> None:
    """Tell the opponents in the user's active games whose clock the vacation stops (the
    games that allow vacations): a mail each, once the transaction commits. ``kind``:
    ``vacation_notice`` when it starts, ``vacation_back`` when it ends."""
    told: set[int] = set()
    for game in selectors.active_games_of(user_id=user.pk):
        if not game.vacation_allowed:
            continue
        for seat in game.seats.all():
            if seat.user is None or seat.user.pk == user.pk or seat.user.pk in told:
                continue
            told.add(seat.user.pk)
            outbox_add(kind=kind, user=seat.user, object_id=vacation.pk)


def vacation_end(*, user: Any, now: datetime | None = None) -> Vacation:
    """End the running vacation (early or at its planned end): the clocks run again,
    the hours used (begun hours) come off the allowance, and the opponents told of it
    are told it is over."""
    now = now or _now()
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        vacation = Vacation.objects.select_for_update().filter(user=locked, ended_at__isnull=True).first()
        if vacation is None:
            raise CorrespondenceError("not_on_vacation", status=409)
        end = min(now, vacation.planned_end)
        vacation.ended_at = end
        vacation.save(update_fields=["ended_at"])
        account = vacation_account(user=locked, now=now)
        used = math.ceil(max((end - vacation.started_at).total_seconds(), 0) / 3600)
        account.balance_hours = max(0, account.balance_hours - used)
        account.save(update_fields=["balance_hours"])
        locked.vacation_since = None
        locked.save(update_fields=["vacation_since"])
        games_services.games_clock_update(user_id=locked.pk, now=end)
        _vacation_announce(user=locked, vacation=vacation, kind="vacation_back")
    return vacation


def vacations_expire(*, now: datetime | None = None) -> int:
    """End every vacation whose planned end has come (from the beat sweep)."""
    now = now or _now()
    ended = 0
    due = Vacation.objects.filter(ended_at__isnull=True, planned_end__lte=now)
    for user_id in due.values_list("user_id", flat=True):
        try:
            vacation_end(user=User(pk=user_id), now=now)
            ended += 1
        except CorrespondenceError:
            continue  # a concurrent sweep or the user ended it
    return ended


# ---------------------------------------------------------------- calendar


def calendar_feed_renew(*, user: Any) -> CalendarFeed:
    """Create the user's secret feed address, or replace it (the old one stops working)."""
    with transaction.atomic():
        feed, _ = CalendarFeed.objects.select_for_update().get_or_create(
            user_id=user.pk, defaults={"secret": secrets.token_urlsafe(32)}
        )
        if not _:
            feed.secret = secrets.token_urlsafe(32)
            feed.save(update_fields=["secret", "created_at"])
    return feed


def calendar_feed_revoke(*, user: Any) -> int:
    """Remove the user's feed: its address stops working."""
    with transaction.atomic():
        return CalendarFeed.objects.filter(user_id=user.pk).delete()[0]


# ---------------------------------------------------------------- inbound mail: stored, then played


def inbound_mail_store(
    *,
    raw: bytes,
    recipient: str | None = None,
    envelope_sender: str | None = None,
    authentication: str = "",
    now: datetime | None = None,
) -> InboundMail:
    """Keep a received reply by mail as a row, and enqueue its play after the commit: the
    first step of both entries (the webhook and ``manage.py mail_inbound_smtp``), so that
    their answer (202, 250) means "stored" and a lost task can lose nothing.

    The row names the player its signed reply address names (``user``, so that it goes
    with their account); whether the reply is theirs and playable is judged when it is
    played (``inbound_mail_play``). ``envelope_sender`` is SMTP's MAIL FROM ("<>" for the
    null sender of automatic mail; None or "" when the entry does not know it);
    ``authentication`` the provider webhook's verdict (see ``replies.authentication_passes``).
    """
    now = now or _now()
    try:
        address = _reply_address_of(message_from_bytes(raw, policy=policy.default), recipient)
    except Exception:  # a mail whose headers the parser chokes on is still kept; playing it judges it
        log.warning("inbound mail: headers unreadable", exc_info=True)
        address = None
    user_id = (
        User.objects.filter(pk=address.user_id).values_list("pk", flat=True).first() if address is not None else None
    )
    with transaction.atomic():
        inbound = InboundMail.objects.create(
            raw=raw,
            recipient=(recipient or "")[:320],
            envelope_sender=(envelope_sender or "")[:320],
            authentication=(authentication or "")[:300],
            user_id=user_id,
            received_at=now,
            sweep_at=now + timedelta(seconds=settings.CORRESPONDENCE_INBOUND_OVERDUE_SECONDS),
        )
        tasks.inbound_mail_play.delay_on_commit(inbound.pk)
    log.info("inbound mail %s stored user_id=%s", inbound.pk, user_id)
    return inbound


def inbound_mail_play(*, inbound_id: int, now: datetime | None = None) -> str:
    """Play a stored reply once: the task's body. Returns the outcome.

    Under the row's lock, a row already processed (a redelivered, retried or swept copy)
    plays nothing and returns its outcome; otherwise ``mail_reply_receive`` plays it and
    ``processed_at`` and ``outcome`` are stamped in the same transaction as the move and
    the answer mail, so that a run that dies before the commit leaves the row unprocessed
    and the game untouched, for the next run. A row no longer there (purged, or gone with
    its player's account) is "gone".
    """
    with transaction.atomic():
        inbound = InboundMail.objects.select_for_update().filter(pk=inbound_id).first()
        if inbound is None:
            return "gone"
        if inbound.processed_at is not None:
            log.info("inbound mail %s already processed (%s): nothing to do", inbound_id, inbound.outcome)
            return inbound.outcome
        result = mail_reply_receive(
            raw=bytes(inbound.raw),
            recipient=inbound.recipient or None,
            envelope_sender=inbound.envelope_sender or None,
            authentication=inbound.authentication,
        )
        inbound.processed_at = now or _now()
        inbound.outcome = result.status
        inbound.save(update_fields=["processed_at", "outcome"])
    log.info("inbound mail %s processed: %s", inbound_id, result.status)
    return result.status


def inbound_mails_requeue(*, now: datetime | None = None) -> int:
    """Enqueue again the stored replies left unprocessed (the inbound sweep, beat's
    "correspondence-inbound-sweep"); returns how many.

    A killed worker's task waits in the broker for CELERY_VISIBILITY_TIMEOUT; this makes
    the reply wait about CORRESPONDENCE_INBOUND_OVERDUE_SECONDS plus a sweep interval
    instead. Rows being played right now are locked, and skipped. Each row comes back
    after a doubling wait (the overdue threshold, twice it, ... up to
    CORRESPONDENCE_INBOUND_RETRY_MAX_SECONDS), so a mail that fails every time costs
    little until it is purged. Safe beside the original task and a late redelivery:
    ``inbound_mail_play`` plays a row once.
    """
    now = now or _now()
    overdue = settings.CORRESPONDENCE_INBOUND_OVERDUE_SECONDS
    with transaction.atomic():
        due = list(
            InboundMail.objects.select_for_update(skip_locked=True)
            .filter(processed_at__isnull=True, sweep_at__lte=now)
            .order_by("sweep_at")
            .only("pk", "attempts")[: settings.CORRESPONDENCE_INBOUND_SWEEP_BATCH]
        )
        for inbound in due:
            wait = min(overdue * 2**inbound.attempts, settings.CORRESPONDENCE_INBOUND_RETRY_MAX_SECONDS)
            InboundMail.objects.filter(pk=inbound.pk).update(
                attempts=F("attempts") + 1, sweep_at=now + timedelta(seconds=wait)
            )
            log.warning(
                "inbound mail %s left unprocessed: enqueued again (attempt %s)", inbound.pk, inbound.attempts + 1
            )
            tasks.inbound_mail_play.delay_on_commit(inbound.pk)
    return len(due)


def inbound_mails_purge(*, now: datetime | None = None) -> int:
    """Delete the stored replies processed more than CORRESPONDENCE_INBOUND_KEEP_DAYS ago
    (they hold players' mail), and give up those still unprocessed after as long."""
    cutoff = (now or _now()) - timedelta(days=settings.CORRESPONDENCE_INBOUND_KEEP_DAYS)
    given_up = InboundMail.objects.filter(processed_at__isnull=True, received_at__lt=cutoff)
    for inbound_id in given_up.values_list("pk", flat=True):
        log.error("inbound mail %s never processed: purged", inbound_id)
    deleted, _ = InboundMail.objects.filter(
        Q(processed_at__lt=cutoff) | Q(processed_at__isnull=True, received_at__lt=cutoff)
    ).delete()
    return deleted


# ---------------------------------------------------------------- moves by mail

# What a reply may come to. Only the first two played something.
PLAYED_STATUSES = ("played", "played_then_rejected")
# Replies nobody is answered for: not ours, or written by no person (RFC 3834).
SILENT_STATUSES = ("forged", "automatic")
# Replies whose player is told at their registered address, never the sender.
NOTICE_STATUSES = ("wrong_sender", "unauthenticated")


@dataclass
class ReplyResult:
    # played, played_then_rejected, rejected, already_played, stale, game_over, not_your_turn,
    # empty; and, never answered to the sender: forged, automatic, wrong_sender, unauthenticated
    status: str
    played: list[str] = field(default_factory=list)
    revealed: list[str] = field(default_factory=list)
    # The decision refused: {"line", "code", "params", "fallback", "engine"}, translated when
    # the answer is rendered, in the player's language (correspondence.mail.reply_error_text).
    error: dict[str, Any] = field(default_factory=dict)
    # For a decision no longer pending: the player's move made for it since (site, API, mail).
    decided: list[str] = field(default_factory=list)


def _message_hash(message: Any, raw: bytes) -> str:
    """What tells two deliveries of one mail: its Message-ID, else its bytes (hashed)."""
    message_id = str(message.get("Message-ID", "") or "").strip()
    return hashlib.sha256(message_id.encode() if message_id else raw).hexdigest()


def _reply_address_of(message: Any, recipient: str | None) -> tokens.ReplyAddress | None:
    candidates = [recipient] if recipient else []
    for header in ("Delivered-To", "X-Original-To", "To", "Cc"):
        for value in message.get_all(header, []):
            candidates.extend(address for _, address in [parseaddr(part) for part in str(value).split(",")])
    for candidate in candidates:
        found = tokens.ReplyAddress.read(candidate or "")
        if found is not None:
            return found
    return None


def _reveals(kind: str, before: dict[str, Any], after: dict[str, Any], move_text: str) -> list[str]:
    """What a decision revealed, from the player's views before and after it.

    Maatatahay: a ``shrine`` decision draws the Shrine's favour; the last
    placement of a round refills the stream (the round number changes).
    """
    if kind != "maatatahay":
        return []
    revealed = []
    if move_text.split(" ", 1)[0] == "shrine":
        favour = after.get("favour") if after.get("favour") is not None else after.get("storage")
        revealed.append("favour: %s" % (favour,))
    if after.get("round") != before.get("round") and after.get("stream") != before.get("stream"):
        revealed.append("stream: %s" % (after.get("stream"),))
    return revealed


def mail_reply_receive(
    *,
    raw: bytes,
    recipient: str | None = None,
    envelope_sender: str | None = None,
    authentication: str = "",
    now: datetime | None = None,
) -> ReplyResult:
    """Play the decisions of a reply to a game mail: the one judge of inbound mail, called by
    ``inbound_mail_play`` on the row that both entries (SMTP command and HTTP webhook alike)
    store first.

    In order, under the game's row lock:

    1. the address must be one of ours (signed): else ``forged``, unanswered;
    2. automatic mail (``replies.automatic_reason``: auto-replies, bounces, lists) plays
       nothing and gets no answer: ``automatic``;
    3. the mail must come from the player's address (``wrong_sender``) and, with
       CORRESPONDENCE_INBOUND_AUTHSERV_ID set, carry that server's DKIM or DMARC pass
       (``unauthenticated``): else nothing is played, the sender is not answered
       (backscatter), and the player is told at their registered address, at most once a
       game and CORRESPONDENCE_REPLY_ANSWER_HOURS;
    4. the address names one pending decision (its ply): once that decision is played, a
       reply to it is ``already_played`` (a duplicate delivery says what it played) or
       ``stale``; an unreadable or illegal reply changes nothing and the address keeps
       working;
    5. decisions are played in order until one reveals something, the turn ends or the
       game ends; the answer confirms them (with the next decision's address while the
       turn goes on) or says why nothing was played, with the legal decisions. Answers to
       replies that played nothing go out at most once a game and
       CORRESPONDENCE_REPLY_ANSWER_HOURS (an auto-responder that slips past step 2 gets
       one answer a day, not a loop).
    """
    now = now or _now()
    message = message_from_bytes(raw, policy=policy.default)
    address = _reply_address_of(message, recipient)
    if address is None:
        log.info("mail_reply refused: no valid reply address")
        return ReplyResult("forged")
    automatic = replies.automatic_reason(message, envelope_sender=envelope_sender)
    if automatic:
        log.info("mail_reply ignored: automatic mail (%s) for game %s", automatic, address.game_id)
        return ReplyResult("automatic")
    user = User.objects.filter(pk=address.user_id, is_active=True).first()
    if user is None:
        return ReplyResult("forged")
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=address.game_id).first()
        if game is None:
            return ReplyResult("forged")
        message_hash = _message_hash(message, raw)
        sender = parseaddr(str(message.get("From", "")))[1]
        if not user.email or sender.lower() != user.email.lower():
            log.info("mail_reply refused: sender %r is not the player of game %s", sender, game.pk)
            result = ReplyResult("wrong_sender")
        elif not replies.authentication_passes(message, webhook_verdict=authentication):
            log.info("mail_reply refused: sender of game %s not authenticated", game.pk)
            result = ReplyResult("unauthenticated")
        else:
            result = _reply_play(user=user, game=game, address=address, message=message, message_hash=message_hash)
        answered = _reply_answer(user=user, game=game, result=result, sender=sender, message_hash=message_hash, now=now)
        ReplyAddressUse.objects.create(
            game=game,
            user=user,
            ply=address.ply,
            result=result.status,
            played=result.played,
            message_hash=message_hash,
            answered=answered,
        )
    return result


def _decided(*, user: Any, game: Game, address: tokens.ReplyAddress, message_hash: str) -> ReplyResult:
    """The answer to a reply whose decision is no longer pending: ``already_played`` with
    what this very mail played, for a duplicate delivery of a reply that played; else
    ``stale`` (``game_over`` once the game ended), naming the player's move made since for
    that decision (on the site, through the API or by another mail), if any."""
    earlier = (
        ReplyAddressUse.objects.filter(
            game=game, user=user, ply=address.ply, message_hash=message_hash, result__in=PLAYED_STATUSES
        )
        .order_by("-used_at")
        .first()
    )
    if earlier is not None:
        return ReplyResult("already_played", played=list(earlier.played))
    result = ReplyResult("game_over" if game.status != GameStatus.ACTIVE else "stale")
    move = Move.objects.filter(game=game, ply=address.ply + 1).first()
    if move is not None and move.user_id == user.pk:
        result.decided = [move.text]
    return result


def _reply_play(*, user: Any, game: Game, address: tokens.ReplyAddress, message: Any, message_hash: str) -> ReplyResult:
    rules = engine.get_game(game.kind)
    if game.ply != address.ply:
        return _decided(user=user, game=game, address=address, message_hash=message_hash)
    if game.status != GameStatus.ACTIVE:
        return ReplyResult("game_over")
    if game.to_move_user_id != user.pk:
        return ReplyResult("not_your_turn")
    lines = replies.decision_lines(message)
    if not lines:
        return ReplyResult("empty")
    result = ReplyResult("played")
    seat = Seat.objects.get(game=game, user=user)
    for line in lines:
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE or game.to_move_user_id != user.pk:
            break
        before = rules.view(game_rules.game_state(game), seat.side)
        try:
            move = games_services.move_submit(game_id=game.pk, user=user, move_text=line, expected_ply=game.ply)
        except GameActionError as error:
            result.status = "rejected" if not result.played else "played_then_rejected"
            result.error = {
                "line": line[:200],
                "code": error.code,
                "params": {key: value for key, value in error.params.items() if _json_ready(value)},
                "fallback": error.fallback,
                "engine": isinstance(error, MoveRejected),
            }
            break
        result.played.append(move.text)
        game.refresh_from_db()
        after = rules.view(game_rules.game_state(game), seat.side)
        result.revealed = _reveals(game.kind, before, after, move.text)
        if result.revealed:
            break
    return result


def _json_ready(value: Any) -> bool:
    return isinstance(value, str | int | float | bool | list | tuple | type(None))


def _answered_lately(*, user: Any, game: Game, statuses: tuple[str, ...] | None, now: datetime) -> bool:
    """Whether an answer (or notice) about ``game`` went to ``user`` in the last
    CORRESPONDENCE_REPLY_ANSWER_HOURS for a reply of one of ``statuses`` (None: any that
    played nothing)."""
    since = now - timedelta(hours=settings.CORRESPONDENCE_REPLY_ANSWER_HOURS)
    rows = ReplyAddressUse.objects.filter(game=game, user=user, answered=True, used_at__gte=since)
    if statuses is None:
        rows = rows.exclude(result__in=(*PLAYED_STATUSES, *NOTICE_STATUSES, "already_played"))
    else:
        rows = rows.filter(result__in=statuses)
    return rows.exists()


def _reply_answer(*, user: Any, game: Game, result: ReplyResult, sender: str, message_hash: str, now: datetime) -> bool:
    """Queue the answer to a reply, or the notice to its player; True when one was queued.

    A reply that played gets its answer, and so does each mail's first duplicate delivery
    ("already played"); one that played nothing gets one at most once a game and
    CORRESPONDENCE_REPLY_ANSWER_HOURS (so does the player's notice of replies from
    elsewhere). The answer is rendered when it is sent (mail.reply_answer_render),
    with the reply address of the player's pending decision then, if any."""
    if result.status in SILENT_STATUSES:
        return False
    if result.status in NOTICE_STATUSES:
        if _answered_lately(user=user, game=game, statuses=NOTICE_STATUSES, now=now):
            log.info("mail_reply notice for game %s already sent lately: none", game.pk)
            return False
        row = outbox_add(
            kind="reply_notice",
            user=user,
            object_id=game.pk,
            params={"reason": result.status, "sender": sender[:320]},
        )
        return row is not None
    if result.status == "already_played":
        # A duplicate delivery: answered once per mail, whatever else was answered today
        # (no responder can make one: it is a copy of the player's mail that played).
        if ReplyAddressUse.objects.filter(
            game=game, user=user, message_hash=message_hash, result="already_played", answered=True
        ).exists():
            return False
    elif result.status not in PLAYED_STATUSES and _answered_lately(user=user, game=game, statuses=None, now=now):
        log.info("mail_reply to game %s played nothing, answered lately: no answer", game.pk)
        return False
    row = outbox_add(kind="reply_answer", user=user, object_id=game.pk, params={"result": asdict(result)})
    return row is not None
