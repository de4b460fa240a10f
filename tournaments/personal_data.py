"""What tournaments holds about a user, for the account export and erasure (registered
in maatasite.personal_data; privacy runs it): their entries; on deletion they leave every
tournament (after their games are resigned): an entry before the start is dropped, a
running or paused tournament withdraws them. Pairings and results stay, showing a
deleted player in the standings."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from maatasite.personal_data import ErasePhase, EraseStep, ExportSection, PersonalData, registry, timestamp

from .models import Participant
from .services import user_tournaments_leave

if TYPE_CHECKING:
    from accounts.models import User


def _tournaments(user: User) -> list[dict[str, Any]]:
    entries = Participant.objects.filter(user=user).select_related("tournament").order_by("tournament_id")
    return [
        {
            "tournament": p.tournament_id,
            "name": p.tournament.name,
            "kind": p.tournament.kind,
            "tournament_status": p.tournament.status,
            "status": p.status,
            "seed": p.seed,
            "registered_at": timestamp(p.registered_at),
            "withdrawn_at": timestamp(p.withdrawn_at),
        }
        for p in entries
    ]


def _tournaments_leave(user: User, now: datetime) -> None:
    user_tournaments_leave(user=user, actor=None)


def register() -> None:
    registry.register(
        PersonalData(
            app="tournaments",
            models={
                "tournaments.Participant": "exported; dropped before the start, else withdrawn and kept",
                "tournaments.Tournament": "kept: the staff member who made it",
                "tournaments.TournamentMail": "kept: the round's mail goes at most once",
            },
            export=(ExportSection(key="tournaments", position=70, build=_tournaments),),
            erase=(EraseStep(name="tournaments.entries", phase=ErasePhase.COMPETITIONS, run=_tournaments_leave),),
        )
    )
