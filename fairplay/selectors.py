"""Reads of the fair-play checks: which games count, and who the honest reference players are."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.db.models.functions import Abs

from accounts.selectors import users_public
from games.models import Game, GameStatus, Move, Seat
from ratings import constants as rating_constants
from ratings.models import Rating, RatingChange

from .models import CheckStatus, FairPlayCheck, FairPlayCheckGame, Report, ReportKind, ReportStatus


def rated_games(*, user: Any, kind: str) -> QuerySet[Game]:
    """The player's finished rated games of ``kind``, latest first (aborted and unrated
    games never count: an unfinished game's seed is still secret)."""
    return (
        Game.objects.filter(kind=kind, rated=True, status=GameStatus.FINISHED, bot_level__isnull=True, seats__user=user)
        .exclude(revealed_seed="")
        .order_by("-finished_at", "-pk")
    )


def side_of(*, game: Game, user: Any) -> str:
    return Seat.objects.get(game=game, user=user).side


def game_moves(*, game: Game) -> list[tuple[int, str, str]]:
    """The game's decisions as (ply, side, move text), in order."""
    return list(Move.objects.filter(game=game).order_by("ply").values_list("ply", "seat__side", "text"))


def rating_before(*, game: Game, user: Any) -> float | None:
    """The player's rating when the game was rated (None if it never was)."""
    return RatingChange.objects.filter(game=game, user=user).values_list("rating_before", flat=True).first()


def current_rating(*, user: Any, kind: str) -> float:
    """The player's current rating in ``kind`` (a new player's when they have none)."""
    rating = Rating.objects.filter(user=user, kind=kind).values_list("rating", flat=True).first()
    return rating if rating is not None else rating_constants.INITIAL_RATING


def reference_players(*, player: Any, kind: str, band: float, limit: int) -> list[Any]:
    """Honest players of similar rating, closest rating first.

    Others whose current rating in ``kind`` is within +-``band`` of the player's, who
    are active, neither suspended nor deleted, have no reviewed report of engine help
    against them, and have at least one finished rated game of ``kind``."""
    rating = current_rating(user=player, kind=kind)
    engine_reviewed = Report.objects.filter(
        player=OuterRef("user"), kind=ReportKind.ENGINE, status=ReportStatus.REVIEWED
    )
    has_games = Game.objects.filter(kind=kind, rated=True, status=GameStatus.FINISHED, seats__user=OuterRef("user"))
    rows = (
        Rating.objects.filter(kind=kind, rating__gte=rating - band, rating__lte=rating + band, user__in=users_public())
        .exclude(user=player)
        .filter(~Exists(engine_reviewed), Exists(has_games))
        .annotate(distance=Abs(F("rating") - rating))
        .order_by("distance", "user_id")
        .values_list("user_id", flat=True)[:limit]
    )
    ids = list(rows)
    users = get_user_model().objects.in_bulk(ids)
    return [users[pk] for pk in ids]


def check_rows(*, check: FairPlayCheck, reference: bool) -> QuerySet[FairPlayCheckGame]:
    """The per-game rows of a check: the player's, or the reference players'."""
    return FairPlayCheckGame.objects.filter(fairplay_check=check, reference=reference).select_related("game", "player")


def checks_lost(*, before: datetime) -> list[int]:
    """Ids of the checks queued or started before ``before`` that are still not done: when
    ``before`` is at least the task's hard time limit ago, no run of them can still be going,
    so their task was lost (its worker killed) or still waits behind other checks."""
    return list(
        FairPlayCheck.objects.filter(
            Q(status=CheckStatus.QUEUED, requested_at__lt=before) | Q(status=CheckStatus.RUNNING, started_at__lt=before)
        )
        .order_by("pk")
        .values_list("pk", flat=True)
    )
