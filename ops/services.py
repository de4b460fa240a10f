"""Writes of the ops app: task heartbeats and player reports (with staff review)."""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from games.errors import NotFound
from games.models import Game

from .errors import OpsConflict, OpsInvalid, OpsNotAllowed, OpsNotFound
from .models import Heartbeat, Report, ReportAction, ReportKind, ReportStatus

if TYPE_CHECKING:
    from accounts.models import User

REASON_MAX_LENGTH = 2000


def heartbeat_record(*, name: str, now: datetime | None = None) -> Heartbeat:
    """Note that the task ``name`` just ran on a worker (the health check reads it)."""
    heartbeat, _created = Heartbeat.objects.update_or_create(
        name=name, defaults={"seen_at": now or timezone.now()})
    return heartbeat


def report_create(*, reporter: "User", kind: str, reason: str, player: "User | None" = None,
                  game_id: int | None = None, now: datetime | None = None) -> Report:
    """Report a player or a game to staff; one report per reporter and target a day."""
    if kind not in ReportKind.values:
        raise OpsInvalid("report_bad_kind", "Choose abuse, engine, stalling or other.")
    reason = (reason or "").strip()
    if not reason:
        raise OpsInvalid("report_no_reason", "Say why you report this.")
    if len(reason) > REASON_MAX_LENGTH:
        raise OpsInvalid("report_reason_too_long", "The reason is too long.", limit=REASON_MAX_LENGTH)
    if (player is None) == (game_id is None):
        raise OpsInvalid("report_bad_target", "Report either a player or a game.")
    game = None
    if game_id is not None:
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            raise NotFound("game_not_found", "This game does not exist.")
    elif player.pk == reporter.pk:
        raise OpsInvalid("report_self", "You cannot report yourself.")
    now = now or timezone.now()
    with transaction.atomic():
        # Serialize one reporter's reports so two simultaneous ones cannot both pass the check.
        get_user_model().objects.select_for_update().filter(pk=reporter.pk).first()
        earlier = Report.objects.filter(reporter=reporter, created_at__gt=now - timedelta(days=1))
        if earlier.filter(player=player, game=game).exists():
            raise OpsConflict("report_repeated", "You have already reported this today.")
        return Report.objects.create(reporter=reporter, player=player, game=game, kind=kind,
                                     reason=reason, created_at=now)


def report_review(*, report_id: int, staff: "User", status: str, note: str = "") -> Report:
    """Staff mark a report reviewed or dismissed; the audit log records who, when and why."""
    if not staff.is_staff:
        raise OpsNotAllowed("not_staff", "Only staff review reports.")
    if status not in (ReportStatus.REVIEWED, ReportStatus.DISMISSED):
        raise OpsInvalid("report_bad_status", "Mark a report reviewed or dismissed.")
    with transaction.atomic():
        report = Report.objects.select_for_update().filter(pk=report_id).first()
        if report is None:
            raise OpsNotFound("report_not_found", "This report does not exist.")
        report.status = status
        report.save(update_fields=["status"])
        ReportAction.objects.create(report=report, staff=staff, status=status, note=note.strip())
        return report
