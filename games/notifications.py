"""The alarms games keeps for mail: one row per mail due (games.models.Alarm).

games only *schedules* alarms, inside the transaction that changes a game:

* ``your_turn`` when a human's turn starts (due at once);
* ``reminder`` when ``settings.GAMES_REMIND_SHARE`` (0.8) of the turn's time is
  used, and ``last_call`` ``settings.GAMES_LAST_CALL_HOURS`` (6) hours before
  the deadline; both are rescheduled whenever the deadline moves (vacation,
  quiet hours) and dropped while the clock stands still. When the deadline falls less
  than ``QUIET_LAST_REMINDER_WINDOW`` (2 hours) after the end of the player's night, the
  reminders that would come in that night or after it go ``QUIET_LAST_REMINDER_LEAD``
  (1 hour) before the night starts instead: mail waits for the end of the night
  (correspondence), and a reminder then would leave too little time to move;
* ``game_over`` for each human player when a game ends.

Sending is the correspondence app's job (its beat sweep claims due alarms with
skip-locked row locks, sends and marks them sent). The unique constraint on
(game, user, kind, turn) means an alarm that went out is never scheduled again.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import router
from django.db.models import QuerySet

from maatasite.sql_once import delete_once, insert_once

from .clock import quiet_night_before
from .models import Alarm, Game, Seat

REMINDER_KINDS = (Alarm.Kind.REMINDER, Alarm.Kind.LAST_CALL)
QUIET_LAST_REMINDER_WINDOW = timedelta(hours=2)
QUIET_LAST_REMINDER_LEAD = timedelta(hours=1)


def reminder_times(
    *,
    turn_started_at: datetime,
    turn_paused: timedelta,
    deadline: datetime,
    time_zone: str = "",
    quiet_start: int | None = None,
    quiet_end: int | None = None,
) -> dict[str, datetime]:
    """When the reminders of a turn are due: at the set share of the time the
    player had (pauses excluded), and a few hours before the deadline; the
    last call is dropped when it would come before the share reminder.

    With quiet hours (the player's night, ``quiet_start`` to ``quiet_end`` o'clock in
    ``time_zone``): when the deadline falls less than 2 hours after a night's end, a
    reminder due at or after that night's start is due 1 hour before it instead (see the
    module docstring)."""
    share = settings.GAMES_REMIND_SHARE
    last_hours = settings.GAMES_LAST_CALL_HOURS
    started = turn_started_at + turn_paused
    times: dict[str, datetime] = {Alarm.Kind.REMINDER: started + (deadline - started) * share}
    last_call = deadline - timedelta(hours=last_hours)
    if last_call > times[Alarm.Kind.REMINDER]:
        times[Alarm.Kind.LAST_CALL] = last_call
    night = quiet_night_before(deadline, time_zone=time_zone, start=quiet_start, end=quiet_end)
    if night is not None and deadline - night[1] < QUIET_LAST_REMINDER_WINDOW:
        before_night = night[0] - QUIET_LAST_REMINDER_LEAD
        for kind, due in list(times.items()):
            if due >= night[0]:
                times[kind] = before_night
        if Alarm.Kind.LAST_CALL in times and times[Alarm.Kind.LAST_CALL] <= times[Alarm.Kind.REMINDER]:
            del times[Alarm.Kind.LAST_CALL]  # one reminder before the night, not two at once
    return times


def turn_alarms_schedule(game: Game, *, now: datetime, turn_started: bool) -> None:
    """Schedule the alarms of the game's current turn after its deadline was set.

    Unsent reminders of the game are replaced; alarms already sent stay (and
    are not scheduled again). Call inside the transaction changing the game.
    """
    alias = router.db_for_write(Alarm)
    delete_once(
        UNSENT_REMINDERS_DELETE_SQL,
        queryset=_unsent_reminders,
        placeholder=_GAME_ID_PLACEHOLDER,
        value=game.pk,
        alias=alias,
    )
    user_id = game.to_move_user_id
    if user_id is None or not game.is_active:
        return
    rows = []
    if turn_started:
        rows.append(Alarm(game=game, user_id=user_id, kind=Alarm.Kind.YOUR_TURN, turn=game.turn, due_at=now))
    if game.deadline is not None and game.turn_started_at is not None:
        user = game.to_move_user
        for kind, due in reminder_times(
            turn_started_at=game.turn_started_at,
            turn_paused=game.turn_paused,
            deadline=game.deadline,
            time_zone=user.time_zone if user is not None else "",
            quiet_start=user.quiet_hours_start if user is not None else None,
            quiet_end=user.quiet_hours_end if user is not None else None,
        ).items():
            rows.append(Alarm(game=game, user_id=user_id, kind=kind, turn=game.turn, due_at=due))
    insert_once(TURN_ALARMS_INSERT_SQL, rows, alias=alias, ignore_conflicts=True)


# A move reschedules its turn's alarms: their DELETE and INSERT are built once per process
# (maatasite.sql_once), as building them through the ORM cost more CPU than running them
# (about 1.2 ms a move, measured in-process).
UNSENT_REMINDERS_DELETE_SQL = "games_unsent_reminders_delete"
TURN_ALARMS_INSERT_SQL = "games_turn_alarms_insert"
_GAME_ID_PLACEHOLDER = -7_001_006  # an id no game has: the built DELETE's variable parameter


def _unsent_reminders(game_id: int) -> QuerySet[Alarm]:
    return Alarm.objects.filter(game_id=game_id, kind__in=REMINDER_KINDS, sent_at__isnull=True)


def game_over_alarms_schedule(game: Game, *, now: datetime) -> None:
    """A "game over" alarm for each human player; unsent reminders are dropped."""
    Alarm.objects.filter(game=game, sent_at__isnull=True).exclude(kind=Alarm.Kind.GAME_OVER).delete()
    user_ids = Seat.objects.filter(game=game, user__isnull=False).values_list("user_id", flat=True)
    Alarm.objects.bulk_create(
        [Alarm(game=game, user_id=user_id, kind=Alarm.Kind.GAME_OVER, turn=0, due_at=now) for user_id in user_ids],
        ignore_conflicts=True,
    )
