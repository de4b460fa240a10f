"""A player's rating as of now: the read side of the rating formula, below both
ratings.selectors and ratings.services (reads never depend on writes).

The deviation grows for every empty rating period since the player's last rated game
(``constants.INACTIVITY_PERIOD_DAYS``), up to ``constants.MAX_DEVIATION``.
"""

from __future__ import annotations

import math
from datetime import datetime

from . import constants
from .glicko2 import Glicko, idle
from .models import Rating


def idle_periods(last_played_at: datetime | None, now: datetime) -> int:
    """How many empty rating periods lie between a player's last rated game and ``now``."""
    if last_played_at is None or now <= last_played_at:
        return 0
    return math.floor((now - last_played_at).total_seconds() / (constants.INACTIVITY_PERIOD_DAYS * 86400))


def glicko_now(rating: Rating, now: datetime) -> Glicko:
    """The player's Glicko rating at ``now``, the deviation grown for inactivity."""
    return idle(
        Glicko(rating.rating, rating.deviation, rating.volatility),
        periods=idle_periods(rating.last_played_at, now),
        max_deviation=constants.MAX_DEVIATION,
    )
