"""Reads of correspondence: games waiting for players, calendar events, page banners."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db.models import Prefetch

from accounts.models import TurnMail
from accounts.selectors import email_deliverable
from games.models import Alarm, Game, GameStatus, Seat

from .models import CalendarFeed, Vacation, VacationAccount


def _with_seats(queryset):
    return queryset.select_related("to_move_user").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user"))
    )


def games_waiting_for(*, user_ids: Iterable[int]) -> dict[int, list[Game]]:
    """Active games whose player to move is one of ``user_ids``, by user, soonest deadline first."""
    games = _with_seats(
        Game.objects.filter(status=GameStatus.ACTIVE, to_move_user_id__in=list(user_ids)).order_by("deadline", "pk")
    )
    waiting: dict[int, list[Game]] = {}
    for game in games:
        waiting.setdefault(game.to_move_user_id, []).append(game)
    return waiting


def active_games_of(*, user_id: int) -> list[Game]:
    """The user's active games, with seats and their users."""
    return list(
        _with_seats(
            Game.objects.filter(status=GameStatus.ACTIVE, seats__user_id=user_id)
            .defer("sealed_state", "sealed_seed")
            .distinct()
        )
    )


def calendar_feed_for(*, secret: str) -> CalendarFeed | None:
    return CalendarFeed.objects.select_related("user").filter(secret=secret).first()


def calendar_games(*, user_id: int) -> list[Game]:
    """The user's active games with a running clock (each has a move deadline)."""
    return [g for g in active_games_of(user_id=user_id) if g.deadline is not None]


def running_vacation(*, user_id: int) -> Vacation | None:
    return Vacation.objects.filter(user_id=user_id, ended_at__isnull=True).first()


def vacation_balance_hours(*, user_id: int) -> int | None:
    account = VacationAccount.objects.filter(user_id=user_id).first()
    return account.balance_hours if account else None


def user_gets_no_mail(user: Any) -> bool:
    """Whether the user turned off every kind of game mail (or has no address)."""
    return not user.email or not (user.email_on_your_turn or user.email_reminders or user.email_on_game_over)


def banners_for(*, user: Any, game_id: int | None, now: datetime, game: Any = None) -> list[dict[str, Any]]:
    """Warnings for the page: mail all off while a clock runs; opponents on vacation.
    ``game``: the game ``game_id`` with its seats and their users prefetched, when the page
    has read it already."""
    banners: list[dict[str, Any]] = []
    if game_id is None:
        return banners
    if game is None or game.pk != game_id or "seats" not in getattr(game, "_prefetched_objects_cache", {}):
        game = (
            Game.objects.filter(pk=game_id, status=GameStatus.ACTIVE)
            .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
            .defer("sealed_state", "sealed_seed")
            .first()
        )
    elif game.status != GameStatus.ACTIVE:
        game = None
    if game is None:
        return banners
    seats = list(game.seats.all())
    mine = getattr(user, "is_authenticated", False) and any(s.user_id == user.pk for s in seats)
    if mine and game.deadline is not None and user_gets_no_mail(user):
        banners.append({"kind": "no_mail"})
    for seat in seats:
        if seat.user is not None and seat.user.vacation_since is not None:
            vacation = running_vacation(user_id=seat.user.pk)
            banners.append(
                {
                    "kind": "vacation",
                    "player": seat.user.public_name,
                    "until": vacation.planned_end if vacation else None,
                    "frozen": game.vacation_allowed,
                }
            )
    return banners


def alarm_outcome(alarm: Any, *, now: datetime) -> str | None:
    """Why this alarm's mail should not go out (stale, off, digest, failing, no_address), or
    None when it should: asked when the alarm is queued and again when its mail is sent."""
    game, user = alarm.game, alarm.user
    if not user.email or not user.is_active:
        return "no_address"
    if not email_deliverable(user=user):
        return "failing"  # a hard bounce or a complaint: nothing until the address is fixed
    if alarm.kind == Alarm.Kind.GAME_OVER:
        return None if user.email_on_game_over else "off"
    if game.status != GameStatus.ACTIVE or game.turn != alarm.turn or game.to_move_user_id != user.pk:
        return "stale"
    if alarm.kind == Alarm.Kind.YOUR_TURN:
        # Sent even while the clock stands still (vacation, staff hold): the turn is theirs.
        if not user.email_on_your_turn:
            return "off"
        return "digest" if user.turn_mail == TurnMail.DIGEST else None
    # A reminder while the clock stands still is stale: restarting the clock schedules new ones.
    if game.clock_paused_at is not None or game.deadline is None or game.deadline <= now:
        return "stale"
    return None if user.email_reminders else "off"
