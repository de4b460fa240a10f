"""Writes of post-game analysis: a player of a game that is over asks for its analysis, a
task computes it.

The analysis is the strongest bot's evaluation of every position (engine.analysis), each
from the view of the player to move at the time. It is cached per game (one GameAnalysis
row, computed again only when the game or the bot changed), rate-limited per player
(``RATE_LIMITS["analysis"]``, counted with the site's budgets, api/ratelimits.py), and
never made for a running game, rated or not: it would be a bot's advice during play.
"""

from __future__ import annotations

import hashlib
import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import DatabaseError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from api.ratelimits import RateLimited, budget_spend, wait_text
from engine.analysis import analyse_game
from engine.bots import bot_version
from engine.errors import EngineError
from games.errors import NotFound
from games.models import Game, GameStatus, Move

from . import selectors, tasks
from .errors import AnalysisConflict, AnalysisNotAllowed
from .models import AnalysisStatus, GameAnalysis

if TYPE_CHECKING:
    from accounts.models import User

log = logging.getLogger(__name__)

RATE_SCOPE = "analysis"


def analysis_bot_seed(game_id: int) -> int:
    """The bot's fixed seed for the analysis of game ``game_id`` (each position derives its own)."""
    return int.from_bytes(hashlib.sha256(b"analysis/%d" % game_id).digest()[:8], "big") >> 1


def game_analysis_request(*, game_id: int, user: User, now: datetime | None = None) -> tuple[GameAnalysis, bool]:
    """``user``, a player of the game, asks for its analysis: (the row, whether it was queued
    now). The row as it stands when it matches the game and today's bot (done, queued or
    running: nothing is spent), else a new computation, queued once the row is committed,
    which spends one of the player's budget (RateLimited once it is spent)."""
    now = now or timezone.now()
    level = int(settings.ANALYSIS_BOT_LEVEL)
    with transaction.atomic():
        # The game row serializes the requests of one game: both players at once make one row.
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise NotFound("game_not_found", game=game_id)
        if not selectors.is_player(game=game, user=user):
            raise AnalysisNotAllowed("analysis_not_a_player")
        if game.status == GameStatus.ACTIVE:
            raise AnalysisConflict("analysis_game_running")
        if game.ply == 0 or not game.revealed_seed:
            raise AnalysisConflict("analysis_no_moves")
        version = bot_version(game.kind)
        row = GameAnalysis.objects.select_for_update().filter(game=game).first()
        if (
            row is not None
            and row.status != AnalysisStatus.FAILED
            and row.matches(game=game, level=level, version=version)
        ):
            return row, False
        wait = budget_spend(scope=RATE_SCOPE, ident=user.pk, rate=settings.RATE_LIMITS.get(RATE_SCOPE))
        if wait is not None:
            raise RateLimited(
                _("You have asked for several analyses lately. Please try again in %(wait)s.")
                % {"wait": wait_text(wait)},
                wait=wait,
                scope=RATE_SCOPE,
            )
        fields = {
            "status": AnalysisStatus.PENDING,
            "bot_level": level,
            "bot_version": version,
            "game_ply": game.ply,
            "result": None,
            "error": "",
            "requested_at": now,
            "started_at": None,
            "finished_at": None,
        }
        row, _created = GameAnalysis.objects.update_or_create(game=game, defaults=fields)
        tasks.game_analysis_run.delay_on_commit(row.pk)
    log.info("analysis=%s of game=%s requested by user=%s", row.pk, game_id, user.pk)
    return row, True


def game_analysis_run(*, analysis_id: int, now: datetime | None = None) -> GameAnalysis | None:
    """Compute a queued analysis (the task's body). Idempotent: a row done or failed is
    returned unchanged, and so is one that another run started less than the task's hard
    time limit ago; of two runs only the first to finish writes. An engine error, the time
    limit or a game that runs again (staff reversed a time-out) fails it, with the reason."""
    now = now or timezone.now()
    with transaction.atomic():
        row = GameAnalysis.objects.select_for_update().select_related("game").filter(pk=analysis_id).first()
        if row is None or row.status in (AnalysisStatus.DONE, AnalysisStatus.FAILED):
            return row
        lost_before = now - timedelta(seconds=settings.ANALYSIS_TASK_HARD_SECONDS)
        if row.status == AnalysisStatus.RUNNING and row.started_at is not None and row.started_at > lost_before:
            return row  # another run is computing it
        game = row.game
        if game.status == GameStatus.ACTIVE or game.ply < row.game_ply or not game.revealed_seed:
            return _close(row.pk, result=None, error="the game is running again")
        row.status = AnalysisStatus.RUNNING
        row.started_at = now
        row.save(update_fields=["status", "started_at"])
        moves = list(Move.objects.filter(game=game).order_by("ply").values_list("text", flat=True)[: row.game_ply])
        inputs = {
            "seed": int(game.revealed_seed),
            "options": game.options,
            "data_version": game.data_version or None,
            "moves": moves,
            "level": row.bot_level,
            "bot_seed": analysis_bot_seed(game.pk),
        }
        kind = game.kind
    try:
        found = analyse_game(kind, **inputs)
    except EngineError as error:
        log.warning("analysis=%s failed: %s", analysis_id, error)
        return _close(analysis_id, result=None, error=(str(error) or error.code)[:300])
    except SoftTimeLimitExceeded:
        log.warning("analysis=%s stopped at its time limit", analysis_id)
        return _close(
            analysis_id,
            result=None,
            error="stopped after ANALYSIS_TASK_SECONDS (%d s)" % settings.ANALYSIS_TASK_SECONDS,
        )
    except DatabaseError:
        raise  # the task retries with backoff
    except Exception as error:  # a fault of ours: say so on the row instead of "running" for ever
        log.exception("analysis=%s failed", analysis_id)
        return _close(analysis_id, result=None, error=("%s: %s" % (type(error).__name__, error))[:300])
    # The version stored is the one that computed it (a deploy may have come between request and run).
    return _close(analysis_id, result=found.as_dict(), error="")


def _close(analysis_id: int, *, result: dict[str, Any] | None, error: str) -> GameAnalysis:
    with transaction.atomic():
        row = GameAnalysis.objects.select_for_update().get(pk=analysis_id)
        if row.status in (AnalysisStatus.DONE, AnalysisStatus.FAILED):
            return row  # another run of the same analysis finished first
        row.status = AnalysisStatus.FAILED if error else AnalysisStatus.DONE
        row.result = result
        if result is not None:
            row.bot_version = str(result["bot_version"])
        row.error = error
        row.finished_at = timezone.now()
        row.save(update_fields=["status", "result", "bot_version", "error", "finished_at"])
        return row


def game_analyses_requeue(*, now: datetime | None = None) -> int:
    """Enqueue again every analysis left queued or running for longer than the task's hard time
    limit (``ANALYSIS_TASK_HARD_SECONDS``): its task was lost with a killed worker, and the
    broker would hand it out again only after CELERY_VISIBILITY_TIMEOUT. Harmless twice or
    beside a late redelivery (the task is idempotent). Returns how many were enqueued."""
    now = now or timezone.now()
    lost = selectors.analyses_lost(before=now - timedelta(seconds=settings.ANALYSIS_TASK_HARD_SECONDS))
    for analysis_id in lost:
        log.warning("analysis=%s left undone: enqueued again", analysis_id)
        tasks.game_analysis_run.delay_on_commit(analysis_id)
    return len(lost)
