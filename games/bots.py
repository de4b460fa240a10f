"""The one place where the site asks a bot for a move.

The bot sees only what a player sees (the public ``view``), never the
server's full state with the hidden order of piles and bag. The engine's bots
(``engine.bots.choose_move``) rebuild playable states from the view
themselves. Where they are not available for a game, the site falls back on a
uniformly random legal move, chosen from a state rebuilt from the view: for
Onitama the view's position text (Onitama hides nothing after the deal), for
Maatatahay the engine's ``sample_state(view, stream)``, which draws the hidden
order at random.
"""
from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from django.conf import settings

import engine
from engine.fair import SeedStream

log = logging.getLogger(__name__)


def _state_from_view(game_kind: str, view: Mapping[str, Any], stream: SeedStream) -> Any:
    rules = engine.get_game(game_kind)
    sample = getattr(rules, "sample_state", None)
    if sample is not None:
        return sample(view, stream)
    if game_kind == "onitama":
        from engine.onitama import position_from_text
        return position_from_text(view["position"])
    raise NotImplementedError("engine.%s offers no way to play from a view" % game_kind)


def random_move_from_view(*, game_kind: str, view: Mapping[str, Any], seed: int) -> str:
    """A uniformly random legal move of the position ``view`` shows, drawn from ``seed``."""
    rules = engine.get_game(game_kind)
    stream = SeedStream(seed % (1 << 256), "site-bot/" + game_kind)
    state = _state_from_view(game_kind, view, stream)
    moves = rules.legal_moves(state)
    if not moves:
        raise ValueError("the bot has no legal move in this view")
    return rules.move_text(moves[stream.below(len(moves))])


def bot_choose_move(*, game_kind: str, view: dict, level: int, seed: int) -> str:
    """The move text the bot of ``level`` plays in the position ``view`` shows.

    Deterministic for a given (view, level, seed), so a recorded bot seed
    explains the choice. ``settings.GAMES_BOT_SECONDS`` (default 20) caps the
    thinking time.
    """
    seconds = getattr(settings, "GAMES_BOT_SECONDS", 20.0)
    from engine.bots import choose_move  # the engine is part of the project: always there

    try:
        return choose_move(game_kind, view, level=level, seed=seed, seconds=seconds)
    except (ImportError, NotImplementedError) as error:
        log.warning("engine bot for %s unavailable (%s): playing a random move", game_kind, error)
    except Exception:  # a bot failure must not stall the game: play a legal move anyway
        log.exception("engine bot for %s failed at level %s: playing a random move",
                      game_kind, level)
    return random_move_from_view(game_kind=game_kind, view=view, seed=seed)
