"""The Maatatahay bot: information-set Monte Carlo tree search over sampled futures.

The bot is given a player's *view* only (``view(state, player)``: schema
``maatatahay-view/1``). It never sees the order of the face-down tile piles or
of the bag, and does not try to: ``choose_maatatahay`` validates the view, refuses
anything that carries ``piles`` or a bag in draw order (a full state), and
builds every state it searches from the view with the engine's
``sample_state(view, stream)`` and the bot's own stream
``SeedStream(seed, "bot/maatatahay")``. So the real order cannot influence the
move: two full states that differ only in the hidden order have equal views,
hence equal inputs, hence equal moves for the same seed.

Search (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012): every
iteration samples a fresh determinization of the view, walks one shared tree
whose edges are moves (a child is eligible only when its move is legal in the
current sample; its *availability* count replaces the parent's visit count in
UCB1), adds one node, then plays a fast rollout (uniformly random legal moves,
drawn by the engine's ``random_move`` from the bot's stream) for a limited
number of decisions and scores the result:

- a finished game: 1 / 0.5 / 0 for a win / draw / loss, blended with the
  final score margin (so bigger wins and smaller losses count a little);
- otherwise the heuristic margin through a logistic curve.

Heuristic (``evaluate``), per player: the score so far (sanity and Spirit
Crystals of living warriors, relics), crystals in storage (Spirit more than
Energy: they become points on a Hot Tile), minus the value at risk of its living
warriors that are one free neighbour away from being surrounded by stronger
enemies (surround threats), plus a little for living warriors (the tie-break).

At the root the moves are ranked by a one-ply look with the heuristic and
unlocked progressively (progressive widening), so small budgets still consider the
sensible moves first. The move played is the most visited root move.
Budgets are counts of iterations, so a move is deterministic for a given view,
level and seed; ``seconds`` may cut the search short.

A win at once comes first (bot version maatatahay-2): a move that ends the game with a win
for the mover, in the first sample and in ``WIN_CHECKS`` more, is played without a search.

Level 5 (maatatahay-2) searches 2000 iterations instead of 1000; levels 1 to 4 keep
maatatahay-1's settings. Measured (README, "Benchmarks", ``bench/maatatahay_gauntlet.py``):
rollouts cut short at 0 decisions and judged by the heuristic alone were much weaker (35 %
against maatatahay-1's level 4 at 2000 iterations): the random rollout to the end of the game
is worth more than the heuristic. ``inner_widen`` (progressive widening below the root) and
``best_of`` (heuristic-guided rollouts) are there for tuning runs; no level uses them yet.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..errors import StateFormatError
from ..fair import SeedStream

if TYPE_CHECKING:  # imported when first needed at run time (_engine)
    from ..maatatahay import MaatatahayRules
    from ..maatatahay.moves import Move


@dataclass(frozen=True)
class MLevel:
    """A Maatatahay level: iterations, rollout length (decisions), exploration, widening."""

    iterations: int
    rollout: int
    explore: float = 0.7
    widen_base: int = 3
    widen_rate: float = 1.0
    noise: float = 0.0  # weight of seeded noise on the root's heuristic ranking
    prior: float = 3.0  # virtual visits given to a root move at its one-ply heuristic value
    inner_widen: float = 0.0  # below the root: widen_base + inner_widen * sqrt(visits) moves (0: all)
    best_of: int = 1  # rollout policy: the best for the mover (heuristic) of this many random moves


LEVELS: dict[int, MLevel] = {
    1: MLevel(iterations=0, rollout=0, noise=3.0),
    2: MLevel(iterations=30, rollout=40),
    3: MLevel(iterations=100, rollout=40),
    4: MLevel(iterations=300, rollout=40),
    5: MLevel(iterations=2000, rollout=40),
}
"""Budget per level (level 1: the one-ply heuristic with seeded noise, no search; a rollout
of 40 decisions reaches the end of the game)."""


# --- the engine's Maatatahay functions (imported when first needed) -------------------------


@functools.cache
def _engine() -> tuple[ModuleType, MaatatahayRules, Callable[[Move], str]]:
    """(rules module, the game's RULES object, move_text): the engine's own functions."""
    from ..maatatahay import RULES
    from ..maatatahay import rules as R
    from ..maatatahay.moves import move_text

    return R, RULES, move_text


# --- heuristic -------------------------------------------------------------------------------


def evaluate(state: Any) -> float:
    """Heuristic margin of player 0 (Balan) over player 1 (Wazu), in points."""
    R, _, _ = _engine()
    t = state.t
    cells = state.cells
    own = state.own
    occupied = own[0] | own[1]
    sc = R.scores(state)
    value = [float(sc[0]), float(sc[1])]
    for p in (0, 1):
        e, s = state.storage[p]
        value[p] += 0.6 * s + 0.25 * e
        live = state.live[p]
        value[p] += 0.3 * live.bit_count()
        enemy_live = state.live[1 - p]
        bb = live
        while bb:
            low = bb & -bb
            i = low.bit_length() - 1
            bb ^= low
            orth = t.orth[i]
            free = (orth & ~occupied).bit_count()
            if free > 1:
                continue
            c = cells[i]
            worth = t.sanity[c[1]] + c[5]
            foes = orth & enemy_live
            if free == 0:
                continue  # survived its settlement; can still die later, rarely
            mine = R.strength(t, cells, own, i)
            against = 0
            f = foes
            while f:
                lo = f & -f
                f ^= lo
                against += R.strength(t, cells, own, lo.bit_length() - 1)
            # The last free neighbour filled by an enemy of strength ~2 or more decides.
            risk = 0.55 if mine < against + 2 else 0.15
            value[p] -= risk * worth
    return value[0] - value[1]


def _result_value(state: Any) -> float:
    """Value for player 0 in [0, 1] of a state (finished or not)."""
    R, _, _ = _engine()
    if state.phase == "over":
        if state.ended is not None:
            w = state.ended[0]
            sc = (0, 0)
        else:
            w, _, sc = R.winner(state)
        win = 0.5 if w is None else (1.0 if w == 0 else 0.0)
        return 0.85 * win + 0.15 / (1.0 + math.exp(-(sc[0] - sc[1]) / 4.0))
    return 1.0 / (1.0 + math.exp(-evaluate(state) / 3.0))


# --- the search ------------------------------------------------------------------------------


class _Node:
    __slots__ = ("children", "visits", "reward", "avail")

    def __init__(self) -> None:
        self.children: dict[Any, _Node] = {}
        # float: the root's moves start from virtual visits (MLevel.prior)
        self.visits: float = 0
        self.reward = 0.0
        self.avail: float = 0


@dataclass
class MResult:
    move: Any
    text: str
    iterations: int
    seconds: float
    visits: dict[Any, Any]


def check_view(view: Mapping[str, Any]) -> None:
    """Refuse anything but a Maatatahay view: above all a full state (hidden order)."""
    from ..maatatahay.serial import VIEW_SCHEMA

    if "piles" in view or isinstance(view.get("bag"), list):
        raise StateFormatError(
            "full_state",
            "A bot takes a player's view, not the full state (it must not see the hidden order of piles and bag)",
        )
    if view.get("schema") != VIEW_SCHEMA:
        raise StateFormatError(
            "bad_view", "A Maatatahay bot needs a view with schema %r" % VIEW_SCHEMA, schema=str(view.get("schema"))
        )
    if view.get("to_move") is None or view.get("outcome") is not None:
        raise StateFormatError("game_over", "The game is over: there is no move to choose")


def root_ranking(sample: Any, moves: list[Any], stream: SeedStream, noise: float) -> tuple[list[Any], dict[Any, float]]:
    """Root moves best first by a one-ply heuristic look (plus seeded noise), and each
    move's heuristic value for the mover as a probability-like number in [0, 1]."""
    R, _, _ = _engine()
    me = sample.turn
    keyed = []
    prior = {}
    for i, m in enumerate(moves):
        v = evaluate(R.apply(sample, m))
        if me == 1:
            v = -v
        if noise:
            v += noise * (stream.below(2001) - 1000) / 1000.0
        keyed.append((-v, i))
        prior[m] = 1.0 / (1.0 + math.exp(-v / 3.0))
    keyed.sort()
    return [moves[i] for _, i in keyed], prior


WIN_CHECKS = 3
"""Further samples of the view in which a move that ends the game must win too before it is
played at once (the end can draw crystals from the bag, which the view does not order)."""


def _wins(R: ModuleType, state: Any, player: int) -> bool:
    return bool(state.phase == "over" and R.winner(state)[0] == player)


def winning_move(view: Mapping[str, Any], sample: Any, moves: list[Any], seed: int) -> Any:
    """A move that ends the game with a win for the mover in ``sample`` and in ``WIN_CHECKS``
    other samples of the view (drawn from a stream of their own), the largest final margin
    first; None when there is none."""
    R, S, _ = _engine()
    me = sample.turn
    found = []
    for i, m in enumerate(moves):
        after = R.apply(sample, m)
        if after.phase == "over":
            w, _, sc = R.winner(after)
            if w == me:
                found.append((sc[1] - sc[0] if me == 1 else sc[0] - sc[1], -i, m))
    if not found:
        return None
    found.sort(reverse=True)
    stream = SeedStream(seed, "bot/maatatahay/win")
    others = [S.sample_state(view, stream) for _ in range(WIN_CHECKS)]
    for _, _, m in found:
        if all(_wins(R, R.apply(other, m), me) for other in others):
            return m
    return None


def _best_of(state: Any, k: int, stream: SeedStream) -> Any:
    """The state after the best, by the heuristic for the mover, of ``k`` random legal moves
    (drawn from the bot's stream; the first drawn wins a tie)."""
    R, _, _ = _engine()
    sign = 1.0 if state.turn == 0 else -1.0
    best, best_value = None, 0.0
    for _ in range(k):
        after = R.apply(state, R.random_move(state, stream))
        value = sign * evaluate(after)
        if best is None or value > best_value:
            best, best_value = after, value
    return best


def search_view(view: Mapping[str, Any], *, level: MLevel, seed: int, seconds: float | None = None) -> MResult:
    """Choose a move for the player to move in ``view`` (already checked)."""
    R, S, move_text = _engine()
    start = time.monotonic()
    deadline = None if seconds is None else start + seconds
    stream = SeedStream(seed, "bot/maatatahay")
    first = S.sample_state(view, stream)
    moves = R.legal_moves(first)
    if not moves:
        raise StateFormatError("game_over", "The game is over: there is no move to choose")
    if len(moves) == 1:
        return MResult(moves[0], move_text(moves[0]), 0, time.monotonic() - start, {})
    win = winning_move(view, first, moves, seed)
    if win is not None:
        return MResult(win, move_text(win), 0, time.monotonic() - start, {win: (0, 1.0)})
    stream.shuffle(moves)  # seeded tie-break for the ranking below
    ranked, prior = root_ranking(first, moves, stream, level.noise)
    if level.iterations <= 0:
        return MResult(ranked[0], move_text(ranked[0]), 0, time.monotonic() - start, {})
    root = _Node()
    explore = level.explore
    best_of = level.best_of
    inner_widen = level.inner_widen
    apply, legal, random_move = R.apply, R.legal_moves, R.random_move
    done = 0
    for done in range(1, level.iterations + 1):
        if deadline is not None and done > 1 and time.monotonic() >= deadline:
            done -= 1
            break
        state = S.sample_state(view, stream)
        node = root
        path = []
        while state.phase != "over":
            mover = state.turn
            if node is root:
                width = level.widen_base + int(level.widen_rate * math.sqrt(root.visits))
                candidates = ranked[:width]
            else:
                candidates = legal(state)
                if inner_widen and len(node.children) >= level.widen_base + int(inner_widen * math.sqrt(node.visits)):
                    # Progressive widening below the root: no new move while the node has
                    # few visits; choose among the moves it knows that are legal here.
                    known = [m for m in candidates if m in node.children]
                    if known:
                        candidates = known
            untried = [m for m in candidates if m not in node.children]
            if untried:
                m = untried[0] if node is root else untried[stream.below(len(untried))]
                child = _Node()
                if node is root and level.prior:
                    # Progressive bias: start from virtual visits at the heuristic's value.
                    child.visits = child.avail = level.prior
                    child.reward = level.prior * prior[m]
                node.children[m] = child
                state = apply(state, m)
                path.append((child, mover))
                break
            best, best_value, best_move = None, -1.0, None
            for m in candidates:
                c = node.children[m]
                c.avail += 1
                v = c.reward / c.visits + explore * math.sqrt(math.log(c.avail) / c.visits)
                if v > best_value:
                    best, best_value, best_move = c, v, m
            assert best is not None  # every candidate has a child here, and each scores above -1
            state = apply(state, best_move)
            node = best
            path.append((node, mover))
        steps = 0
        if best_of > 1:
            while state.phase != "over" and steps < level.rollout:
                state = _best_of(state, best_of, stream)
                steps += 1
        while state.phase != "over" and steps < level.rollout:
            state = apply(state, random_move(state, stream))
            steps += 1
        value = _result_value(state)
        root.visits += 1
        for n, mover in path:
            n.visits += 1
            n.reward += value if mover == 0 else 1.0 - value
    visits = {m: (c.visits, c.reward / c.visits if c.visits else 0.0) for m, c in root.children.items()}
    order = {m: i for i, m in enumerate(ranked)}
    best_move = max(root.children, key=lambda m: (root.children[m].visits, visits[m][1], -order[m]))
    return MResult(best_move, move_text(best_move), done, time.monotonic() - start, visits)


def choose_maatatahay(view: Mapping[str, Any], *, level: int, seed: int, seconds: float | None = None) -> str:
    """Move text for the player to move in a Maatatahay view (checked legal by the engine)."""
    R, S, move_text = _engine()
    check_view(view)
    result = search_view(view, level=LEVELS[level], seed=seed, seconds=seconds)
    # The move must be legal in the game the view shows: every sample has exactly the real
    # state's legal moves, so check it against a fresh sample.
    sample = S.sample_state(view, SeedStream(seed, "bot/maatatahay/check"))
    S.parse_move(sample, result.text)  # raises IllegalMoveError if it were not legal
    return result.text


# --- bench players ---------------------------------------------------------------------------


def scaled_levels(scale: float) -> dict[int, MLevel]:
    from dataclasses import replace

    return {
        k: (v if v.iterations == 0 else replace(v, iterations=max(4, int(v.iterations * scale))))
        for k, v in LEVELS.items()
    }


def budget_text(scale: float) -> str:
    return ", ".join(
        "L%d %d iterations (rollout %d)" % (k, v.iterations, v.rollout) for k, v in scaled_levels(scale).items()
    )


def bench_player(name: str, scale: float) -> Callable[[Any, int], str]:
    """A player for bench/bots.py: (full state, seed) -> move text, seeing only the view."""
    R, S, move_text = _engine()
    if name == "random":

        def random_player(state: Any, seed: int) -> str:
            return move_text(R.random_move(state, SeedStream(seed, "bench/random")))

        return random_player
    if name == "greedy":

        def greedy(state: Any, seed: int) -> str:
            view = S.view(state, S.to_move(state))
            stream = SeedStream(seed, "bench/greedy")
            sample = S.sample_state(view, stream)
            moves = R.legal_moves(sample)
            stream.shuffle(moves)
            ranked, _ = root_ranking(sample, moves, stream, 0.0)
            return move_text(ranked[0])

        return greedy
    level = scaled_levels(scale)[int(name)]

    def bot(state: Any, seed: int) -> str:
        view = S.view(state, S.to_move(state))
        check_view(view)
        return search_view(view, level=level, seed=seed).text

    return bot
