"""Writes of the ops app: task heartbeats, staff adjudication of games and players, and
staff decisions on held time-outs. (Reports and their review are fairplay.services'.)

Every staff service here takes the ``staff`` member and the ``reason``
(required) and writes exactly one row of the staff audit log
(``accounts.audit.staff_action_record``) in the transaction of the action;
the game-side work is games.adjudication's and games.outages' building blocks, named
for what they change (``game_result_void``, ``timeout_batch_games_time_out``, ...), so that
each staff action has one service of its name, here. Suspension rule (shown to staff in
the admin): the suspended player cannot log in (inactive; their sessions end and
their API tokens are revoked); each running game against a person is lost by
them (reason forfeit), or aborted when they have not moved in it yet; games
against bots are aborted; their open challenges are cancelled; they leave their
ladders and are withdrawn from their tournaments. Lifting the suspension lets them
log in again (new tokens needed); ended games stay ended, ladders are joined again."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from accounts import services as account_services
from accounts.audit import staff_action_record
from accounts.models import StaffActionKind
from games import adjudication, outages
from games import services as game_services
from games.models import Game, TimeoutBatch
from ladder import services as ladder_services
from tournaments import services as tournament_services

from .errors import OpsConflict, OpsInvalid, OpsNotFound
from .models import Heartbeat

if TYPE_CHECKING:
    from accounts.models import User


def heartbeat_record(*, name: str, now: datetime | None = None) -> Heartbeat:
    """Note that the task ``name`` just ran on a worker (the health check reads it)."""
    heartbeat, _created = Heartbeat.objects.update_or_create(name=name, defaults={"seen_at": now or timezone.now()})
    return heartbeat


# ---------------------------------------------------------------- staff adjudication


def _result_details(done: adjudication.Adjudication) -> dict:
    game = done.game
    previous: dict[str, Any] = dict(done.previous) if done.previous is not None else {"status": "active"}
    if previous.get("finished_at") is not None:
        previous["finished_at"] = previous["finished_at"].isoformat()
    return {
        "previous": previous,
        "result": {"status": game.status, "winner": game.winner_side or None, "reason": game.result_reason},
    }


def game_void(*, game_id: int, staff: User, reason: str) -> Game:
    """Void an ended game (games.adjudication.game_result_void) and log it."""
    with transaction.atomic():
        done = adjudication.game_result_void(game_id=game_id, staff=staff, reason=reason)
        staff_action_record(
            staff=staff,
            action=StaffActionKind.VOID,
            reason=reason.strip(),
            target=done.game,
            details=_result_details(done),
        )
        return done.game


def game_award(*, game_id: int, staff: User, reason: str, winner_side: str) -> Game:
    """Award a game to ``winner_side`` ("" for a draw) and log it."""
    with transaction.atomic():
        done = adjudication.game_result_award(game_id=game_id, staff=staff, reason=reason, winner_side=winner_side)
        staff_action_record(
            staff=staff,
            action=StaffActionKind.AWARD,
            reason=reason.strip(),
            target=done.game,
            details=_result_details(done),
        )
        return done.game


def game_timeout_reverse(*, game_id: int, staff: User, reason: str) -> Game:
    """Let a game that ended on time run again (e.g. after an outage) and log it."""
    with transaction.atomic():
        done = adjudication.game_result_timeout_reverse(game_id=game_id, staff=staff, reason=reason)
        staff_action_record(
            staff=staff,
            action=StaffActionKind.TIMEOUT_REVERSE,
            reason=reason.strip(),
            target=done.game,
            details=_result_details(done),
        )
        return done.game


def game_bot_release(*, game_id: int, staff: User, reason: str) -> Game:
    """Let the bot of a game flagged for failing play again (games.services.bot_turn_unflag)
    and log it."""
    reason = adjudication.adjudication_check(staff=staff, reason=reason)
    with transaction.atomic():
        failure = Game.objects.select_for_update().filter(pk=game_id).values_list("bot_failure", flat=True).first()
        game = game_services.bot_turn_unflag(game_id=game_id)
        staff_action_record(
            staff=staff, action=StaffActionKind.BOT_RELEASE, reason=reason, target=game, details={"failure": failure}
        )
        return game


def _lock_player(player_id: int) -> User:
    player = get_user_model().objects.select_for_update().filter(pk=player_id).first()
    if player is None:
        raise OpsNotFound("player_not_found")
    return player


def player_competitions_leave(*, user: User, actor: User | None) -> dict[str, list[int]]:
    """Take a player who can no longer play (suspended, deleted) out of every ladder and
    tournament: ladders are left; a tournament not started yet drops the entry, a running
    or paused one withdraws them (``actor``: the staff member, None for the player).
    Call after their games are resolved: games are locked before ladder and tournament rows."""
    return {
        "ladders_left": ladder_services.user_ladders_leave(user=user),
        "tournaments_left": tournament_services.user_tournaments_leave(user=user, actor=actor),
    }


def player_suspend(*, player_id: int, staff: User, reason: str) -> User:
    """Suspend a player by the rule in the module docstring, and log it."""
    reason = adjudication.adjudication_check(staff=staff, reason=reason)
    if player_id == staff.pk:
        raise OpsInvalid("suspend_self")
    now = timezone.now()
    with transaction.atomic():
        player = _lock_player(player_id)
        if player.suspended_at is not None:
            raise OpsConflict("already_suspended")
        player.suspended_at = now
        player.suspension_reason = reason[:300]
        player.is_active = False
        player.save(update_fields=["suspended_at", "suspension_reason", "is_active"])
        tokens = player.api_tokens.filter(revoked_at__isnull=True).update(revoked_at=now)
        sessions = account_services.user_sessions_end(user_id=player.pk)
        done = adjudication.player_games_resolve(user=player, staff=staff, reason=reason, now=now)
        left = player_competitions_leave(user=player, actor=staff)
        staff_action_record(
            staff=staff,
            action=StaffActionKind.SUSPEND,
            reason=reason,
            player=player,
            details={
                "forfeited": done.forfeited,
                "aborted": done.aborted,
                "challenges_cancelled": done.challenges_cancelled,
                "challenges_declined": done.challenges_declined,
                **left,
                "tokens_revoked": tokens,
                "sessions_ended": sessions,
            },
        )
        return player


def player_unsuspend(*, player_id: int, staff: User, reason: str) -> User:
    """Lift a suspension: the player may log in again. Logged."""
    reason = adjudication.adjudication_check(staff=staff, reason=reason)
    with transaction.atomic():
        player = _lock_player(player_id)
        if player.suspended_at is None:
            raise OpsConflict("not_suspended")
        details = {"suspended_at": player.suspended_at.isoformat(), "suspension_reason": player.suspension_reason}
        player.suspended_at = None
        player.suspension_reason = ""
        player.is_active = True
        player.save(update_fields=["suspended_at", "suspension_reason", "is_active"])
        staff_action_record(
            staff=staff, action=StaffActionKind.UNSUSPEND, reason=reason, player=player, details=details
        )
        return player


# ---------------------------------------------------------------- held time-outs


def _batch_details(batch: TimeoutBatch) -> dict:
    return {
        "batch": batch.pk,
        "games": sorted(batch.holds.values_list("game_id", flat=True)),
        "games_changed": batch.games_changed,
    }


def timeout_batch_confirm(*, batch_id: int, staff: User, reason: str) -> TimeoutBatch:
    """Time out the games a sweep held (games.outages.timeout_batch_games_time_out) and log it."""
    with transaction.atomic():
        batch = outages.timeout_batch_games_time_out(batch_id=batch_id, staff=staff, reason=reason)
        staff_action_record(
            staff=staff,
            action=StaffActionKind.TIMEOUTS_CONFIRMED,
            reason=batch.reason,
            target=batch,
            details=_batch_details(batch),
        )
        return batch


def timeout_batch_extend(*, batch_id: int, staff: User, reason: str) -> TimeoutBatch:
    """Extend the games a sweep held as after an outage (games.outages.timeout_batch_clocks_extend)
    and log it."""
    with transaction.atomic():
        batch = outages.timeout_batch_clocks_extend(batch_id=batch_id, staff=staff, reason=reason)
        staff_action_record(
            staff=staff,
            action=StaffActionKind.TIMEOUTS_EXTENDED,
            reason=batch.reason,
            target=batch,
            details=_batch_details(batch),
        )
        return batch
