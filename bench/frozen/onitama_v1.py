"""FROZEN COPY (bot version onitama-1, main at 9ebde59) for bench/onitama_gauntlet.py; do not edit.

The Onitama bot: negamax alpha-beta search over a private, fast search board.

Search (all scores from the side to move, in hundredths of a student):

- iterative deepening, principal variation search (null windows after the
  first move), fail-soft alpha-beta;
- a transposition table (a dict per search) keyed by an incremental
  Zobrist-style hash of pieces, masters, hands (as sets), side card and side
  to move; it stores depth, bound type, score and best move;
- move ordering: a winning move ends the node before any move is generated
  (see below), then the table move, captures, then the history heuristic;
- every node first asks whether the side to move wins at once (captures the
  enemy master or walks its master onto the enemy's arch with one of its two
  cards); if so the node is worth ``WIN - ply``, so proven wins are played as
  the shortest win and proven losses are delayed as long as possible;
- at depth 0 a quiescence search: when the opponent threatens to win (master
  capture or temple arch) the side to move may not stand pat and every reply
  is searched (a bounded number of times in a row); otherwise stand pat on the
  evaluation or try captures;
- evaluation: material, mobility with the two cards in hand (and, for the side
  to move, the side card it takes next), attacks on enemy pieces, the master's
  distance to the enemy arch, enemy pieces near one's own master and centre
  control of students.

The search is deterministic: the budget is a number of nodes (and a maximum
depth), so the same position, level and seed give the same move. An optional
wall-time cap may stop it earlier (then the move can differ). The draw by
threefold repetition is ignored: a view carries no history.

Cards: the search reads ``engine.onitama.cards.DEST`` (destination masks per
colour, card and square); squares are ``file + 5 * rank`` (a1 = 0).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..fair import SeedStream
from ..onitama.cards import CARD_NAMES, DEST, SQUARE_NAMES
from ..onitama.fast import Z_BLUE_TO_MOVE, Z_CARD, Z_MASTER, Z_PIECE, zobrist_of

WIN = 100_000
"""Score of a won position; a win in ``p`` plies from the root scores ``WIN - p``."""
INF = 1_000_000
MATE_BOUND = WIN - 1000
"""Scores beyond +-MATE_BOUND are proven wins or losses."""

RED, BLUE = 0, 1
ARCH = (2, 22)  # c1 (Red's own arch), c5 (Blue's own arch)
ENEMY_ARCH = (22, 2)  # where the master of colour c wins
PASS = 31  # src/dst code of a pass
QS_CHECK_LIMIT = 4  # forced replies in a row inside the quiescence search
NCARDS = len(CARD_NAMES)


class SearchAborted(Exception):
    """Raised inside the search when the node budget or the wall-time cap runs out."""


# --- hashing -------------------------------------------------------------------------------

# The position hash is the engine's (engine.onitama.fast); the search only adds
# the precomputed differences below to update it incrementally.
Z_BLUE = Z_BLUE_TO_MOVE
# Hash change of a piece of colour c moving src -> dst, and of a master doing so.
Z_MOVE = tuple(tuple(tuple(Z_PIECE[c][s] ^ Z_PIECE[c][d] for d in range(25)) for s in range(25)) for c in (RED, BLUE))
Z_MMOVE = tuple(
    tuple(tuple(Z_MASTER[c][s] ^ Z_MASTER[c][d] for d in range(25)) for s in range(25)) for c in (RED, BLUE)
)
# Hash change when colour c plays card k while card s lies aside (k goes aside, c takes s),
# with the side to move flipped too.
Z_CARDS = tuple(
    tuple(
        tuple(Z_CARD[c][k] ^ Z_CARD[2][k] ^ Z_CARD[2][s] ^ Z_CARD[c][s] ^ Z_BLUE for s in range(NCARDS))
        for k in range(NCARDS)
    )
    for c in (RED, BLUE)
)


# --- evaluation ----------------------------------------------------------------------------


def _dist(a: int, b: int) -> int:
    return max(abs(a % 5 - b % 5), abs(a // 5 - b // 5))


DIST = tuple(tuple(_dist(a, b) for b in range(25)) for a in range(25))
NEAR = tuple(sum(1 << b for b in range(25) if b != a and DIST[a][b] <= 1) for a in range(25))
CENTRE = sum(1 << s for s in (6, 7, 8, 11, 12, 13, 16, 17, 18))


@dataclass(frozen=True)
class Weights:
    """Evaluation weights (a student is worth ``student``)."""

    student: int = 100
    mobility: int = 3  # per reachable square with the two cards in hand
    side_mobility: int = 1  # per reachable square with the side card (side to move only)
    attack: int = 8  # per enemy piece one's cards attack
    advance: int = 10  # per step the enemy master is farther from its goal than ours
    danger: int = 12  # per enemy piece next to one's own master
    centre: int = 4  # per student on the nine centre squares
    tempo: int = 10  # the side to move's bonus


DEFAULT_WEIGHTS = Weights()
MATERIAL_ONLY = Weights(mobility=0, side_mobility=0, attack=0, advance=4, danger=0, centre=0, tempo=0)


# (own, opp, om, pm, c1, c2, p1, p2, side, col) -> score for the side to move.
Evaluator = Callable[[int, int, int, int, int, int, int, int, int, int], int]
# A node as Searcher.search takes it: (own, opp, om, pm, c1, c2, p1, p2, side, col, hash).
Node = tuple[int, int, int, int, int, int, int, int, int, int, int]


def make_evaluator(w: Weights) -> Evaluator:
    """An evaluation function (side to move's point of view) with the given weights."""
    st, mob, smob, att, adv, dng, cen, tempo = (
        w.student,
        w.mobility,
        w.side_mobility,
        w.attack,
        w.advance,
        w.danger,
        w.centre,
        w.tempo,
    )
    dist, near, centre = DIST, NEAR, CENTRE

    def evaluate(own: int, opp: int, om: int, pm: int, c1: int, c2: int, p1: int, p2: int, side: int, col: int) -> int:
        oc = own.bit_count()
        pc = opp.bit_count()
        score = st * (oc - pc) + tempo
        if mob or att or smob:
            d = DEST[col]
            a1, a2, a3 = d[c1], d[c2], d[side]
            e = DEST[1 - col]
            b1, b2 = e[p1], e[p2]
            notown, notopp = ~own, ~opp
            m_own = m_opp = m_side = 0
            reach_own = reach_opp = 0
            bb = own
            while bb:
                low = bb & -bb
                s = low.bit_length() - 1
                bb ^= low
                r = (a1[s] | a2[s]) & notown
                reach_own |= r
                m_own += r.bit_count()
                m_side += (a3[s] & notown).bit_count()
            bb = opp
            while bb:
                low = bb & -bb
                s = low.bit_length() - 1
                bb ^= low
                r = (b1[s] | b2[s]) & notopp
                reach_opp |= r
                m_opp += r.bit_count()
            score += mob * (m_own - m_opp) + smob * m_side
            score += att * ((reach_own & opp).bit_count() - (reach_opp & own).bit_count())
        if adv:
            score += adv * (dist[pm][ENEMY_ARCH[1 - col]] - dist[om][ENEMY_ARCH[col]])
        if dng:
            score += dng * ((near[pm] & own).bit_count() - (near[om] & opp).bit_count())
        if cen:
            score += cen * (((own & centre) & ~(1 << om)).bit_count() - ((opp & centre) & ~(1 << pm)).bit_count())
        return score

    return evaluate


# --- the search ----------------------------------------------------------------------------


def encode(card: int, src: int, dst: int) -> int:
    """A move as an int: card << 10 | src << 5 | dst (a pass has src = dst = 31)."""
    return card << 10 | src << 5 | dst


def move_text(move: int) -> str:
    """The move text of an encoded move (``boar:c1c2``, ``boar:pass``)."""
    card, src, dst = move >> 10, move >> 5 & 31, move & 31
    if src == PASS:
        return CARD_NAMES[card] + ":pass"
    return "%s:%s%s" % (CARD_NAMES[card], SQUARE_NAMES[src], SQUARE_NAMES[dst])


class Searcher:
    """One search: a fresh table, history and counters, a node budget and an optional time cap."""

    def __init__(
        self, *, max_nodes: int, max_depth: int = 64, deadline: float | None = None, weights: Weights = DEFAULT_WEIGHTS
    ) -> None:
        self.max_nodes = max_nodes
        self.max_depth = max_depth
        self.deadline = deadline
        self.evaluate = make_evaluator(weights)
        self.tt: dict[int, tuple[int, int, int, int]] = {}
        self.history = [[0] * 1024 for _ in range(2)]
        self.nodes = 0
        self.limit = 1 << 62  # nodes at which to abort; off during the depth-1 iteration
        self.depth_reached = 0

    # Flags of the table entries.
    EXACT, LOWER, UPPER = 0, 1, 2

    def _tick(self) -> None:
        if self.nodes >= self.limit:
            raise SearchAborted
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise SearchAborted

    def moves(self, own: int, c1: int, c2: int, col: int) -> list[int]:
        """All moves (encoded) of the side with pieces ``own`` and cards c1, c2."""
        d = DEST[col]
        t1, t2 = d[c1], d[c2]
        k1, k2 = c1 << 10, c2 << 10
        out = []
        notown = ~own
        bb = own
        while bb:
            low = bb & -bb
            s = low.bit_length() - 1
            bb ^= low
            base1 = k1 | s << 5
            base2 = k2 | s << 5
            r = t1[s] & notown
            while r:
                lo = r & -r
                r ^= lo
                out.append(base1 | (lo.bit_length() - 1))
            r = t2[s] & notown
            while r:
                lo = r & -r
                r ^= lo
                out.append(base2 | (lo.bit_length() - 1))
        if not out:
            out = [k1 | PASS << 5 | PASS, k2 | PASS << 5 | PASS]
        return out

    @staticmethod
    def wins_now(own: int, om: int, pm: int, c1: int, c2: int, col: int) -> bool:
        """Whether the side to move can win with this move (master capture or arch)."""
        back = DEST[1 - col]
        if (back[c1][pm] | back[c2][pm]) & own:
            return True
        arch = 1 << ENEMY_ARCH[col]
        d = DEST[col]
        return bool((d[c1][om] | d[c2][om]) & arch & ~own)

    @staticmethod
    def winning_moves(own: int, om: int, pm: int, c1: int, c2: int, col: int) -> list[int]:
        """The moves that win at once, encoded, in card, source, destination order."""
        d = DEST[col]
        out = []
        for k in sorted((c1, c2)):
            bb = own
            while bb:
                low = bb & -bb
                s = low.bit_length() - 1
                bb ^= low
                r = d[k][s] & ~own
                if r >> pm & 1:
                    out.append(encode(k, s, pm))
                elif s == om and r >> ENEMY_ARCH[col] & 1:
                    out.append(encode(k, s, ENEMY_ARCH[col]))
        return out

    def search(
        self,
        own: int,
        opp: int,
        om: int,
        pm: int,
        c1: int,
        c2: int,
        p1: int,
        p2: int,
        side: int,
        col: int,
        h: int,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
    ) -> int:
        """Negamax value of the node, from the side to move (fail-soft)."""
        if depth <= 0:
            return self.qsearch(own, opp, om, pm, c1, c2, p1, p2, side, col, alpha, beta, ply, 0)
        self.nodes += 1
        if self.nodes >= self.limit or not self.nodes & 1023:
            self._tick()
        back = DEST[1 - col]
        if (back[c1][pm] | back[c2][pm]) & own:
            return WIN - ply
        d = DEST[col]
        if (d[c1][om] | d[c2][om]) >> ENEMY_ARCH[col] & 1 and not own >> ENEMY_ARCH[col] & 1:
            return WIN - ply
        # Mate distance pruning: nothing here can beat a win at the next ply.
        if alpha >= WIN - ply - 2:
            return alpha
        entry = self.tt.get(h)
        tt_move = -1
        if entry is not None:
            e_depth, e_flag, e_score, tt_move = entry
            if e_depth >= depth:
                if e_score > MATE_BOUND:
                    e_score -= ply
                elif e_score < -MATE_BOUND:
                    e_score += ply
                if e_flag == 0:
                    return e_score
                if e_flag == 1:
                    if e_score >= beta:
                        return e_score
                elif e_score <= alpha:
                    return e_score
        moves = self.moves(own, c1, c2, col)
        hist = self.history[col]
        if len(moves) > 1:
            keyed = []
            for m in moves:
                if m == tt_move:
                    keyed.append((1 << 40, m))
                elif opp >> (m & 31) & 1:
                    keyed.append((1 << 30 | hist[m & 1023], m))
                else:
                    keyed.append((hist[m & 1023], m))
            keyed.sort(reverse=True)
            moves = [m for _, m in keyed]
        alpha0 = alpha
        best = -INF
        best_move = moves[0]
        nxt = 1 - col
        zmove, zmmove, zcards = Z_MOVE[col], Z_MMOVE[col], Z_CARDS[col]
        zcap = Z_PIECE[nxt]
        first = True
        for m in moves:
            card = m >> 10
            other = c2 if card == c1 else c1
            src = m >> 5 & 31
            ch = h ^ zcards[card][side]
            if src == PASS:
                nown, nopp, nom = own, opp, om
            else:
                dst = m & 31
                bit = 1 << dst
                nown = own ^ (1 << src) ^ bit
                ch ^= zmove[src][dst]
                nopp = opp
                if opp & bit:
                    nopp = opp ^ bit
                    ch ^= zcap[dst]
                nom = om
                if src == om:
                    nom = dst
                    ch ^= zmmove[src][dst]
            if first:
                score = -self.search(
                    nopp, nown, pm, nom, p1, p2, other, side, card, nxt, ch, depth - 1, -beta, -alpha, ply + 1
                )
                first = False
            else:
                score = -self.search(
                    nopp, nown, pm, nom, p1, p2, other, side, card, nxt, ch, depth - 1, -alpha - 1, -alpha, ply + 1
                )
                if alpha < score < beta:
                    score = -self.search(
                        nopp, nown, pm, nom, p1, p2, other, side, card, nxt, ch, depth - 1, -beta, -score, ply + 1
                    )
            if score > best:
                best = score
                best_move = m
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if not opp >> (m & 31) & 1:
                            hist[m & 1023] += depth * depth
                        break
        stored = best
        if stored > MATE_BOUND:
            stored += ply
        elif stored < -MATE_BOUND:
            stored -= ply
        flag = 1 if best >= beta else (0 if best > alpha0 else 2)
        self.tt[h] = (depth, flag, stored, best_move)
        return best

    def qsearch(
        self,
        own: int,
        opp: int,
        om: int,
        pm: int,
        c1: int,
        c2: int,
        p1: int,
        p2: int,
        side: int,
        col: int,
        alpha: int,
        beta: int,
        ply: int,
        checks: int,
    ) -> int:
        """Quiescence: forced replies to a winning threat, else stand pat or capture."""
        self.nodes += 1
        if self.nodes >= self.limit or not self.nodes & 1023:
            self._tick()
        back = DEST[1 - col]
        if (back[c1][pm] | back[c2][pm]) & own:
            return WIN - ply
        d = DEST[col]
        arch = ENEMY_ARCH[col]
        if (d[c1][om] | d[c2][om]) >> arch & 1 and not own >> arch & 1:
            return WIN - ply
        # Does the opponent threaten to win on its next move?
        threatened = bool((d[p1][om] | d[p2][om]) & opp)
        if not threatened:
            my_arch = ENEMY_ARCH[1 - col]
            threatened = bool((back[p1][pm] | back[p2][pm]) >> my_arch & 1 and not opp >> my_arch & 1)
        nxt = 1 - col
        if threatened:
            if checks >= QS_CHECK_LIMIT:
                return self.evaluate(own, opp, om, pm, c1, c2, p1, p2, side, col)
            moves = self.moves(own, c1, c2, col)
            best = -INF
        else:
            best = self.evaluate(own, opp, om, pm, c1, c2, p1, p2, side, col)
            if best >= beta:
                return best
            if best > alpha:
                alpha = best
            t1, t2 = d[c1], d[c2]
            moves = []
            bb = own
            while bb:
                low = bb & -bb
                s = low.bit_length() - 1
                bb ^= low
                r = t1[s] & opp
                while r:
                    lo = r & -r
                    r ^= lo
                    moves.append(c1 << 10 | s << 5 | (lo.bit_length() - 1))
                r = t2[s] & opp
                while r:
                    lo = r & -r
                    r ^= lo
                    moves.append(c2 << 10 | s << 5 | (lo.bit_length() - 1))
            if not moves:
                return best
        for m in moves:
            card = m >> 10
            other = c2 if card == c1 else c1
            src = m >> 5 & 31
            if src == PASS:
                nown, nopp, nom = own, opp, om
            else:
                dst = m & 31
                bit = 1 << dst
                nown = own ^ (1 << src) ^ bit
                nopp = opp & ~bit
                nom = dst if src == om else om
            score = -self.qsearch(
                nopp, nown, pm, nom, p1, p2, other, side, card, nxt, -beta, -alpha, ply + 1, checks + threatened
            )
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best


def play(
    own: int, opp: int, om: int, pm: int, c1: int, c2: int, p1: int, p2: int, side: int, col: int, h: int, m: int
) -> Node:
    """The child node (same argument order as ``Searcher.search``) after encoded move ``m``."""
    card = m >> 10
    other = c2 if card == c1 else c1
    src = m >> 5 & 31
    nxt = 1 - col
    ch = h ^ Z_CARDS[col][card][side]
    if src == PASS:
        return (opp, own, pm, om, p1, p2, other, side, card, nxt, ch)
    dst = m & 31
    bit = 1 << dst
    nown = own ^ (1 << src) ^ bit
    ch ^= Z_MOVE[col][src][dst]
    nopp = opp
    if opp & bit:
        nopp = opp ^ bit
        ch ^= Z_PIECE[nxt][dst]
        if dst == pm:
            ch ^= Z_MASTER[nxt][dst]
            pm = -1
    nom = om
    if src == om:
        nom = dst
        ch ^= Z_MMOVE[col][src][dst]
    return (nopp, nown, pm, nom, p1, p2, other, side, card, nxt, ch)


@dataclass(frozen=True)
class Level:
    """A level's budget: nodes, maximum depth, root noise (score units) and evaluation."""

    nodes: int
    max_depth: int
    noise: int
    weights: Weights = DEFAULT_WEIGHTS


@dataclass
class SearchResult:
    move: int
    score: int
    depth: int
    nodes: int
    seconds: float

    @property
    def text(self) -> str:
        return move_text(self.move)


def search_position(
    red: int,
    blue: int,
    red_master: int,
    blue_master: int,
    red_hand: Sequence[int],
    blue_hand: Sequence[int],
    side: int,
    turn: int,
    *,
    level: Level,
    seed: int,
    seconds: float | None = None,
) -> SearchResult:
    """Choose a move for the side to move of a running position.

    Deterministic in (position, level, seed) unless ``seconds`` cuts the search short.
    A winning move is played at once; the depth-1 iteration is always finished,
    so the move never allows an avoidable win in one for the opponent.
    """
    start = time.monotonic()
    col = turn
    if col == RED:
        own, opp, om, pm, hand, ohand = red, blue, red_master, blue_master, red_hand, blue_hand
    else:
        own, opp, om, pm, hand, ohand = blue, red, blue_master, red_master, blue_hand, red_hand
    c1, c2 = sorted(hand)
    p1, p2 = sorted(ohand)
    s = Searcher(
        max_nodes=level.nodes,
        max_depth=level.max_depth,
        deadline=None if seconds is None else start + seconds,
        weights=level.weights,
    )
    stream = SeedStream(seed, "bot/onitama")

    wins = s.winning_moves(own, om, pm, c1, c2, col)
    if wins:
        # Every win is equally short; which one is a seeded choice.
        return SearchResult(stream.choice(wins), WIN - 1, 1, 0, time.monotonic() - start)

    red_first, red_second = red_hand
    blue_first, blue_second = blue_hand
    h = zobrist_of(red, blue, red_master, blue_master, (red_first, red_second), (blue_first, blue_second), side, turn)
    root = s.moves(own, c1, c2, col)
    # Seeded order: decides between equally good moves and the noise of the low levels.
    stream.shuffle(root)
    noise = {m: (stream.below(2 * level.noise + 1) - level.noise if level.noise else 0) for m in root}
    margin = 2 * level.noise

    scores: dict[int, int] = {}
    best_move, best_score, depth_done = root[0], -INF, 0

    def child(m: int) -> Node:
        return play(own, opp, om, pm, c1, c2, p1, p2, side, col, h, m)

    children = {m: child(m) for m in root}
    for depth in range(1, max(1, level.max_depth) + 1):
        # The depth-1 iteration always runs to its end (it sees every loss in one).
        s.limit = (1 << 62) if depth == 1 else level.nodes
        saved_deadline = s.deadline
        if depth == 1:
            s.deadline = None
        it_scores: dict[int, int] = {}
        it_best_move, it_best = root[0], -INF
        try:
            for m in root:
                threshold = it_best - margin if it_best > -INF else -INF
                if it_best > -INF and margin == 0:
                    score = -s.search(*children[m], depth - 1, -it_best - 1, -it_best, 1)
                    if score > it_best:
                        score = -s.search(*children[m], depth - 1, -INF, -score + 1, 1)
                else:
                    score = -s.search(*children[m], depth - 1, -INF, -threshold, 1)
                it_scores[m] = score
                if score > it_best:
                    it_best, it_best_move = score, m
        except SearchAborted:
            s.deadline = saved_deadline
            # A partial iteration counts (without noise) once the previous best, searched
            # first, has its new value: the best of the finished moves is at least as good.
            if margin == 0 and root[0] in it_scores:
                best_move, best_score = it_best_move, it_best
            break
        s.deadline = saved_deadline
        scores, best_move, best_score, depth_done = it_scores, it_best_move, it_best, depth
        s.depth_reached = depth
        # Put the best move first for the next iteration (stable for the rest).
        root.sort(key=lambda m: m != best_move)
        if abs(best_score) > MATE_BOUND and WIN - abs(best_score) <= depth + 1:
            break  # a proven result within the full-width horizon: the shortest win
        if s.nodes >= level.nodes:
            break
    if margin and scores:
        # Noise only among moves whose exact scores lie within reach of the best one;
        # a proven loss is never preferred to a move that is not lost.
        top = max(scores.values())
        pool = [m for m in root if m in scores and scores[m] > top - margin and not (scores[m] < -MATE_BOUND < top)]
        if abs(top) > MATE_BOUND:
            # A proven result: the shortest win, or the longest resistance, without noise.
            pool = [m for m in pool if scores[m] == top]
        best_move = max(pool, key=lambda m: scores[m] + noise[m])
        best_score = scores[best_move]
    return SearchResult(best_move, best_score, depth_done, s.nodes, time.monotonic() - start)


def choose_onitama(view: Mapping[str, Any], *, level: int, seed: int, seconds: float | None = None) -> str:
    """Move text for the side to move of an Onitama view (``{"position": text, ...}``).

    The chosen move is checked by the engine's rules (``parse_move``) before it is returned.
    """
    from ..errors import StateFormatError
    from ..onitama import RULES, position_from_text
    from . import ONITAMA_LEVELS

    position = view.get("position")
    if view.get("game", "onitama") != "onitama" or not isinstance(position, str):
        raise StateFormatError("bad_view", "An Onitama view holds the position text under 'position'")
    state = position_from_text(position)
    if RULES.outcome(state) is not None or view.get("outcome") is not None:
        raise StateFormatError("game_over", "The game is over: there is no move to choose", position=position)
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
        seconds=seconds,
    )
    text = result.text
    RULES.parse_move(state, text)  # raises IllegalMoveError if the search were ever wrong
    return text
