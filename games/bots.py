"""The one place where the site asks a bot for a move.

The bot sees only what a player sees (the public ``view``), never the
server's full state with the hidden order of piles and bag. From the view it
rebuilds a playable state: for Onitama the position text of the view (Onitama
hides nothing after the deal); for Maatatahay the engine's
``sample_state(view, stream)``, which fills the hidden order at random.

When ``engine.bots`` lands, switch :func:`bot_choose_move` to it here and
nowhere else.
"""
from __future__ import annotations

from importlib import import_module
from typing import Any, Mapping

import engine
from engine.fair import SeedStream


def _state_from_view(game_kind: str, view: Mapping[str, Any], stream: SeedStream) -> Any:
    module = import_module("engine." + game_kind)
    sample = getattr(module, "sample_state", None)
    if sample is not None:
        return sample(view, stream)
    if game_kind == "onitama":
        return module.position_from_text(view["position"])
    raise NotImplementedError("engine.%s offers no way to play from a view" % game_kind)


def bot_choose_move(*, game_kind: str, view: dict, level: int, seed: int) -> str:
    """The move text the bot of ``level`` plays in the position ``view`` shows.

    Until the engine's bots land every level plays a uniformly random legal
    move drawn from ``seed`` (so a recorded bot seed replays the same choice).
    """
    rules = engine.get_game(game_kind)
    stream = SeedStream(seed % (1 << 256), "site-bot/%s/%d" % (game_kind, level))
    state = _state_from_view(game_kind, view, stream)
    moves = rules.legal_moves(state)
    if not moves:
        raise ValueError("the bot has no legal move in this view")
    return rules.move_text(moves[stream.below(len(moves))])
