"""Reads of post-game analysis: who may ask, what a viewer sees.

A game's page and record are public, so its analysis is too, once the game is over: any
visitor reads it (page and API), only its seated players ask for it. Nothing is shown
while a game runs, not even an analysis made before staff let it run again.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings

from engine.bots import bot_version
from games.errors import NotFound
from games.models import Game, GameStatus, Seat

from .errors import AnalysisConflict, AnalysisNotFound
from .models import AnalysisStatus, GameAnalysis


def is_player(*, game: Game, user: Any) -> bool:
    """Whether ``user`` is seated in ``game`` (bots are no users)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if "seats" in getattr(game, "_prefetched_objects_cache", {}):
        return any(seat.user_id == user.pk for seat in game.seats.all())
    return Seat.objects.filter(game=game, user_id=user.pk).exists()


@dataclass(frozen=True)
class AnalysisShown:
    """What the game page shows of the analysis to one viewer."""

    analysis: GameAnalysis | None
    can_request: bool
    """The viewer is a player and the analysis is missing, failed or out of date."""
    current: bool
    """The analysis matches the game and today's bot."""


def analysis_for_viewer(*, game: Game, user: Any) -> AnalysisShown | None:
    """For the game page: None while the game runs (or before any move, or when its seed was never
    revealed), else the analysis if any."""
    if game.status == GameStatus.ACTIVE or game.ply == 0 or not game.revealed_seed:
        return None
    row = GameAnalysis.objects.filter(game=game).first()
    current = row is not None and row.matches(
        game=game, level=int(settings.ANALYSIS_BOT_LEVEL), version=bot_version(game.kind)
    )
    if row is not None and row.game_ply != game.ply:
        row = None  # the analysis of fewer moves than the game has: not this game's any more
    failed = row is not None and row.status == AnalysisStatus.FAILED
    return AnalysisShown(
        analysis=row,
        can_request=is_player(game=game, user=user) and (not current or failed),
        current=current,
    )


def analysis_for_api(*, game_id: int) -> GameAnalysis:
    """The analysis of a game that is over (404 unknown game or none yet, 409 while it runs)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise NotFound("game_not_found", game=game_id)
    if game.status == GameStatus.ACTIVE:
        raise AnalysisConflict("analysis_game_running")
    row = GameAnalysis.objects.filter(game=game, game_ply=game.ply).first()
    if row is None:
        raise AnalysisNotFound("analysis_not_found")
    return row


def analyses_lost(*, before: datetime) -> list[int]:
    """The analyses queued or running since before ``before`` (their task was lost)."""
    return list(
        GameAnalysis.objects.filter(
            status__in=(AnalysisStatus.PENDING, AnalysisStatus.RUNNING), requested_at__lt=before
        )
        .exclude(status=AnalysisStatus.RUNNING, started_at__gte=before)
        .order_by("requested_at")
        .values_list("pk", flat=True)[:500]
    )
