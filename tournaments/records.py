"""A tournament game's record (games.records) names its tournament as the Event, and its round."""

from __future__ import annotations

from collections.abc import Mapping

from games.models import Game

from .models import Pairing


def tournament_tags(game: Game) -> Mapping[str, str]:
    pairing = Pairing.objects.filter(game=game).select_related("tournament", "round").first()
    if pairing is None:
        return {}
    return {"Event": pairing.tournament.name, "Round": str(pairing.round.number)}
