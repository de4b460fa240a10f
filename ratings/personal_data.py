"""What ratings holds about a user, for the account export (registered in
maatasite.personal_data; privacy runs it): their ratings and every change. Nothing is
erased: the history stays for the opponents (a deleted account leaves the leaderboards)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from maatasite.personal_data import ExportSection, PersonalData, registry, timestamp

from .models import Rating, RatingChange

if TYPE_CHECKING:
    from accounts.models import User


def _ratings(user: User) -> dict[str, Any]:
    """The stored ratings (as of each game's last rated result) and every change."""
    current = [
        {
            "kind": r.kind,
            "rating": r.rating,
            "deviation": r.deviation,
            "volatility": r.volatility,
            "games_played": r.games_played,
            "last_played_at": timestamp(r.last_played_at),
        }
        for r in Rating.objects.filter(user=user).order_by("kind")
    ]
    history = [
        {
            "game": c.game_id,
            "kind": c.kind,
            "opponent": c.opponent.public_name,
            "score": c.score,
            "rating_before": c.rating_before,
            "rating_after": c.rating_after,
            "deviation_before": c.deviation_before,
            "deviation_after": c.deviation_after,
            "opponent_rating": c.opponent_rating,
            "rated_at": timestamp(c.created_at),
        }
        for c in RatingChange.objects.filter(user=user).select_related("opponent").order_by("created_at", "pk")
    ]
    return {"current": current, "history": history}


def register() -> None:
    registry.register(
        PersonalData(
            app="ratings",
            models={
                "ratings.Rating": "exported; kept, the opponents' history",
                "ratings.RatingChange": "exported (the user's own); kept, the opponents' history",
            },
            export=(ExportSection(key="ratings", position=30, build=_ratings),),
        )
    )
