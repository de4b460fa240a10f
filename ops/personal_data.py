"""What ops holds about a user, for the account export (registered in
maatasite.personal_data; privacy runs it): the reports they made. Nothing is erased:
reports stay for staff (shown as written by a deleted player), and so does the audit log."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from maatasite.personal_data import ExportSection, PersonalData, registry, timestamp

from .models import Report

if TYPE_CHECKING:
    from accounts.models import User


def _reports(user: User) -> list[dict[str, Any]]:
    reports = Report.objects.filter(reporter=user).select_related("player").order_by("created_at", "pk")
    return [{"id": r.pk, "kind": r.kind, "reason": r.reason, "status": r.status,
             "player": r.player.public_name if r.player is not None else None, "game": r.game_id,
             "reported_at": timestamp(r.created_at)} for r in reports]


def register() -> None:
    registry.register(PersonalData(
        app="ops",
        models={"ops.Report": "exported (the reports made); kept for staff",
                "ops.StaffAction": "kept: the staff audit log (as staff member or as player)"},
        export=(ExportSection(key="reports", position=50, build=_reports),),
    ))
