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

import logging
import math
import secrets
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, timedelta
from email import message_from_bytes, policy
from email.utils import parseaddr
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import IntegrityError, transaction
from django.db.models import F, Prefetch, Q
from django.utils import timezone

import engine
from accounts.models import TurnMail
from accounts.outbox import outbox_add, outbox_add_many, outbox_send_due
from accounts.selectors import email_deliverable
from games import rules as game_rules
from games import services as games_services
from games.clock import local_hour_next
from games.errors import GameActionError
from games.models import Alarm, Game, GameStatus, Seat

from . import selectors, tasks, tokens
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


def alarms_send_due(*, now: datetime | None = None, limit: int = SWEEP_LIMIT) -> SweepResult:
    """Queue the due alarms, then send what the outbox has due (in this process)."""
    now = now or _now()
    result = alarms_queue_due(now=now, limit=limit)
    result.sent = outbox_send_due(now=now).sent
    return result


# ---------------------------------------------------------------- digests


def digest_alarms_sync(*, now: datetime) -> None:
    """Keep one digest row per user who chose the digest, at their next digest hour."""
    DigestAlarm.objects.exclude(user__turn_mail=TurnMail.DIGEST, user__email_on_your_turn=True).delete()
    missing = User.objects.filter(
        turn_mail=TurnMail.DIGEST, email_on_your_turn=True, is_active=True, digest_alarm__isnull=True
    )
    DigestAlarm.objects.bulk_create(
        [
            DigestAlarm(
                user=user,
                hour=user.digest_hour,
                time_zone=user.time_zone,
                due_at=local_hour_next(now, time_zone=user.time_zone, hour=user.digest_hour),
            )
            for user in missing
        ],
        ignore_conflicts=True,
    )
    # (the rows left are the subscribers', which the partial index accounts_user_digest holds:
    # saying so lets the join start from them rather than from every account)
    changed = list(
        DigestAlarm.objects.filter(user__turn_mail=TurnMail.DIGEST, user__email_on_your_turn=True)
        .filter(~Q(hour=F("user__digest_hour")) | ~Q(time_zone=F("user__time_zone")))
        .select_related("user")
    )
    for row in changed:
        row.hour, row.time_zone = row.user.digest_hour, row.user.time_zone
        row.due_at = local_hour_next(now, time_zone=row.time_zone, hour=row.hour)
    DigestAlarm.objects.bulk_update(changed, ["hour", "time_zone", "due_at"], batch_size=BULK_UPDATE_BATCH)


def digests_queue_due(*, now: datetime, limit: int = SWEEP_LIMIT) -> SweepResult:
    """Queue each due digest (when a game waits for the user) and schedule the next one."""
    digest_alarms_sync(now=now)
    result = SweepResult()
    with transaction.atomic():
        rows = list(
            DigestAlarm.objects.select_for_update(skip_locked=True)
            .filter(due_at__lte=now)
            .prefetch_related("user")  # by primary key, as the alarms' (alarms_queue_due)
            .order_by("due_at")[:limit]
        )
        waiting = selectors.games_waiting_for(user_ids=[row.user_id for row in rows])
        mails = []
        for row in rows:
            if waiting.get(row.user_id) and email_deliverable(user=row.user):
                mails.append({"kind": "digest", "user": row.user})
                row.last_sent_at = now
            row.due_at = local_hour_next(max(now, row.due_at), time_zone=row.time_zone, hour=row.hour)
        outbox_add_many(mails, now=now)
        DigestAlarm.objects.bulk_update(rows, ["due_at", "last_sent_at"], batch_size=BULK_UPDATE_BATCH)
    result.claimed, result.queued = len(rows), len(mails)
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
        digest_alarms_sync(now=_now())
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


def _vacation_announce(*, user: Any, vacation: Vacation) -> None:
    """Tell the opponents in the user's active games (a mail each, once the transaction commits)."""
    told: set[int] = set()
    for game in selectors.active_games_of(user_id=user.pk):
        for seat in game.seats.all():
            if seat.user is None or seat.user.pk == user.pk or seat.user.pk in told:
                continue
            told.add(seat.user.pk)
            outbox_add(kind="vacation_notice", user=seat.user, object_id=vacation.pk)


def vacation_end(*, user: Any, now: datetime | None = None) -> Vacation:
    """End the running vacation (early or at its planned end): the clocks run again
    and the hours used (begun hours) come off the allowance."""
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


def inbound_mail_store(*, raw: bytes, recipient: str | None = None, now: datetime | None = None) -> InboundMail:
    """Keep a received reply by mail as a row, and enqueue its play after the commit: the
    first step of both entries (the webhook and ``manage.py mail_inbound_smtp``), so that
    their answer (202, 250) means "stored" and a lost task can lose nothing.

    The row names the player its signed reply address names (``user``, so that it goes
    with their account); whether the reply is theirs and playable is judged when it is
    played (``inbound_mail_play``).
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
        result = mail_reply_receive(raw=bytes(inbound.raw), recipient=inbound.recipient or None)
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


@dataclass
class ReplyResult:
    status: str  # played, rejected, forged, wrong_sender, used, stale, game_over, not_your_turn, empty
    played: list[str] = field(default_factory=list)
    revealed: list[str] = field(default_factory=list)
    error: str = ""


def _decision_lines(text: str) -> list[str]:
    """The reply's own lines, up to the quoted mail or the signature."""
    lines = []
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith(">") or raw.rstrip() == "--" or raw.startswith("-- "):
            break
        if line.lower().startswith("on ") and line.rstrip().endswith("wrote:"):
            break
        if line:
            lines.append(line)
    return lines


def _message_text(message: Any) -> str:
    part = message.get_body(preferencelist=("plain",))
    if part is None:
        return ""
    try:
        return part.get_content()
    except (LookupError, UnicodeError):
        return ""


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


def mail_reply_receive(*, raw: bytes, recipient: str | None = None) -> ReplyResult:
    """Play the decisions of a reply to a "your turn" mail: the one judge of inbound mail,
    called by ``inbound_mail_play`` on the row that both entries (SMTP command and HTTP
    webhook alike) store first.

    The address must be ours, unused, signed for this player and the game's
    current ply, and the mail must come from the player's address. Decisions
    are played in order until one reveals something, the turn ends or the game
    ends; the answer mail confirms them (with a fresh address when the turn goes
    on) or lists the legal decisions. Anything else changes nothing.
    """
    message = message_from_bytes(raw, policy=policy.default)
    address = _reply_address_of(message, recipient)
    if address is None:
        log.info("mail_reply refused: no valid reply address")
        return ReplyResult("forged")
    user = User.objects.filter(pk=address.user_id, is_active=True).first()
    sender = parseaddr(str(message.get("From", "")))[1]
    if user is None or not user.email or sender.lower() != user.email.lower():
        log.info("mail_reply refused: sender %r is not the player", sender)
        return ReplyResult("wrong_sender")
    game = Game.objects.filter(pk=address.game_id).first()
    if game is None:
        return ReplyResult("forged")
    try:
        with transaction.atomic():
            ReplyAddressUse.objects.create(
                game=game, user=user, ply=address.ply, attempt=address.attempt, result="received"
            )
    except IntegrityError:
        result = ReplyResult("used")
        _reply_answer(user=user, game=game, result=result, attempt=None)
        return result
    result = _reply_play(user=user, game=game, address=address, lines=_decision_lines(_message_text(message)))
    ReplyAddressUse.objects.filter(game=game, user=user, ply=address.ply, attempt=address.attempt).update(
        result=result.status
    )
    game.refresh_from_db()
    _reply_answer(user=user, game=game, result=result, attempt=address.attempt + 1)
    return result


def _reply_play(*, user: Any, game: Game, address: tokens.ReplyAddress, lines: list[str]) -> ReplyResult:
    rules = engine.get_game(game.kind)
    if game.status != GameStatus.ACTIVE:
        return ReplyResult("game_over")
    if game.ply != address.ply:
        return ReplyResult("stale")
    if game.to_move_user_id != user.pk:
        return ReplyResult("not_your_turn")
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
            result.error = "%s: %s" % (line, error.message)
            break
        result.played.append(move.text)
        game.refresh_from_db()
        after = rules.view(game_rules.game_state(game), seat.side)
        result.revealed = _reveals(game.kind, before, after, move.text)
        if result.revealed:
            break
    return result


def _reply_answer(*, user: Any, game: Game, result: ReplyResult, attempt: int | None) -> None:
    """Answer a reply: what was played and revealed, or why nothing was, with the legal
    decisions and, while it is still their turn, a fresh reply address (attempt
    ``attempt``), made when the mail is sent (correspondence.mail.reply_answer_render)."""
    outbox_add(kind="reply_answer", user=user, object_id=game.pk, params={"result": asdict(result), "attempt": attempt})
