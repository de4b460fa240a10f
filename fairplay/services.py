"""Writes of the fair-play app: players report games and players, staff review the
reports; staff request a check, a task computes it.

A check measures how often a player chose the strongest bot's first choice over their
recent finished rated games of one kind, beside the pooled figure of honest players
of similar rating. It is a signal for staff to look closer, never proof: no service
here (or anywhere) acts on a player because of it.

The bot is slow on purpose (level 5 thinks about 2 seconds a decision), so the work
runs in a Celery task, outside any transaction, and each (game, side, bot level)
figure is cached in GameAgreement for later checks.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DatabaseError, transaction
from django.utils import timezone

from accounts.audit import staff_action_record
from accounts.models import StaffActionKind
from engine.bots import bot_version
from engine.errors import EngineError
from games.adjudication import adjudication_check
from games.errors import InvalidInput, NotFound
from games.models import Game, GameKind

from . import selectors, tasks
from .agreement import replay_agreement
from .errors import FairPlayConflict, FairPlayInvalid, FairPlayNotAllowed, FairPlayNotFound
from .models import (
    CheckStatus,
    FairPlayCheck,
    FairPlayCheckGame,
    GameAgreement,
    Report,
    ReportKind,
    ReportStatus,
)

if TYPE_CHECKING:
    from accounts.models import User

log = logging.getLogger(__name__)

REASON_MAX_LENGTH = 2000


# ---------------------------------------------------------------- reports


def report_create(
    *,
    reporter: User,
    kind: str,
    reason: str,
    player: User | None = None,
    game_id: int | None = None,
    now: datetime | None = None,
) -> Report:
    """Report a player or a game to staff; one report per reporter and target a day."""
    if kind not in ReportKind.values:
        raise FairPlayInvalid("report_bad_kind")
    reason = (reason or "").strip()
    if not reason:
        raise FairPlayInvalid("report_no_reason")
    if len(reason) > REASON_MAX_LENGTH:
        raise FairPlayInvalid("report_reason_too_long", limit=REASON_MAX_LENGTH)
    if (player is None) == (game_id is None):
        raise FairPlayInvalid("report_bad_target")
    game = None
    if game_id is not None:
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            raise NotFound("game_not_found")
    elif player is not None and player.pk == reporter.pk:
        raise FairPlayInvalid("report_self")
    now = now or timezone.now()
    with transaction.atomic():
        # Serialize one reporter's reports so two simultaneous ones cannot both pass the check.
        get_user_model().objects.select_for_update().filter(pk=reporter.pk).first()
        earlier = Report.objects.filter(reporter=reporter, created_at__gt=now - timedelta(days=1))
        if earlier.filter(player=player, game=game).exists():
            raise FairPlayConflict("report_repeated")
        return Report.objects.create(
            reporter=reporter, player=player, game=game, kind=kind, reason=reason, created_at=now
        )


REVIEW_ACTIONS: dict[str, StaffActionKind] = {
    ReportStatus.REVIEWED: StaffActionKind.REPORT_REVIEWED,
    ReportStatus.DISMISSED: StaffActionKind.REPORT_DISMISSED,
}


def report_review(*, report_id: int, staff: User, status: str, reason: str) -> Report:
    """Staff mark a report reviewed or dismissed, saying why; the audit log records it."""
    if not staff.is_staff:
        raise FairPlayNotAllowed("not_staff")
    if status not in REVIEW_ACTIONS:
        raise FairPlayInvalid("report_bad_status")
    reason = adjudication_check(staff=staff, reason=reason)
    with transaction.atomic():
        report = Report.objects.select_for_update().filter(pk=report_id).first()
        if report is None:
            raise FairPlayNotFound("report_not_found")
        report.status = status
        report.save(update_fields=["status"])
        staff_action_record(
            staff=staff, action=REVIEW_ACTIONS[status], reason=reason, target=report, player=report.player
        )
        return report


# ---------------------------------------------------------------- fair-play checks


def fairplay_check_request(
    *, staff: User, player: User, kind: str, reason: str, games: int | None = None
) -> FairPlayCheck:
    """Staff ask, saying why, for a check of ``player``'s last ``games`` rated games of
    ``kind`` (``FAIRPLAY_DEFAULT_GAMES`` when not given); the staff audit log records the
    request, and the task that computes it is enqueued once the row is committed."""
    if not getattr(staff, "is_staff", False):
        raise FairPlayNotAllowed("fairplay_not_staff")
    reason = adjudication_check(staff=staff, reason=reason)
    if kind not in GameKind.values:
        raise InvalidInput("unknown_game", game=kind)
    games = settings.FAIRPLAY_DEFAULT_GAMES if games is None else games
    most = settings.FAIRPLAY_MAX_GAMES
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= most:
        raise FairPlayInvalid("fairplay_bad_games", "Choose from 1 to %d recent games." % most, limit=most)
    with transaction.atomic():
        check = FairPlayCheck.objects.create(
            player=player,
            kind=kind,
            games_limit=games,
            bot_level=settings.FAIRPLAY_BOT_LEVEL,
            bot_version=bot_version(kind),
            requested_by=staff,
        )
        staff_action_record(
            staff=staff,
            action=StaffActionKind.FAIRPLAY_CHECK,
            reason=reason,
            target=check,
            player=player,
            details={"check": check.pk, "kind": kind, "bot_version": check.bot_version},
        )
        tasks.fairplay_check_run.delay_on_commit(check.pk)
    log.info("fairplay check=%s of player=%s kind=%s requested by staff=%s", check.pk, player.pk, kind, staff.pk)
    return check


def fairplay_checks_requeue(*, now: datetime | None = None) -> int:
    """Enqueue again every check left queued or running for longer than the task's hard time
    limit (``FAIRPLAY_CHECK_HARD_SECONDS``): its task was lost with a killed worker, and the
    broker would hand it out again only after CELERY_VISIBILITY_TIMEOUT. Harmless twice or
    beside a late redelivery: a run of a finished check changes nothing, and the games a lost
    run measured are cached. Returns how many were enqueued."""
    now = now or timezone.now()
    lost = selectors.checks_lost(before=now - timedelta(seconds=settings.FAIRPLAY_CHECK_HARD_SECONDS))
    for check_id in lost:
        log.warning("fairplay check=%s left undone: enqueued again", check_id)
        tasks.fairplay_check_run.delay_on_commit(check_id)
    return len(lost)


def game_agreement_compute(*, game: Game, user: Any, level: int) -> GameAgreement:
    """The agreement of ``user``'s side of a finished game with the bot of ``level``:
    the cached row when it was computed by today's version of the bot with today's
    settings and the same moves, else computed now. The bot thinks with its level's
    budget only (no time cap), so a figure is the same wherever it is computed."""
    side = selectors.side_of(game=game, user=user)
    version = bot_version(game.kind)
    skip_opening = int(settings.FAIRPLAY_SKIP_OPENING)
    cached = GameAgreement.objects.filter(game=game, side=side, bot_level=level, bot_version=version).first()
    if cached is not None and (cached.skip_opening, cached.game_ply) == (skip_opening, game.ply):
        return cached
    result = replay_agreement(
        game_id=game.pk,
        kind=game.kind,
        seed=int(game.revealed_seed),
        options=game.options,
        data_version=game.data_version,
        moves=selectors.game_moves(game=game),
        side=side,
        level=level,
        skip_opening=skip_opening,
    )
    row, _created = GameAgreement.objects.update_or_create(
        game=game,
        side=side,
        bot_level=level,
        bot_version=version,
        defaults={
            "user": user,
            "skip_opening": skip_opening,
            "game_ply": game.ply,
            "decisions": result.decisions,
            "matches": result.matches,
            "computed_at": timezone.now(),
        },
    )
    return row


@dataclass(frozen=True)
class _Row:
    game: Game
    user: Any
    reference: bool
    agreement: GameAgreement


def _reference_games(check: FairPlayCheck) -> list[tuple[Game, Any]]:
    """(game, player) of the reference players: each one's latest games, capped in all."""
    players = selectors.reference_players(
        player=check.player,
        kind=check.kind,
        band=float(settings.FAIRPLAY_RATING_BAND),
        limit=int(settings.FAIRPLAY_REFERENCE_PLAYERS),
    )
    per_player = int(settings.FAIRPLAY_REFERENCE_GAMES)
    cap = int(settings.FAIRPLAY_REFERENCE_MAX_GAMES)
    chosen: list[tuple[Game, Any]] = []
    for user in players:
        for game in selectors.rated_games(user=user, kind=check.kind)[:per_player]:
            if len(chosen) >= cap:
                return chosen
            chosen.append((game, user))
    return chosen


def _measure(check: FairPlayCheck) -> list[_Row]:
    games = [
        (game, check.player, False)
        for game in selectors.rated_games(user=check.player, kind=check.kind)[: check.games_limit]
    ]
    games += [(game, user, True) for game, user in _reference_games(check)]
    return [
        _Row(game, user, reference, game_agreement_compute(game=game, user=user, level=check.bot_level))
        for game, user, reference in games
    ]


def fairplay_check_run(*, check_id: int) -> FairPlayCheck | None:
    """Compute a queued check (the task's body). Idempotent: a check already done or
    failed is returned unchanged, and of two runs of one check only the first to
    finish writes its rows. An engine error (a record that cannot be replayed, a bot
    refusing its input) marks the check failed, with the reason."""
    with transaction.atomic():
        check = FairPlayCheck.objects.select_for_update().filter(pk=check_id).first()
        if check is None or check.status in (CheckStatus.DONE, CheckStatus.FAILED):
            return check
        check.status = CheckStatus.RUNNING
        check.started_at = timezone.now()
        check.player_rating = selectors.current_rating(user=check.player, kind=check.kind)
        check.save(update_fields=["status", "started_at", "player_rating"])
    try:
        rows = _measure(check)
    except EngineError as error:
        log.warning("fairplay check=%s failed: %s", check_id, error)
        return _check_close(check_id, rows=[], error=str(error) or error.code)
    except SoftTimeLimitExceeded:
        log.warning("fairplay check=%s stopped at its time limit", check_id)
        return _check_close(
            check_id,
            rows=[],
            error=(
                "stopped after FAIRPLAY_CHECK_SECONDS (%d s); the games measured so far are kept, "
                "so a new check of the same player goes on from there" % settings.FAIRPLAY_CHECK_SECONDS
            ),
        )
    except DatabaseError:
        raise  # the task retries with backoff
    except Exception as error:  # a fault of ours: say so on the check instead of "running" for ever
        log.exception("fairplay check=%s failed", check_id)
        return _check_close(check_id, rows=[], error="%s: %s" % (type(error).__name__, error))
    return _check_close(check_id, rows=rows, error="")


def _check_close(check_id: int, *, rows: list[_Row], error: str) -> FairPlayCheck:
    with transaction.atomic():
        check = FairPlayCheck.objects.select_for_update().get(pk=check_id)
        if check.status != CheckStatus.RUNNING:
            return check  # another run of the same check finished first
        for row in rows:
            FairPlayCheckGame.objects.update_or_create(
                fairplay_check=check,
                game=row.game,
                player=row.user,
                defaults={
                    "side": row.agreement.side,
                    "reference": row.reference,
                    "rating_before": selectors.rating_before(game=row.game, user=row.user),
                    "decisions": row.agreement.decisions,
                    "matches": row.agreement.matches,
                },
            )
        own = [row.agreement for row in rows if not row.reference]
        reference = [row for row in rows if row.reference]
        check.decisions = sum(a.decisions for a in own)
        check.matches = sum(a.matches for a in own)
        check.reference_players = len({row.user.pk for row in reference})
        check.reference_decisions = sum(row.agreement.decisions for row in reference)
        check.reference_matches = sum(row.agreement.matches for row in reference)
        check.status = CheckStatus.FAILED if error else CheckStatus.DONE
        check.error = error
        check.finished_at = timezone.now()
        check.save()
        return check
