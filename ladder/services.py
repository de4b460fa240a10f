"""Everything that changes ladders: joining, leaving, challenging, and a game's result.

Every change of positions happens under the ladder's row lock (``_lock_ladder``),
so changes are applied one at a time, in the order the games end, and positions
stay 1..n without gaps. Lock order: a finishing game holds its game row (and
the players' ratings) before it takes the ladder, so nothing here takes a game
lock while holding the ladder: leaving resigns the player's ladder games only
after the ladder transaction (each resignation then finishes like any game).
"""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from games import rules as game_rules
from games import services as games_services
from games.errors import Conflict
from games.models import Game, GameStatus

from . import constants, selectors, tasks
from .errors import LadderConflict, LadderNotAllowed, LadderNotFound
from .models import ChallengeState, EventKind, Ladder, LadderChallenge, LadderEvent, LadderMember, Outcome

if TYPE_CHECKING:
    from accounts.models import User


log = logging.getLogger(__name__)

REASON_TIMEOUT = games_services.REASON_TIMEOUT
REASON_ABORTED_TIMEOUT = games_services.REASON_ABORTED_TIMEOUT


def _lock_ladder(ladder_id: int) -> Ladder:
    try:
        return Ladder.objects.select_for_update().get(pk=ladder_id)
    except Ladder.DoesNotExist:
        raise LadderNotFound("ladder_not_found") from None


def _member(ladder: Ladder, user_id: int) -> LadderMember | None:
    return (
        LadderMember.objects.select_related("user")
        .filter(ladder=ladder, user_id=user_id, position__isnull=False)
        .first()
    )


def _remove(ladder: Ladder, member: LadderMember, *, kind: str, now: datetime) -> None:
    """Take a member off the ladder; everyone below moves up one place. Ladder locked."""
    old = member.position
    member.position = None
    member.left_at = now
    member.save(update_fields=["position", "left_at"])
    LadderMember.objects.filter(ladder=ladder, position__gt=old).update(position=F("position") - 1)
    LadderEvent.objects.create(ladder=ladder, kind=kind, user_id=member.user_id, position_before=old, created_at=now)


def ladder_departed_games_requeue(*, now: datetime | None = None) -> int:
    """Enqueue again the resignation of the running games of players who left a ladder more
    than ``LADDER_RESIGN_OVERDUE_SECONDS`` ago, through the path that enqueued it (a killed
    worker's task waits in the broker for CELERY_VISIBILITY_TIMEOUT). Safe twice and beside
    a late redelivery: ``ladder_departed_games_resign`` skips games already over and a player
    back on the ladder. Returns how many players' games were enqueued."""
    now = now or timezone.now()
    departed = selectors.departed_players_playing(
        before=now - timedelta(seconds=settings.LADDER_RESIGN_OVERDUE_SECONDS)
    )
    for ladder_id, user_id in departed:
        log.warning("ladder=%s departed player=%s still has running games: enqueued again", ladder_id, user_id)
        tasks.ladder_departed_games_resign.delay_on_commit(ladder_id, user_id)
    return len(departed)


def ladder_join(*, ladder_id: int, user: User, now: datetime | None = None) -> LadderMember:
    """Join a ladder at the bottom (again, after leaving)."""
    now = now or timezone.now()
    with transaction.atomic():
        ladder = _lock_ladder(ladder_id)
        if not ladder.is_open:
            raise LadderConflict("ladder_closed")
        member = LadderMember.objects.filter(ladder=ladder, user=user).first()
        if member is not None and member.is_member:
            raise LadderConflict("already_member")
        bottom = LadderMember.objects.filter(ladder=ladder, position__isnull=False).count() + 1
        if member is None:
            member = LadderMember(ladder=ladder, user=user)
        member.position, member.joined_at, member.left_at = bottom, now, None
        member.save()
        LadderEvent.objects.create(
            ladder=ladder, kind=EventKind.JOINED, user=user, position_after=bottom, created_at=now
        )
        return member


def ladder_leave(*, ladder_id: int, user: User, now: datetime | None = None) -> int:
    """Leave a ladder: those below move up one place, and the player's running ladder
    games are resigned (each after the ladder has changed; a departed player's
    games move nobody). Returns how many games were resigned."""
    now = now or timezone.now()
    with transaction.atomic():
        ladder = _lock_ladder(ladder_id)
        member = _member(ladder, user.pk)
        if member is None:
            raise LadderNotAllowed("not_a_member")
        _remove(ladder, member, kind=EventKind.LEFT, now=now)
    return ladder_departed_games_resign(ladder_id=ladder_id, user_id=user.pk)


def user_ladders_leave(*, user: User) -> list[int]:
    """Take a player who can no longer play (suspended, deleted) off every ladder they are
    on, by :func:`ladder_leave`, in ladder order; returns the ladders left. Call after their
    games are resolved: games are locked before ladder rows."""
    ladders = list(
        LadderMember.objects.filter(user=user, position__isnull=False)
        .order_by("ladder_id")
        .values_list("ladder_id", flat=True)
    )
    for ladder_id in ladders:
        ladder_leave(ladder_id=ladder_id, user=user)
    return ladders


def ladder_departed_games_resign(*, ladder_id: int, user_id: int) -> int:
    """Resign every running game of this ladder of a player who is no longer on it.

    Idempotent: a finished game is skipped, and a player back on the ladder keeps
    their games. Each resignation is its own transaction. Returns how many.
    """
    if LadderMember.objects.filter(ladder_id=ladder_id, user_id=user_id, position__isnull=False).exists():
        return 0
    resigned = 0
    running = LadderChallenge.objects.filter(
        Q(challenger_id=user_id) | Q(defender_id=user_id), ladder_id=ladder_id, state=ChallengeState.PLAYING
    ).select_related("challenger", "defender")
    for challenge in list(running):
        user = challenge.challenger if challenge.challenger_id == user_id else challenge.defender
        try:
            games_services.game_resign(game_id=challenge.game_id, user=user)
        except Conflict:
            continue  # ended meanwhile
        resigned += 1
    return resigned


def ladder_challenge_create(
    *, ladder_id: int, challenger: User, defender: User, now: datetime | None = None
) -> LadderChallenge:
    """Challenge a player above you: accepted at once, a rated game starts (sides at random)."""
    now = now or timezone.now()
    with transaction.atomic():
        ladder = _lock_ladder(ladder_id)
        mine = _member(ladder, challenger.pk)
        theirs = _member(ladder, defender.pk)
        refusal = selectors.challenge_refusal(ladder=ladder, challenger=mine, defender=theirs, now=now)
        if refusal is not None:
            raise refusal
        # challenge_refusal refuses anyone without a position
        assert mine is not None and theirs is not None and mine.position is not None and theirs.position is not None
        rules = game_rules.rules_for(ladder.kind)
        sides = list(rules.players)
        if secrets.randbelow(2):
            sides.reverse()
        game = games_services.game_create(
            kind=ladder.kind,
            seats={sides[0]: challenger, sides[1]: defender},
            days_per_move=ladder.days_per_move,
            rated=True,
            now=now,
        )
        return LadderChallenge.objects.create(
            ladder=ladder,
            challenger=challenger,
            defender=defender,
            game=game,
            challenger_position=mine.position,
            defender_position=theirs.position,
            created_at=now,
        )


def _seat_users(game: Game) -> dict[str, int | None]:
    return {s.side: s.user_id for s in game.seats.all()}


def _timed_out_user(game: Game) -> int | None:
    """The player who ran out of time in ``game``, if it ended on time."""
    seats = _seat_users(game)
    if game.result_reason == REASON_TIMEOUT and game.winner_side:
        return next((u for side, u in seats.items() if side != game.winner_side), None)
    if game.result_reason == REASON_ABORTED_TIMEOUT:
        side = game_rules.rules_for(game.kind).to_move(game_rules.game_state(game))
        return seats.get(side) if side is not None else None
    return None


def _judge(challenge: LadderChallenge, game: Game) -> str:
    """The outcome of a ladder game, before looking at current positions."""
    if game.status != GameStatus.FINISHED:
        return Outcome.ABORTED
    if not game.winner_side:
        return Outcome.DRAWN
    winner = _seat_users(game).get(game.winner_side)
    if winner != challenge.challenger_id:
        return Outcome.DEFENDED
    defender_sides = {side for side, user_id in _seat_users(game).items() if user_id == challenge.defender_id}
    if game.result_reason == REASON_TIMEOUT and not defender_sides & game.sides_moved():
        return Outcome.UNPLAYED
    return Outcome.CLIMBED


def ladder_record_result(*, game: Game, now: datetime | None = None) -> LadderChallenge | None:
    """Apply a finished ladder game to its ladder, exactly once (None: not a ladder game).

    If the challenger won and is still below the defender, the challenger takes
    the defender's place and everyone from there down to the challenger's old
    place moves down one; otherwise nothing moves. A player who has now run out
    of time too often leaves the ladder.
    """
    found = LadderChallenge.objects.filter(game=game).values_list("pk", "ladder_id").first()
    if found is None:
        return None
    now = now or game.finished_at or timezone.now()
    with transaction.atomic():
        ladder = _lock_ladder(found[1])
        challenge = LadderChallenge.objects.select_for_update().get(pk=found[0])
        if challenge.state != ChallengeState.PLAYING:
            return challenge
        outcome = _judge(challenge, game)
        if outcome == Outcome.CLIMBED:
            climber = _member(ladder, challenge.challenger_id)
            target = _member(ladder, challenge.defender_id)
            if (
                climber is None
                or target is None
                or climber.position is None
                or target.position is None
                or climber.position < target.position
            ):
                outcome = Outcome.UNCHANGED
            else:
                old, new = climber.position, target.position
                LadderMember.objects.filter(ladder=ladder, position__gte=new, position__lt=old).update(
                    position=F("position") + 1
                )
                LadderMember.objects.filter(pk=climber.pk).update(position=new)
                LadderEvent.objects.create(
                    ladder=ladder,
                    kind=EventKind.CLIMBED,
                    user_id=challenge.challenger_id,
                    other_id=challenge.defender_id,
                    position_before=old,
                    position_after=new,
                    challenge=challenge,
                    created_at=now,
                )
        challenge.state = ChallengeState.DONE
        challenge.outcome = outcome
        challenge.finished_at = now
        challenge.timed_out_id = _timed_out_user(game)
        challenge.save(update_fields=["state", "outcome", "finished_at", "timed_out"])
        if challenge.timed_out_id is not None:
            slow = _member(ladder, challenge.timed_out_id)
            if (
                slow is not None
                and selectors.timeouts_count(ladder_id=ladder.pk, user=challenge.timed_out_id, now=now)
                >= constants.TIMEOUT_LIMIT
            ):
                _remove(ladder, slow, kind=EventKind.REMOVED, now=now)
                tasks.ladder_departed_games_resign.delay_on_commit(ladder.pk, slow.user_id)
        return challenge


def ladder_result_change_note(*, game: Game, previous: dict) -> LadderChallenge | None:
    """Staff changed the result of an ended ladder game (games.signals.game_result_changed).

    The rule: positions stay as they are (later challenges were played from them);
    the change is only logged, and staff move players by hand if they must. A game
    that runs again after a reversed timeout keeps its challenge done: its new end
    moves nobody."""
    challenge = LadderChallenge.objects.filter(game=game).first()
    if challenge is not None:
        log.info(
            "ladder=%s challenge=%s game=%s result changed by staff from %s/%s to %s/%s; positions unchanged",
            challenge.ladder_id,
            challenge.pk,
            game.pk,
            previous.get("winner"),
            previous.get("reason"),
            game.winner_side or None,
            game.result_reason or game.status,
        )
    return challenge
