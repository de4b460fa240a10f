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
cuts a search short the move may differ. With ``time_only=True`` (the command
line's ``--seconds``), Onitama's search instead thinks for ``seconds`` with no
node cap (Maatatahay keeps its iteration budget, ``seconds`` capping it).

Versions: ``BOT_VERSIONS[game]`` (``bot_version(game)``) names the bot's search,
evaluation and level budgets. A change that can change a chosen move gets a new
version, so that figures cached from another version (fair play) are computed again.

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
5      1 000 000 nodes                              2 000 iterations (maatatahay-2)
=====  ===========================================  ==========================================

Root noise (Onitama) is a seeded integer added to the exact scores of the
moves within twice its size of the best; a win in one is always taken and a
move that loses at once is never chosen when another does not.
Draws by repetition are ignored: a view carries no history. The Maatatahay bot plays a
move that wins the game at once without a search, at every level (maatatahay-2).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import math
import os
import sys
import time
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from ..errors import OptionsError, StateFormatError


def fresh_search(module: ModuleType) -> ModuleType:
    """``module``, unless it is a compiled build (README "Compiled search") of another source
    than the ``.py`` beside it: then the source is loaded in its place (under the same name)
    with a warning, so a stale build never plays. A build carries the SHA-256 of the source
    it was compiled from (``BUILD_SOURCE_DIGEST``; empty in the source itself)."""
    built = getattr(module, "__file__", None) or ""
    if built.endswith(".py"):
        return module
    source = os.path.join(os.path.dirname(built), module.__name__.rpartition(".")[2] + ".py")
    try:
        with open(source, "rb") as handle:
            digest = hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return module  # no source beside it: the build is all there is
    if getattr(module, "BUILD_SOURCE_DIGEST", "") == digest:
        return module
    warnings.warn(
        "%s was not built from today's %s: the source runs instead (rebuild with `make compiled`, "
        "or remove it with `make pure`)" % (os.path.basename(built), os.path.basename(source)),
        stacklevel=2,
    )
    spec = importlib.util.spec_from_file_location(module.__name__, source)
    if spec is None or spec.loader is None:  # pragma: no cover - a .py path always has a loader
        return module
    loaded = importlib.util.module_from_spec(spec)
    sys.modules[module.__name__] = loaded  # its dataclasses look their module up there
    try:
        spec.loader.exec_module(loaded)
    except BaseException:
        sys.modules[module.__name__] = module
        raise
    package, _, name = module.__name__.rpartition(".")
    if package in sys.modules:
        setattr(sys.modules[package], name, loaded)
    return loaded


from . import onitama as _found  # noqa: E402  (whichever build the import system found)

fresh_search(_found)
del _found

from .onitama import BOT_VERSION as ONITAMA_BOT_VERSION  # noqa: E402
from .onitama import MATERIAL_ONLY, Level  # noqa: E402

MAATATAHAY_BOT_VERSION = "maatatahay-2"
BOT_VERSIONS: dict[str, str] = {"onitama": ONITAMA_BOT_VERSION, "maatatahay": MAATATAHAY_BOT_VERSION}
"""The version of each game's bot (see the module's text)."""

ONITAMA_LEVELS: dict[int, Level] = {
    1: Level(nodes=300, max_depth=2, noise=60, weights=MATERIAL_ONLY),
    2: Level(nodes=3_000, max_depth=3, noise=25),
    3: Level(nodes=20_000, max_depth=64, noise=8),
    4: Level(nodes=100_000, max_depth=64, noise=0),
    5: Level(nodes=1_000_000, max_depth=64, noise=0),
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


def choose_move(
    game: str,
    view: Mapping[str, Any],
    *,
    level: int,
    seed: int,
    seconds: float | None = None,
    time_only: bool = False,
) -> str:
    """The bot's move text for the player whose turn it is in ``view``.

    ``seconds`` caps the thinking time (the level's budget decides the move unless the
    cap cuts it short); with ``time_only`` the Onitama bot thinks for ``seconds`` with
    no node cap (the command line's ``--seconds``).

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

        return choose_onitama(view, level=level, seed=seed, seconds=seconds, time_only=time_only)
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
        from .onitama import MATE_BOUND, WIN, search_onitama_view

        result = search_onitama_view(view, level=level, seed=seed)
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
    """The version of ``game``'s bot: its named version (``BOT_VERSIONS``) and a digest of the
    bot's source (search, evaluation and budgets), so that a change to what it plays changes it
    even where nobody raised the name. A figure computed by another version (fair play,
    analysis) is computed again, never reused. Read once per process (a deploy restarts it);
    the compiled build is made from the same source, so both builds carry one version."""
    if game not in BOT_VERSIONS:
        raise OptionsError("unknown_game", "Unknown game %r" % (game,), game=str(game))
    digest = hashlib.sha256()
    here = Path(__file__).resolve().parent
    for name in _BOT_SOURCES[game]:
        digest.update((here / name).read_bytes())
    return "%s+%s" % (BOT_VERSIONS[game], digest.hexdigest()[:12])


CLI_EXIT_RESERVE = 0.05
"""Seconds the command line keeps, out of ``--seconds``, for what follows the search (the
search's return, printing, the interpreter's exit)."""


def process_age() -> float:
    """Seconds since this process started (Linux: ``/proc/self/stat`` against the boot clock),
    or 0.0 where that cannot be read: the command line's time counts its start and imports."""
    try:
        with open("/proc/self/stat", encoding="ascii") as handle:
            fields = handle.read().rpartition(")")[2].split()
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22: start time, in clock ticks
        return min(60.0, max(0.0, time.clock_gettime(time.CLOCK_BOOTTIME) - started))
    except (OSError, ValueError, IndexError, AttributeError):
        return 0.0


def cli_seconds(seconds: float, age: float) -> float:
    """The search's share of the command line's ``--seconds``: what is left once the process's
    start (``age``) and the exit reserve are taken out, and never under a tenth of it."""
    return max(seconds / 10, seconds - age - CLI_EXIT_RESERVE)


def bot_move_from_cli(game: str, position_arg: str, *, level: int, seed: int, seconds: float | None) -> str:
    """``python -m engine bot-move``: read ``--position`` and return the move text.

    Onitama: position text, or a file holding position text or an Onitama view
    (JSON). Maatatahay: a file (or the JSON text itself) holding a player's view;
    a full state is refused. ``seconds`` (``--seconds``) is a time-only mode for
    Onitama: the search thinks with no node cap, so that the whole command (the
    interpreter's start and imports included) takes about that long.
    """
    checked = _check_seconds(seconds)
    if checked is not None:
        seconds = cli_seconds(checked, process_age())
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
    return choose_move(game, view, level=level, seed=seed, seconds=seconds, time_only=seconds is not None)


__all__ = [
    "choose_move",
    "evaluate_position",
    "Evaluation",
    "bot_version",
    "BOT_VERSIONS",
    "bot_move_from_cli",
    "ONITAMA_LEVELS",
]
