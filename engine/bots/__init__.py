"""Bots for both games: one interface, a player's view in, a legal move text out.

    choose_move(game, view, level=1..5, seed=N, seconds=None) -> move text

A bot sees only a player's *view* (``rules.view(state, player)``, JSON data),
never the full state. For Onitama the view holds the position text under
``"position"`` (the game hides nothing). For Maatatahay the view lacks the
hidden order of the tile piles and the bag; the bot checks the view, then
builds its own complete states from it with ``engine.maatatahay``'s
``sample_state(view, stream)`` and its own seeded stream, so it has no way to
read the real order: the function is never given it.

Determinism: every budget is a count (search nodes, MCTS iterations), and all
randomness reads ``SeedStream(seed, "bot/...")``, so the same view, level and
seed give the same move. ``seconds`` is an optional wall-time cap; when it
cuts a search short the move may differ.

Levels (one table; ``ONITAMA_LEVELS`` below and ``engine.bots.maatatahay.LEVELS`` hold
the same numbers; level 5 takes about 2 seconds a move on the project machine):

=====  ===========================================  ==========================================
level  Onitama (alpha-beta, nodes)                  Maatatahay (ISMCTS, iterations)
=====  ===========================================  ==========================================
1      300 nodes, depth <= 2, root noise +-60,      no search: one-ply heuristic ranking with
       material-only evaluation                     seeded noise +-3 points
2      3 000 nodes, depth <= 3, root noise +-25     30 iterations, rollouts of 40 decisions
3      20 000 nodes, root noise +-8                 100 iterations
4      100 000 nodes                                300 iterations
5      600 000 nodes                                1 000 iterations
=====  ===========================================  ==========================================

Root noise (Onitama) is a seeded integer added to the exact scores of the
moves within twice its size of the best; a win in one is always taken and a
move that loses at once is never chosen when another does not.
Draws by repetition are ignored: a view carries no history.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import OptionsError, StateFormatError
from .onitama import MATERIAL_ONLY, Level

ONITAMA_LEVELS: dict[int, Level] = {
    1: Level(nodes=300, max_depth=2, noise=60, weights=MATERIAL_ONLY),
    2: Level(nodes=3_000, max_depth=3, noise=25),
    3: Level(nodes=20_000, max_depth=64, noise=8),
    4: Level(nodes=100_000, max_depth=64, noise=0),
    5: Level(nodes=600_000, max_depth=64, noise=0),
}
"""Onitama budget per level."""

LEVEL_RANGE = range(1, 6)


def _check_level(level: Any) -> int:
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVEL_RANGE:
        raise OptionsError("bad_level", "The bot level is a whole number from 1 to 5", level=str(level))
    return level


def _check_seconds(seconds: Any) -> float | None:
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds > 0:
        raise OptionsError("bad_seconds", "The time cap is a positive number of seconds", seconds=str(seconds))
    return float(seconds)


def choose_move(game: str, view: Mapping[str, Any], *, level: int, seed: int, seconds: float | None = None) -> str:
    """The bot's move text for the player whose turn it is in ``view``.

    ``view`` is what ``rules.view(state, player)`` returned (JSON data); a full
    state is refused with StateFormatError. Raises OptionsError on a bad game,
    level, seed or time cap, StateFormatError on a malformed view or a finished game.
    """
    from ..fair import check_seed

    level = _check_level(level)
    seed = check_seed(seed)
    seconds = _check_seconds(seconds)
    if not isinstance(view, Mapping):
        raise StateFormatError("bad_view", "A bot needs a player's view (a JSON object)")
    if game == "onitama":
        from .onitama import choose_onitama

        return choose_onitama(view, level=level, seed=seed, seconds=seconds)
    if game == "maatatahay":
        from .maatatahay import choose_maatatahay

        return choose_maatatahay(view, level=level, seed=seed, seconds=seconds)
    raise OptionsError("unknown_game", "Unknown game %r" % (game,), game=str(game))


@dataclass(frozen=True)
class Evaluation:
    """The bot's judgement of one running position, for the player to move.

    ``move``: the move text the bot would play (``choose_move``'s, for the same view, level
    and seed when no time cap cuts it short). ``value``: the mover's advantage in [-1, 1]
    (1: a sure win), or None when the bot has no estimate (a single legal move, or a level
    that does not search). ``win_in``: Onitama's proven results, the plies to the end of a
    forced line (positive: the mover wins, negative: the mover loses), else None.
    """

    move: str
    value: float | None
    win_in: int | None = None


ONITAMA_SCALE = 400.0
"""An Onitama score (hundredths of a student) of this size is an advantage of tanh(1) = 0.76."""


def evaluate_position(game: str, view: Mapping[str, Any], *, level: int, seed: int) -> Evaluation:
    """The bot's move and evaluation for the player to move in ``view`` (a player's view,
    as for ``choose_move``; a full state is refused). The level's budget decides the search
    (no time cap), so the result is deterministic in (view, level, seed)."""
    from ..fair import check_seed

    level = _check_level(level)
    seed = check_seed(seed)
    if not isinstance(view, Mapping):
        raise StateFormatError("bad_view", "A bot needs a player's view (a JSON object)")
    if game == "onitama":
        from ..onitama import RULES, position_from_text
        from .onitama import MATE_BOUND, WIN, search_position

        position = view.get("position")
        if view.get("game", "onitama") != "onitama" or not isinstance(position, str):
            raise StateFormatError("bad_view", "An Onitama view holds the position text under 'position'")
        state = position_from_text(position)
        if RULES.outcome(state) is not None or view.get("outcome") is not None:
            raise StateFormatError("game_over", "The game is over: there is no move to evaluate", position=position)
        result = search_position(
            state.red,
            state.blue,
            state.red_master,
            state.blue_master,
            state.red_hand,
            state.blue_hand,
            state.side,
            state.turn,
            level=ONITAMA_LEVELS[level],
            seed=seed,
        )
        RULES.parse_move(state, result.text)
        if abs(result.score) > MATE_BOUND:
            plies = WIN - abs(result.score)
            return Evaluation(result.text, 1.0 if result.score > 0 else -1.0, plies if result.score > 0 else -plies)
        return Evaluation(result.text, math.tanh(result.score / ONITAMA_SCALE))
    if game == "maatatahay":
        from .maatatahay import LEVELS, check_view, search_view

        check_view(view)
        found = search_view(view, level=LEVELS[level], seed=seed)
        mean = found.visits.get(found.move)
        return Evaluation(found.text, None if mean is None else 2.0 * float(mean[1]) - 1.0)
    raise OptionsError("unknown_game", "Unknown game %r" % (game,), game=str(game))


_BOT_SOURCES = {"onitama": ("__init__.py", "onitama.py"), "maatatahay": ("__init__.py", "maatatahay.py")}


@functools.cache
def bot_version(game: str) -> str:
    """The version of ``game``'s bot: a digest of the bot's source (its search, evaluation and
    budgets), so that any change to what it plays changes it. A figure computed by another
    version is computed again, never reused. Read once per process (a deploy restarts it)."""
    if game not in _BOT_SOURCES:
        raise OptionsError("unknown_game", "Unknown game %r" % (game,), game=str(game))
    digest = hashlib.sha256()
    here = Path(__file__).resolve().parent
    for name in _BOT_SOURCES[game]:
        digest.update((here / name).read_bytes())
    return "%s-%s" % (game, digest.hexdigest()[:12])


def bot_move_from_cli(game: str, position_arg: str, *, level: int, seed: int, seconds: float | None) -> str:
    """``python -m engine bot-move``: read ``--position`` and return the move text.

    Onitama: position text, or a file holding position text or an Onitama view
    (JSON). Maatatahay: a file (or the JSON text itself) holding a player's view;
    a full state is refused.
    """
    text = position_arg
    if os.path.isfile(position_arg):
        try:
            with open(position_arg, encoding="utf-8") as handle:
                text = handle.read()
        except OSError as error:
            raise StateFormatError(
                "bad_view", "Cannot read %s: %s" % (position_arg, error), file=position_arg
            ) from None
    stripped = text.strip()
    if game == "onitama" and not stripped.startswith("{"):
        view: Any = {"game": "onitama", "position": stripped}
    else:
        try:
            view = json.loads(stripped)
        except ValueError:
            raise StateFormatError(
                "bad_view",
                "The position must be a file holding a player's view as JSON (the engine's view output)",
                position=position_arg[:80],
            ) from None
    return choose_move(game, view, level=level, seed=seed, seconds=seconds)


__all__ = ["choose_move", "evaluate_position", "Evaluation", "bot_version", "bot_move_from_cli", "ONITAMA_LEVELS"]
