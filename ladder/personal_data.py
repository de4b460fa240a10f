"""What ladder holds about a user, for the account export and erasure (registered in
maatasite.personal_data; privacy runs it): their ladder places; on deletion they leave
every ladder (after their games are resigned). Challenges and events stay: the ladders'
history, showing a deleted player."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from maatasite.personal_data import ErasePhase, EraseStep, ExportSection, PersonalData, registry, timestamp

from .models import LadderMember
from .services import user_ladders_leave

if TYPE_CHECKING:
    from accounts.models import User


def _ladders(user: User) -> list[dict[str, Any]]:
    ladders = LadderMember.objects.filter(user=user).select_related("ladder").order_by("ladder_id")
    return [
        {
            "ladder": m.ladder_id,
            "name": m.ladder.name,
            "kind": m.ladder.kind,
            "position": m.position,
            "joined_at": timestamp(m.joined_at),
            "left_at": timestamp(m.left_at),
        }
        for m in ladders
    ]


def _ladders_leave(user: User, now: datetime) -> None:
    user_ladders_leave(user=user)


def register() -> None:
    registry.register(
        PersonalData(
            app="ladder",
            models={
                "ladder.LadderMember": "exported; every ladder left (the place emptied, the row kept)",
                "ladder.LadderChallenge": "kept: the ladder's history",
                "ladder.LadderEvent": "kept: the ladder's history",
            },
            export=(ExportSection(key="ladders", position=60, build=_ladders),),
            erase=(EraseStep(name="ladder.places", phase=ErasePhase.COMPETITIONS, run=_ladders_leave),),
        )
    )
