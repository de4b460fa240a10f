"""Writing ratings: one service, called when a rated game between two people ends.

Exactly once per game: the change rows are unique per (game, player) and the
service returns early when they exist; the caller (the game_finished receiver)
runs in the transaction that finishes the game, under the game's row lock, and
the two players' Rating rows are locked in primary-key order, so two games of
one player ending at the same moment are applied one after the other.
"""
from __future__ import annotations

import math
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from games.models import Game, GameStatus

from . import conf
from .glicko2 import Glicko, Result, idle, rate
from .models import Rating, RatingChange


def idle_periods(last_played_at: datetime | None, now: datetime) -> int:
    """How many empty rating periods lie between a player's last rated game and ``now``."""
    if last_played_at is None or now <= last_played_at:
        return 0
    return math.floor((now - last_played_at).total_seconds() / (conf.INACTIVITY_PERIOD_DAYS * 86400))


def glicko_now(rating: Rating, now: datetime) -> Glicko:
    """The player's Glicko rating at ``now``, the deviation grown for inactivity."""
    return idle(Glicko(rating.rating, rating.deviation, rating.volatility),
                periods=idle_periods(rating.last_played_at, now), max_deviation=conf.MAX_DEVIATION)


def _is_rateable(game: Game) -> bool:
    if not game.rated or game.status != GameStatus.FINISHED or game.bot_level is not None:
        return False
    seats = list(game.seats.all())
    return len(seats) == 2 and all(s.user_id is not None for s in seats) \
        and seats[0].user_id != seats[1].user_id


def rating_record_result(*, game: Game) -> list[RatingChange]:
    """Update both players' ratings for a finished rated game; a second call changes nothing.

    Each result is its own rating period (see ratings.conf). Returns the new
    change rows (empty when the game is not rated or was already counted).
    """
    if not _is_rateable(game):
        return []
    with transaction.atomic():
        if RatingChange.objects.filter(game=game).exists():
            return []
        seats = list(game.seats.all())
        now = game.finished_at or timezone.now()
        for user_id in sorted(s.user_id for s in seats):  # one order everywhere: no deadlock
            Rating.objects.get_or_create(user_id=user_id, kind=game.kind)
        locked = {r.user_id: r for r in Rating.objects.select_for_update().filter(
            kind=game.kind, user_id__in=[s.user_id for s in seats]).order_by("pk")}
        before = {user_id: glicko_now(r, now) for user_id, r in locked.items()}
        changes = []
        for seat, other in (seats, seats[::-1]):
            score = 0.5 if not game.winner_side else (1.0 if game.winner_side == seat.side else 0.0)
            mine, theirs = before[seat.user_id], before[other.user_id]
            after = rate(mine, [Result(theirs.rating, theirs.deviation, score)], tau=conf.TAU)
            row = locked[seat.user_id]
            changes.append(RatingChange(
                user_id=seat.user_id, opponent_id=other.user_id, game=game, kind=game.kind,
                score=score, rating_before=row.rating, rating_after=after.rating,
                deviation_before=mine.deviation, deviation_after=after.deviation,
                volatility_after=after.volatility, opponent_rating=theirs.rating, created_at=now))
            row.rating, row.deviation, row.volatility = after.rating, after.deviation, after.volatility
            row.games_played += 1
            row.last_played_at = now
            row.save(update_fields=["rating", "deviation", "volatility", "games_played",
                                    "last_played_at"])
        RatingChange.objects.bulk_create(changes)
        return changes
