"""A ladder game's record (games.records) names its ladder as the Event."""

from __future__ import annotations

from collections.abc import Mapping

from games.models import Game

from .models import LadderChallenge


def ladder_tags(game: Game) -> Mapping[str, str]:
    challenge = LadderChallenge.objects.filter(game=game).select_related("ladder").first()
    return {"Event": challenge.ladder.name} if challenge else {}
