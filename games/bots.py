"""The one place where the site asks a bot for a move.

The bot sees only what a player sees (the public ``view``), never the
server's full state with the hidden order of piles and bag; the engine's bots
(``engine.bots.choose_move``) rebuild playable states from the view themselves.

A bot that fails raises :class:`BotFailed`; it never plays a stand-in move. The turn's
task (``games.tasks.bot_turn_play``) retries with backoff, and after its last retry the
game is flagged for staff with its clock held (``games.services.bot_turn_flag``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings

from engine import bots as engine_bots


class BotFailed(Exception):
    """The engine's bot raised instead of choosing a move (the cause is chained)."""


def bot_choose_move(*, game_kind: str, view: Mapping[str, Any], level: int, seed: int) -> str:
    """The move text the bot of ``level`` plays in the position ``view`` shows.

    Deterministic for a given (view, level, seed), so a recorded bot seed
    explains the choice. ``GAMES_BOT_SECONDS`` caps the thinking time. Raises
    BotFailed, whatever went wrong inside the bot.
    """
    try:
        return engine_bots.choose_move(game_kind, view, level=level, seed=seed, seconds=settings.GAMES_BOT_SECONDS)
    except Exception as error:  # any failure of the bot is the bot's: the task retries, then flags
        raise BotFailed(
            "the %s bot of level %s failed: %s: %s" % (game_kind, level, type(error).__name__, error)
        ) from error
