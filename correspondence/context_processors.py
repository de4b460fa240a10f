"""The banner slot of templates/base.html: correspondence warnings for the current page."""

from __future__ import annotations

from django.utils import timezone

from . import selectors


def banners(request):
    """On a game page: "you turned off all mail" for a player whose clock runs, and vacations."""
    match = getattr(request, "resolver_match", None)
    game_id = None
    if match is not None and match.view_name == "games:game":
        try:
            game_id = int(match.kwargs.get("game_id"))
        except (TypeError, ValueError):
            game_id = None
    # the game page leaves the game it read, seats prefetched (games.views.game_detail), so
    # that the banners do not read it again
    shown = getattr(request, "game_shown", None)
    return {
        "correspondence_banners": lambda: selectors.banners_for(
            user=request.user, game_id=game_id, now=timezone.now(), game=shown
        )
    }
