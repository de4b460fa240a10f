"""A tournament game's record (games.records) names its tournament as the Event, and its round;
a player's archive (games.archive) offers their tournaments as a filter."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.models import Game

from .models import Pairing


def tournament_tags(game: Game) -> Mapping[str, str]:
    pairing = Pairing.objects.filter(game=game).select_related("tournament", "round").first()
    if pairing is None:
        return {}
    return {"Event": pairing.tournament.name, "Round": str(pairing.round.number)}


def archive_tournaments(player: Any) -> list[tuple[int, str]]:
    """The tournaments ``player`` played a game in, newest first, for the archive's filter
    (games.archive): one query."""
    rows = (
        Pairing.objects.filter(game__seats__user=player)
        .values_list("tournament_id", "tournament__name")
        .distinct()
        .order_by("-tournament_id")
    )
    return [(pk, name) for pk, name in rows]
