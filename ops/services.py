"""Writes of the ops app: task heartbeats, player reports (with staff review), staff
adjudication of games and players, staff decisions on held time-outs, and the one
audit log of every staff decision (``StaffAction``).

Every staff service here takes the ``staff`` member and the ``reason``
(required) and writes exactly one audit row in the transaction of the action;
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

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from accounts import services as account_services
from games import adjudication, outages
from games import services as game_services
from games.errors import NotFound
from games.models import Game, TimeoutBatch
from ladder import services as ladder_services
from tournaments import services as tournament_services

from .errors import OpsConflict, OpsInvalid, OpsNotAllowed, OpsNotFound
from .models import Heartbeat, Report, ReportKind, ReportStatus, StaffAction, StaffActionKind

if TYPE_CHECKING:
    from accounts.models import User

REASON_MAX_LENGTH = 2000


def heartbeat_record(*, name: str, now: datetime | None = None) -> Heartbeat:
    """Note that the task ``name`` just ran on a worker (the health check reads it)."""
    heartbeat, _created = Heartbeat.objects.update_or_create(
        name=name, defaults={"seen_at": now or timezone.now()})
    return heartbeat


def report_create(*, reporter: User, kind: str, reason: str, player: User | None = None,
                  game_id: int | None = None, now: datetime | None = None) -> Report:
    """Report a player or a game to staff; one report per reporter and target a day."""
    if kind not in ReportKind.values:
        raise OpsInvalid("report_bad_kind")
    reason = (reason or "").strip()
    if not reason:
        raise OpsInvalid("report_no_reason")
    if len(reason) > REASON_MAX_LENGTH:
        raise OpsInvalid("report_reason_too_long", limit=REASON_MAX_LENGTH)
    if (player is None) == (game_id is None):
        raise OpsInvalid("report_bad_target")
    game = None
    if game_id is not None:
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            raise NotFound("game_not_found")
    elif player is not None and player.pk == reporter.pk:
        raise OpsInvalid("report_self")
    now = now or timezone.now()
    with transaction.atomic():
        # Serialize one reporter's reports so two simultaneous ones cannot both pass the check.
        get_user_model().objects.select_for_update().filter(pk=reporter.pk).first()
        earlier = Report.objects.filter(reporter=reporter, created_at__gt=now - timedelta(days=1))
        if earlier.filter(player=player, game=game).exists():
            raise OpsConflict("report_repeated")
        return Report.objects.create(reporter=reporter, player=player, game=game, kind=kind,
                                     reason=reason, created_at=now)


REVIEW_ACTIONS: dict[str, StaffActionKind] = {ReportStatus.REVIEWED: StaffActionKind.REPORT_REVIEWED,
                                              ReportStatus.DISMISSED: StaffActionKind.REPORT_DISMISSED}


def report_review(*, report_id: int, staff: User, status: str, reason: str) -> Report:
    """Staff mark a report reviewed or dismissed, saying why; the audit log records it."""
    if not staff.is_staff:
        raise OpsNotAllowed("not_staff")
    if status not in REVIEW_ACTIONS:
        raise OpsInvalid("report_bad_status")
    reason = adjudication.adjudication_check(staff=staff, reason=reason)
    with transaction.atomic():
        report = Report.objects.select_for_update().filter(pk=report_id).first()
        if report is None:
            raise OpsNotFound("report_not_found")
        report.status = status
        report.save(update_fields=["status"])
        staff_action_record(staff=staff, action=REVIEW_ACTIONS[status], reason=reason,
                            report=report, player=report.player, game=report.game)
        return report


# ---------------------------------------------------------------- staff adjudication

def staff_action_record(*, staff: User, action: str, reason: str, game: Game | None = None,
                        player: User | None = None, report: Report | None = None,
                        details: dict | None = None) -> StaffAction:
    """The audit writer: one row per staff action (who, when, why, on what)."""
    return StaffAction.objects.create(staff=staff, action=action, reason=reason, game=game,
                                      player=player, report=report, details=details or {})


def _result_details(done: adjudication.Adjudication) -> dict:
    game = done.game
    previous: dict[str, Any] = dict(done.previous) if done.previous is not None else {"status": "active"}
    if previous.get("finished_at") is not None:
        previous["finished_at"] = previous["finished_at"].isoformat()
    return {"previous": previous, "result": {
        "status": game.status, "winner": game.winner_side or None, "reason": game.result_reason}}


def game_void(*, game_id: int, staff: User, reason: str) -> Game:
    """Void an ended game (games.adjudication.game_result_void) and log it."""
    with transaction.atomic():
        done = adjudication.game_result_void(game_id=game_id, staff=staff, reason=reason)
        staff_action_record(staff=staff, action=StaffActionKind.VOID, reason=reason.strip(),
                            game=done.game, details=_result_details(done))
        return done.game


def game_award(*, game_id: int, staff: User, reason: str, winner_side: str) -> Game:
    """Award a game to ``winner_side`` ("" for a draw) and log it."""
    with transaction.atomic():
        done = adjudication.game_result_award(game_id=game_id, staff=staff, reason=reason,
                                              winner_side=winner_side)
        staff_action_record(staff=staff, action=StaffActionKind.AWARD, reason=reason.strip(),
                            game=done.game, details=_result_details(done))
        return done.game


def game_timeout_reverse(*, game_id: int, staff: User, reason: str) -> Game:
    """Let a game that ended on time run again (e.g. after an outage) and log it."""
    with transaction.atomic():
        done = adjudication.game_result_timeout_reverse(game_id=game_id, staff=staff, reason=reason)
        staff_action_record(staff=staff, action=StaffActionKind.TIMEOUT_REVERSE,
                            reason=reason.strip(), game=done.game, details=_result_details(done))
        return done.game


def game_bot_release(*, game_id: int, staff: User, reason: str) -> Game:
    """Let the bot of a game flagged for failing play again (games.services.bot_turn_unflag)
    and log it."""
    reason = adjudication.adjudication_check(staff=staff, reason=reason)
    with transaction.atomic():
        failure = (Game.objects.select_for_update().filter(pk=game_id)
                   .values_list("bot_failure", flat=True).first())
        game = game_services.bot_turn_unflag(game_id=game_id)
        staff_action_record(staff=staff, action=StaffActionKind.BOT_RELEASE, reason=reason,
                            game=game, details={"failure": failure})
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
    return {"ladders_left": ladder_services.user_ladders_leave(user=user),
            "tournaments_left": tournament_services.user_tournaments_leave(user=user, actor=actor)}


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
        staff_action_record(staff=staff, action=StaffActionKind.SUSPEND, reason=reason,
                            player=player, details={
                                "forfeited": done.forfeited, "aborted": done.aborted,
                                "challenges_cancelled": done.challenges_cancelled,
                                "challenges_declined": done.challenges_declined, **left,
                                "tokens_revoked": tokens, "sessions_ended": sessions})
        return player


def player_unsuspend(*, player_id: int, staff: User, reason: str) -> User:
    """Lift a suspension: the player may log in again. Logged."""
    reason = adjudication.adjudication_check(staff=staff, reason=reason)
    with transaction.atomic():
        player = _lock_player(player_id)
        if player.suspended_at is None:
            raise OpsConflict("not_suspended")
        details = {"suspended_at": player.suspended_at.isoformat(),
                   "suspension_reason": player.suspension_reason}
        player.suspended_at = None
        player.suspension_reason = ""
        player.is_active = True
        player.save(update_fields=["suspended_at", "suspension_reason", "is_active"])
        staff_action_record(staff=staff, action=StaffActionKind.UNSUSPEND, reason=reason,
                            player=player, details=details)
        return player


# ---------------------------------------------------------------- held time-outs

def _batch_details(batch: TimeoutBatch) -> dict:
    return {"batch": batch.pk, "games": sorted(batch.holds.values_list("game_id", flat=True)),
            "games_changed": batch.games_changed}


def timeout_batch_confirm(*, batch_id: int, staff: User, reason: str) -> TimeoutBatch:
    """Time out the games a sweep held (games.outages.timeout_batch_games_time_out) and log it."""
    with transaction.atomic():
        batch = outages.timeout_batch_games_time_out(batch_id=batch_id, staff=staff, reason=reason)
        staff_action_record(staff=staff, action=StaffActionKind.TIMEOUTS_CONFIRMED,
                            reason=batch.reason, details=_batch_details(batch))
        return batch


def timeout_batch_extend(*, batch_id: int, staff: User, reason: str) -> TimeoutBatch:
    """Extend the games a sweep held as after an outage (games.outages.timeout_batch_clocks_extend)
    and log it."""
    with transaction.atomic():
        batch = outages.timeout_batch_clocks_extend(batch_id=batch_id, staff=staff, reason=reason)
        staff_action_record(staff=staff, action=StaffActionKind.TIMEOUTS_EXTENDED,
                            reason=batch.reason, details=_batch_details(batch))
        return batch
