"""The players' ratings in a game's record (games.records): ``<Side>Rating``, each player's
rating before the game, for a rated game that changed ratings."""

from __future__ import annotations

from collections.abc import Mapping

from engine.records import side_tag
from games.models import Game

from .models import RatingChange


def rating_tags(game: Game) -> Mapping[str, str]:
    if not game.rated:
        return {}
    sides = {seat.user_id: seat.side for seat in game.seats.all() if seat.user_id}
    return {
        side_tag(sides[user_id]) + "Rating": "%.0f" % before
        for user_id, before in RatingChange.objects.filter(game=game).values_list("user_id", "rating_before")
        if user_id in sides
    }
