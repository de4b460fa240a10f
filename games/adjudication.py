"""Staff decisions on games: void a result, award a game, reverse a timeout, and end
the running games of a suspended player.

Each service takes the ``staff`` member and the ``reason`` (required) and runs in
one transaction under the game's row lock. The audit row is written by the caller
(ops.services, which wraps these services), in the same transaction: these are the
building blocks, named for what they change (``game_result_void``, ``game_result_award``,
``game_result_timeout_reverse``); the staff actions are ops.services' ``game_void``,
``game_award`` and ``game_timeout_reverse``, the only services of those names.

A game that is running ends through ``games.services.game_finish`` like any game
(``game_finished``). A game that had already ended and gets another result sends
``games.signals.game_result_changed`` with its previous result, so that ratings,
tournaments and ladders rewrite what they had derived from it.

The rules decided here:

* Void: an ended game (finished or aborted) keeps status finished with no winner and
  the reason ``void`` ("Voided by staff"); it counts for nobody. A running game
  cannot be voided (award it, or cancel it first).
* Award: a running game ends with the reason ``adjudicated``; an ended game gets that
  result instead of its own. No winner is a draw.
* Reverse a timeout: a game that ended on time (``timeout``, ``aborted_timeout``) runs
  again, the player to move starting a fresh full turn. Refused for a game kind with
  hidden information once the seed is revealed (the order of Maatatahay's piles and
  bag is then public): staff void such a game instead.
* Suspension: every running game against a person is lost by the suspended player
  (reason ``forfeit``), or aborted when they have not moved in it yet; games against
  bots are aborted; the open challenges they made are cancelled and those made to
  them declined (games.services.user_challenges_close, as for account deletion).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

import engine

from . import services
from .errors import Conflict, InvalidInput, NotAllowed
from .models import Alarm, Game, GameStatus, Move, ResultReason
from .rules import game_secret, rules_for, side_other
from .signals import game_result_changed

if TYPE_CHECKING:
    from accounts.models import User

log = logging.getLogger(__name__)

REASON_VOID = ResultReason.VOID
REASON_ADJUDICATED = ResultReason.ADJUDICATED
REASON_FORFEIT = ResultReason.FORFEIT
TIMEOUT_REASONS = (services.REASON_TIMEOUT, services.REASON_ABORTED_TIMEOUT)
REASON_MAX_LENGTH = 2000


@dataclass
class Adjudication:
    """A game after a staff decision and the result it had before (None: it was running)."""

    game: Game
    previous: dict[str, Any] | None


@dataclass
class SuspensionResolution:
    """What a suspension did to a player's games and challenges (game ids)."""

    forfeited: list[int] = field(default_factory=list)
    aborted: list[int] = field(default_factory=list)
    challenges_cancelled: int = 0
    challenges_declined: int = 0


def has_hidden_information(kind: str) -> bool:
    """Whether a game kind hides an order from the players (Maatatahay's piles and bag):
    the engine's contract says so (``GameRules.hidden_information``)."""
    return rules_for(kind).hidden_information


def adjudication_check(*, staff: User | None, reason: str) -> str:
    """Refuse anyone but staff and a missing reason; return the reason, trimmed."""
    if staff is None or not getattr(staff, "is_staff", False):
        raise NotAllowed("not_staff")
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput("reason_required")
    if len(reason) > REASON_MAX_LENGTH:
        raise InvalidInput("reason_too_long", limit=REASON_MAX_LENGTH)
    return reason


def game_result(game: Game) -> dict[str, Any]:
    """A game's result as ``game_result_changed`` hands it on (``previous``)."""
    return {
        "status": game.status,
        "winner": game.winner_side or None,
        "reason": game.result_reason,
        "scores": game.scores,
        "rated": game.rated,
        "finished_at": game.finished_at,
    }


def _require_over(game: Game) -> None:
    if game.status == GameStatus.ACTIVE:
        raise Conflict("game_running")


def _changed(game: Game, previous: dict[str, Any], *, staff: User, action: str, reason: str) -> Adjudication:
    log.info(
        "game=%s %s by staff=%s (was %s/%s): %s",
        game.pk,
        action,
        staff.pk,
        previous["status"],
        previous["reason"],
        reason,
    )
    game_result_changed.send(sender=Game, game=game, previous=previous)
    return Adjudication(game=game, previous=previous)


def game_result_void(*, game_id: int, staff: User, reason: str) -> Adjudication:
    """Void an ended game: no winner, no rating change, no points (see the module rules)."""
    reason = adjudication_check(staff=staff, reason=reason)
    with transaction.atomic():
        game = services.game_lock(game_id=game_id)
        _require_over(game)
        if game.result_reason == REASON_VOID:
            raise Conflict("already_void")
        previous = game_result(game)
        game.status = GameStatus.FINISHED
        game.winner_side = ""
        game.result_reason = REASON_VOID
        game.save(update_fields=["status", "winner_side", "result_reason"])
        return _changed(game, previous, staff=staff, action="voided", reason=reason)


def game_result_award(*, game_id: int, staff: User, reason: str, winner_side: str) -> Adjudication:
    """Give the game to ``winner_side`` ("" for a draw), reason ``adjudicated``: a
    running game ends normally, an ended game gets this result instead of its own."""
    reason = adjudication_check(staff=staff, reason=reason)
    with transaction.atomic():
        game = services.game_lock(game_id=game_id)
        winner_side = winner_side or ""
        if winner_side and winner_side not in rules_for(game.kind).players:
            raise InvalidInput("bad_winner", side=winner_side)
        if game.status == GameStatus.ACTIVE:
            services.game_state_terminate(game=game, reason=REASON_ADJUDICATED, winner=winner_side or None)
            services.game_finish(
                game, status=GameStatus.FINISHED, winner_side=winner_side, reason=REASON_ADJUDICATED, scores=None
            )
            log.info("game=%s awarded to %r by staff=%s: %s", game.pk, winner_side, staff.pk, reason)
            return Adjudication(game=game, previous=None)
        previous = game_result(game)
        game.status = GameStatus.FINISHED
        game.winner_side = winner_side
        game.result_reason = REASON_ADJUDICATED
        game.save(update_fields=["status", "winner_side", "result_reason"])
        return _changed(game, previous, staff=staff, action="awarded to %r" % winner_side, reason=reason)


def game_result_timeout_reverse(*, game_id: int, staff: User, reason: str, now: datetime | None = None) -> Adjudication:
    """Undo a loss (or abort) on time, e.g. after an outage: the game runs again and the
    player to move starts a fresh full turn. The engine state is rebuilt by playing
    the recorded moves again from the sealed seed, and the seed is sealed again."""
    reason = adjudication_check(staff=staff, reason=reason)
    now = now or timezone.now()
    with transaction.atomic():
        game = services.game_lock(game_id=game_id)
        _require_over(game)
        if game.result_reason not in TIMEOUT_REASONS:
            raise Conflict("not_a_timeout")
        if has_hidden_information(game.kind) and game.revealed_seed:
            raise Conflict("hidden_information")
        rules = rules_for(game.kind)
        _salt, seed = game_secret(game)
        moves = list(Move.objects.filter(game=game).order_by("ply").values_list("text", flat=True))
        try:
            state = engine.replay(rules, seed, game.options, moves, data_version=game.data_version or None)
        except engine.ReplayError as error:
            raise Conflict("replay_failed") from error
        if rules.to_move(state) is None:
            raise Conflict("replay_failed")
        previous = game_result(game)
        game.status = GameStatus.ACTIVE
        services.game_state_keep(game=game, state=state)
        game.winner_side = ""
        game.result_reason = ""
        game.scores = None
        game.finished_at = None
        game.revealed_salt = ""
        game.revealed_seed = ""
        Alarm.objects.filter(game=game, kind=Alarm.Kind.GAME_OVER, sent_at__isnull=True).delete()
        services.game_turn_update(game=game, state=state, now=now, first=True)
        game.save()
        return _changed(game, previous, staff=staff, action="timeout reversed", reason=reason)


def player_games_resolve(*, user: User, staff: User, reason: str, now: datetime | None = None) -> SuspensionResolution:
    """End the running games and cancel the open challenges of a suspended player,
    by the rule in the module docstring."""
    reason = adjudication_check(staff=staff, reason=reason)
    now = now or timezone.now()
    done = SuspensionResolution()
    with transaction.atomic():
        game_ids = list(
            Game.objects.filter(status=GameStatus.ACTIVE, seats__user=user).order_by("pk").values_list("pk", flat=True)
        )
        for game_id in game_ids:
            game = services.game_lock(game_id=game_id)
            if game.status != GameStatus.ACTIVE:
                continue
            seat = game.seats.get(user=user)
            moved = seat.side in game.sides_moved()
            if game.bot_level is not None or not moved:
                services.game_finish(
                    game,
                    status=GameStatus.ABORTED,
                    winner_side="",
                    reason=services.REASON_ABORTED,
                    scores=None,
                    now=now,
                )
                done.aborted.append(game.pk)
                continue
            winner = side_other(kind=game.kind, side=seat.side)
            services.game_state_terminate(game=game, reason=REASON_FORFEIT, winner=winner)
            services.game_finish(
                game, status=GameStatus.FINISHED, winner_side=winner, reason=REASON_FORFEIT, scores=None, now=now
            )
            done.forfeited.append(game.pk)
        closed = services.user_challenges_close(user=user, now=now)
        done.challenges_cancelled, done.challenges_declined = closed.cancelled, closed.declined
    log.info(
        "suspended user=%s by staff=%s: %d forfeited, %d aborted, %d challenges cancelled, %d declined: %s",
        user.pk,
        staff.pk,
        len(done.forfeited),
        len(done.aborted),
        done.challenges_cancelled,
        done.challenges_declined,
        reason,
    )
    return done
