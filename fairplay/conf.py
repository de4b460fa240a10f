"""The fair-play check's numbers. Each can be overridden by a Django setting of the same name
(read at run time, so tests and deployments change them without code)."""
from __future__ import annotations

from typing import Any

from django.conf import settings

DEFAULTS: dict[str, Any] = {
    # The bot asked for its first choice (5 is the strongest) and its wall-time cap per decision.
    "FAIRPLAY_BOT_LEVEL": 5,
    "FAIRPLAY_BOT_SECONDS": 2.0,
    # A player's first decisions of each game that are not counted. The setups are dealt at
    # random, so there is no opening theory that honest players would share with the bot: 0.
    "FAIRPLAY_SKIP_OPENING": 0,
    # Honest players of similar rating: current rating within +- this band ...
    "FAIRPLAY_RATING_BAND": 150,
    # ... at most this many of them, closest rating first, each over their last
    # FAIRPLAY_REFERENCE_GAMES rated games, at most FAIRPLAY_REFERENCE_MAX_GAMES games in all.
    "FAIRPLAY_REFERENCE_PLAYERS": 5,
    "FAIRPLAY_REFERENCE_GAMES": 3,
    "FAIRPLAY_REFERENCE_MAX_GAMES": 15,
}

# How many of the player's recent games a check reads: by default, and at most.
DEFAULT_GAMES = 10
MAX_GAMES = 50


def value(name: str) -> Any:
    """The setting ``name``, or its default above."""
    return getattr(settings, name, DEFAULTS[name])
