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

    def count() -> int:
        if not counted:
            counted.append(games_waiting_count(user=user))
        return counted[0]

    return {"games_waiting": count}
