"""The timeout sweep and its protections against outages.

The sweep (beat, every few minutes) records in the one ClockSweep row when it
judged the deadlines. Two protections run before any game times out:

* **Outages.** A gap since the last sweep longer than
  ``settings.GAMES_OUTAGE_GAP_SECONDS`` means the site or its workers were down.
  Every deadline that fell inside the gap (last sweep < deadline <= now) moves
  by the gap's length, through the clock model (``turn_paused``, so quiet hours
  and alarms follow): the player gets back exactly the time they had left when
  the sweeps stopped. The first sweep ever is not an outage.
* **The cap.** One sweep ends at most
  max(``GAMES_TIMEOUT_MIN_UNCONFIRMED``, ``GAMES_TIMEOUT_MAX_SHARE`` x running
  games). When more are due it ends none of them and holds them all in the
  pending TimeoutBatch (one waits at a time; later sweeps add to it and leave
  held games alone) until staff confirm it (the games time out) or extend it
  (the time since the batch's ``since`` counts as an outage).

Sweeps and staff decisions lock the ClockSweep row first, then the batch, then
games: they run one after another and never deadlock.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from .adjudication import adjudication_check
from .errors import Conflict, NotFound
from .models import ClockOutage, ClockSweep, Game, GameStatus, TimeoutBatch, TimeoutBatchStatus, TimeoutHold
from .services import game_clock_update, game_lock, game_time_out

if TYPE_CHECKING:
    from accounts.models import User

log = logging.getLogger(__name__)


@dataclass
class SweepResult:
    timed_out: int = 0
    extended: int = 0  # games whose deadline an outage moved
    held: int = 0  # games held for staff in the pending batch
    outage: ClockOutage | None = None


def _sweep_lock() -> ClockSweep:
    """The sweep's one row, locked until the transaction ends."""
    ClockSweep.objects.get_or_create(pk=1)
    return ClockSweep.objects.select_for_update().get(pk=1)


def _overdue(game: Game, now: datetime) -> bool:
    return game.status == GameStatus.ACTIVE and game.deadline is not None and game.deadline < now


def _clock_extend(game: Game, length: timedelta, now: datetime) -> None:
    """Give the locked game's player to move ``length`` more time, through the
    clock model (quiet hours and alarms follow), and save the game."""
    game.turn_paused += length
    game_clock_update(game=game, now=now)
    game.save(update_fields=["clock_paused_at", "turn_paused", "deadline"])


def _outage_extend(*, start: datetime, end: datetime) -> ClockOutage:
    """Move every deadline that fell in the outage (start, end] by its length."""
    games = list(
        Game.objects.select_for_update()
        .filter(status=GameStatus.ACTIVE, deadline__gt=start, deadline__lte=end)
        .order_by("pk")
    )
    for game in games:
        _clock_extend(game, end - start, end)
    outage = ClockOutage.objects.create(started_at=start, ended_at=end)
    outage.games.set(games)
    log.warning(
        "clock outage: no timeout sweep from %s to %s (%s); %d deadline(s) extended",
        start.isoformat(),
        end.isoformat(),
        end - start,
        len(games),
    )
    return outage


def timeouts_allowed(active: int) -> int:
    """How many games one sweep may time out without staff confirming."""
    return max(int(settings.GAMES_TIMEOUT_MIN_UNCONFIRMED), int(float(settings.GAMES_TIMEOUT_MAX_SHARE) * active))


def _timeouts_hold(
    due: list[tuple[int, int, datetime]], *, previous: datetime | None, active: int, now: datetime
) -> TimeoutBatch:
    """Hold the due games (id, turn, deadline) in the pending batch, made if none waits.

    A new batch's ``since`` is the sweep before it (or the earliest held deadline
    when that is earlier or there was none): clocks were last judged normally then."""
    batch = TimeoutBatch.objects.select_for_update().filter(status=TimeoutBatchStatus.PENDING).first()
    if batch is None:
        earliest = min(deadline for _game, _turn, deadline in due)
        batch = TimeoutBatch.objects.create(
            created_at=now, since=min(previous, earliest) if previous else earliest, active_games=active
        )
    TimeoutHold.objects.bulk_create(
        [TimeoutHold(batch=batch, game_id=game_id, turn=turn, deadline=deadline) for game_id, turn, deadline in due],
        ignore_conflicts=True,
    )
    log.warning(
        "timeouts held for staff: %d game(s) due at once, at most %d allowed of %d running (batch %s)",
        len(due),
        timeouts_allowed(active),
        active,
        batch.pk,
    )
    return batch


def games_sweep(*, now: datetime | None = None) -> SweepResult:
    """The timeout sweep: extend the deadlines of an outage, then end the games
    past their deadline, or hold them all for staff when too many are due at once.

    Games held in the pending batch stay out of later sweeps (for the turn they
    were held on) until staff decide. Each game is re-checked under its row
    lock; a game locked by a move in progress is left to the next sweep.
    """
    result = SweepResult()
    with transaction.atomic():
        sweep = _sweep_lock()
        now = now or timezone.now()  # read after the lock: sweeps judge in order
        previous = sweep.swept_at
        gap = timedelta(seconds=settings.GAMES_OUTAGE_GAP_SECONDS)
        if previous is not None and now - previous > gap:
            result.outage = _outage_extend(start=previous, end=now)
            result.extended = result.outage.games.count()
        held = TimeoutHold.objects.filter(
            batch__status=TimeoutBatchStatus.PENDING, game=OuterRef("pk"), turn=OuterRef("turn")
        )
        # (id, turn, deadline): deadline__lt leaves no null deadline
        due = [
            (pk, turn, deadline)
            for pk, turn, deadline in Game.objects.filter(status=GameStatus.ACTIVE, deadline__lt=now)
            .filter(~Exists(held))
            .order_by("deadline", "pk")
            .values_list("pk", "turn", "deadline")
            if deadline is not None
        ]
        # Counting the running games reads them all: only when more are due than a sweep may
        # always time out (timeouts_allowed is never below that), so that a sweep costs what is due.
        active = (
            Game.objects.filter(status=GameStatus.ACTIVE).count()
            if len(due) > int(settings.GAMES_TIMEOUT_MIN_UNCONFIRMED)
            else 0
        )
        if len(due) > timeouts_allowed(active):
            _timeouts_hold(due, previous=previous, active=active, now=now)
            result.held = len(due)
        else:
            for game_id, _turn, _deadline in due:
                with transaction.atomic():
                    game = Game.objects.select_for_update(skip_locked=True).filter(pk=game_id).first()
                    if game is None or not _overdue(game, now):
                        continue
                    game_time_out(game, now=now)
                    result.timed_out += 1
        sweep.swept_at = now
        sweep.finished_at = timezone.now()
        sweep.games_timed_out, sweep.games_extended, sweep.games_held = (result.timed_out, result.extended, result.held)
        sweep.save()
    return result


def _batch_decide(*, batch_id: int, staff: User, reason: str, status: str, now: datetime | None) -> TimeoutBatch:
    reason = adjudication_check(staff=staff, reason=reason)
    with transaction.atomic():
        _sweep_lock()
        batch = TimeoutBatch.objects.select_for_update().filter(pk=batch_id).first()
        if batch is None:
            raise NotFound("timeouts_batch_not_found")
        if batch.status != TimeoutBatchStatus.PENDING:
            raise Conflict("timeouts_batch_decided")
        now = now or timezone.now()
        changed = 0
        for hold in batch.holds.order_by("game_id", "turn"):
            game = game_lock(game_id=hold.game_id)
            if game.status != GameStatus.ACTIVE or game.turn != hold.turn:
                continue  # over or moved on since it was held: nothing to decide
            if status == TimeoutBatchStatus.CONFIRMED:
                if not _overdue(game, now):
                    continue
                game_time_out(game, now=now)
            else:
                _clock_extend(game, now - batch.since, now)
            changed += 1
        batch.status = status
        batch.decided_by = staff
        batch.decided_at = now
        batch.reason = reason
        batch.games_changed = changed
        batch.save(update_fields=["status", "decided_by", "decided_at", "reason", "games_changed"])
        log.info(
            "held timeouts batch=%s %s by user=%s: %d game(s) changed; %s", batch.pk, status, staff.pk, changed, reason
        )
        return batch


def timeout_batch_games_time_out(
    *, batch_id: int, staff: User, reason: str, now: datetime | None = None
) -> TimeoutBatch:
    """Staff confirm a held batch: each of its games still on the held turn and
    still past its deadline times out as the sweep would have ended it."""
    return _batch_decide(batch_id=batch_id, staff=staff, reason=reason, status=TimeoutBatchStatus.CONFIRMED, now=now)


def timeout_batch_clocks_extend(
    *, batch_id: int, staff: User, reason: str, now: datetime | None = None
) -> TimeoutBatch:
    """Staff treat a held batch as an outage from its ``since`` until now: each of
    its games still on the held turn gets that time back, so its player has again
    the time they had left when clocks were last judged normally."""
    return _batch_decide(batch_id=batch_id, staff=staff, reason=reason, status=TimeoutBatchStatus.EXTENDED, now=now)
