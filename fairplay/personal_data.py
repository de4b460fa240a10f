"""What fairplay holds about a user (registered in maatasite.personal_data): staff's
analysis of finished games. Neither exported nor erased: it belongs to staff's review
of fair play, like the reports and the audit log, and describes games that stay."""
from __future__ import annotations

from maatasite.personal_data import PersonalData, registry


def register() -> None:
    registry.register(PersonalData(
        app="fairplay",
        models={"fairplay.GameAgreement": "kept: a cache computed from games that stay",
                "fairplay.FairPlayCheck": "kept: staff's check (as player or requesting staff member)",
                "fairplay.FairPlayCheckGame": "kept: a game of a staff check"},
    ))
