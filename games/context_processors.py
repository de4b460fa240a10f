"""What every page's header shows of the games app: how many games wait for the player's move."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from .selectors import games_waiting_count


def games_waiting(request: HttpRequest) -> dict[str, Any]:
    """``games_waiting``: the number of the signed-in player's running games where it is their
    move, counted only when a template asks for it (once per page); nothing for a visitor."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    counted: list[int] = []
    # (found, count): a game page read the cached count with its position (games.views.game_detail)
    read = getattr(request, "games_waiting_read", None)

    def count() -> int:
        if not counted:
            if read is not None and read[0]:
                counted.append(int(read[1]))
            else:
                counted.append(games_waiting_count(user=user, cache_read=read is None))
        return counted[0]

    return {"games_waiting": count}
