"""What fairplay holds about a user (registered in maatasite.personal_data): the reports
they made, exported; nothing is erased. Reports stay for staff (shown as written by a
deleted player); staff's analysis of finished games belongs to the review of fair play,
like the audit log, and describes games that stay."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from maatasite.personal_data import ExportSection, PersonalData, registry, timestamp

from .models import Report

if TYPE_CHECKING:
    from accounts.models import User


def _reports(user: User) -> list[dict[str, Any]]:
    reports = Report.objects.filter(reporter=user).select_related("player").order_by("created_at", "pk")
    return [
        {
            "id": r.pk,
            "kind": r.kind,
            "reason": r.reason,
            "status": r.status,
            "player": r.player.public_name if r.player is not None else None,
            "game": r.game_id,
            "reported_at": timestamp(r.created_at),
        }
        for r in reports
    ]


def register() -> None:
    registry.register(
        PersonalData(
            app="fairplay",
            models={
                "fairplay.Report": "exported (the reports made); kept for staff",
                "fairplay.GameAgreement": "kept: a cache computed from games that stay",
                "fairplay.FairPlayCheck": "kept: staff's check (as player or requesting staff member)",
                "fairplay.FairPlayCheckGame": "kept: a game of a staff check",
            },
            export=(ExportSection(key="reports", position=50, build=_reports),),
        )
    )
