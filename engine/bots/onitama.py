"""The Onitama bot: negamax alpha-beta search over a private, fast search board.

Search (all scores from the side to move, in hundredths of a student):

- iterative deepening, principal variation search (null windows after the
  first move), fail-soft alpha-beta;
- a node is a few ints: both sides' 25-bit piece sets, the masters' squares, a
  *card configuration* and a 62-bit Zobrist-style hash. The five cards of a
  game never change, so the ways they can lie (who holds which two, which one is
  aside, whose turn it is: 60 configurations) are numbered once per card set, and
  everything a node needs that depends on the cards (destination masks, the next
  configuration after each card is played, the hash change, the squares from
  which each side attacks a square, the evaluation tables) is one tuple per
  configuration (``CardTables``);
- a fixed-size two-tier transposition table per search (two flat lists of
  ints: a depth-preferred and an always-replace slot per bucket), keyed by the
  full hash; an entry packs score, bound, depth and best move into one int.
  Proven results (a won or lost score with a bound that proves it) are trusted
  at any depth. No table outlives its search: the same position, level and
  seed give the same move whatever the process searched before;
- move ordering: a winning move ends the node before any move is generated
  (see below), then the table's move (tried before the others are generated),
  then captures, then quiet moves (two killer moves per ply first, then by the
  history heuristic), each group generated only when the one before did not cut
  off; a piece's moves are looked up by its square and the set of squares it
  reaches (``moves_by_mask``);
- late move reductions: from a remaining depth of 3, the quiet moves after the
  first two are searched a ply shallower first, and again at full depth when
  they beat alpha; never when the side to move is threatened with a loss in one;
- every node first asks whether the side to move wins at once (captures the
  enemy master or walks its master onto the enemy's arch with one of its two
  cards); if so the node is worth ``WIN - ply``, so proven wins are played as
  the shortest win and proven losses are delayed as long as possible;
- at depth 0 a quiescence search: when the opponent threatens to win (master
  capture or temple arch) the side to move may not stand pat and every reply
  is searched (a bounded number of times in a row); otherwise stand pat on the
  evaluation or try captures;
- evaluation: per-configuration, per-square tables (looked up five board rows
  at a time, no loop over pieces): material, the squares each piece reaches
  with its side's two cards (and, for the side to move, with the side card it
  takes next), centre students, the masters' distance to the enemy arch and a
  tempo bonus; plus enemy pieces next to one's own master and enemy pieces each
  side attacks (per-row unions of the attacked squares; a few bit counts).
  The tables are derived from the weights of ``Weights`` (the mobility terms
  count a piece's reachable squares on an empty board).

The search is deterministic when the budget is a number of nodes (and a
maximum depth): the same position, level and seed give the same move. With
``seconds`` the search runs in time-only mode: no node cap, it stops when the
time is up (then the move can differ from run to run). The draw by threefold
repetition is ignored: a view carries no history.

Cards: the search reads ``engine.onitama.cards.DEST`` (destination masks per
colour, card and square); squares are ``file + 5 * rank`` (a1 = 0).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..fair import SeedStream
from ..onitama.cards import CARD_NAMES, DEST, SQUARE_NAMES
from ..onitama.fast import Z_BLUE_TO_MOVE, Z_CARD, Z_MASTER, Z_PIECE, zobrist_of
from ..onitama.state import OnitamaState

BUILD_SOURCE_DIGEST = ""
"""Empty in the source. The compiled build (tools/compiled_search.py, README "Compiled search")
sets it to the SHA-256 of the source it compiled, so that ``engine.bots`` can tell a build
older than its source and load the source instead."""

BOT_VERSION = "onitama-2"
"""Version of the Onitama bot's search and evaluation: any change that can change a
chosen move (search, evaluation, level budgets) gets a new version, so that cached
figures computed with another version (fair play) are computed again."""

WIN = 100_000
"""Score of a won position; a win in ``p`` plies from the root scores ``WIN - p``."""
INF = 1_000_000
MATE_BOUND = WIN - 1000
"""Scores beyond +-MATE_BOUND are proven wins or losses."""

RED, BLUE = 0, 1
ARCH = (2, 22)  # c1 (Red's own arch), c5 (Blue's own arch)
ENEMY_ARCH = (22, 2)  # where the master of colour c wins
PASS = 31  # src/dst code of a pass
PASS_LOW = PASS << 5 | PASS  # the low ten bits of an encoded pass
QS_CHECK_LIMIT = 4  # forced replies in a row inside the quiescence search
LMR_DEPTH = 3  # late move reductions from this remaining depth on
LMR_AFTER = 2  # quiet moves searched at full depth before the reduced ones
NCARDS = len(CARD_NAMES)
FULL = (1 << 25) - 1


class SearchAborted(Exception):
    """Raised inside the search when the node budget or the time runs out."""


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
# The search's own hash is the engine's shifted right by two bits (62 bits: a small int
# for a compiled build); XOR commutes with the shift, so the keys below are shifted too.
ZSHIFT = 2
# Per colour, indexed by the low ten bits of an encoded move (src << 5 | dst).
Z_MOVE_FLAT = tuple(
    tuple((Z_MOVE[c][i >> 5][i & 31] >> ZSHIFT) if (i >> 5) < 25 and (i & 31) < 25 else 0 for i in range(1024))
    for c in (RED, BLUE)
)
Z_MMOVE_FLAT = tuple(
    tuple((Z_MMOVE[c][i >> 5][i & 31] >> ZSHIFT) if (i >> 5) < 25 and (i & 31) < 25 else 0 for i in range(1024))
    for c in (RED, BLUE)
)
Z_PIECE_SHIFTED = tuple(tuple(z >> ZSHIFT for z in Z_PIECE[c]) for c in (RED, BLUE))


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
    mobility: int = 3  # per square a piece reaches with the two cards in hand (empty board)
    attack: int = 8  # per enemy piece one's cards attack
    side_mobility: int = 1  # per square a piece reaches with the side card (side to move only)
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
# A node of the search itself: (own, opp, om, pm, configuration, 62-bit hash).
FastNode = tuple[int, int, int, int, int, int]
Ints = tuple[int, ...]
# Everything one card configuration holds (see CardTables; unpacked once per node).
Config = tuple[
    Ints, Ints, int, int, int, int, int, int, Ints, int, int, Ints, int, int,
    Ints, Ints, Ints, Ints, int, Ints, Ints, Ints, int, int, int, int, int,
    "MovesByMask", "MovesByMask", Ints, Ints,
]  # fmt: skip
# Per square: a dict from a set of destinations (a subset of the card's) to their encoded moves.
MovesByMask = tuple[dict[int, tuple[int, ...]], ...]


@lru_cache(maxsize=64)
def moves_by_mask(col: int, card: int) -> MovesByMask:
    """For a piece of ``col`` holding ``card``, per square, every subset of the squares it
    reaches mapped to the encoded moves there (destinations ascending): the move generator
    looks a piece's moves up instead of looping over their bits."""
    out = []
    for sq in range(25):
        dests = [d for d in range(25) if DEST[col][card][sq] >> d & 1]
        table: dict[int, tuple[int, ...]] = {}
        for subset in range(1 << len(dests)):
            chosen = [d for i, d in enumerate(dests) if subset >> i & 1]
            table[sum(1 << d for d in chosen)] = tuple(card << 10 | sq << 5 | d for d in chosen)
        out.append(table)
    return tuple(out)


class CardConfig:
    """One card configuration's data, as named attributes (see ``CardTables``): one object
    per configuration, read by the search at each node (a compiled build reads its fields
    directly)."""

    t1: Ints
    t2: Ints
    k1: int
    k2: int
    n1: int
    n2: int
    z1: int
    z2: int
    att: Ints
    af: int
    ta: int
    oatt: Ints
    oaf: int
    ota: int
    evo: Ints
    evp: Ints
    mo: Ints
    mp: Ints
    col: int
    zmove: Ints
    zmm: Ints
    zcap: Ints
    c1: int
    c2: int
    p1: int
    p2: int
    side: int
    mv1: MovesByMask
    mv2: MovesByMask
    ao: Ints
    ap: Ints

    def __init__(self, fields: Config) -> None:
        self.t1 = fields[0]
        self.t2 = fields[1]
        self.k1 = fields[2]
        self.k2 = fields[3]
        self.n1 = fields[4]
        self.n2 = fields[5]
        self.z1 = fields[6]
        self.z2 = fields[7]
        self.att = fields[8]
        self.af = fields[9]
        self.ta = fields[10]
        self.oatt = fields[11]
        self.oaf = fields[12]
        self.ota = fields[13]
        self.evo = fields[14]
        self.evp = fields[15]
        self.mo = fields[16]
        self.mp = fields[17]
        self.col = fields[18]
        self.zmove = fields[19]
        self.zmm = fields[20]
        self.zcap = fields[21]
        self.c1 = fields[22]
        self.c2 = fields[23]
        self.p1 = fields[24]
        self.p2 = fields[25]
        self.side = fields[26]
        self.mv1 = fields[27]
        self.mv2 = fields[28]
        self.ao = fields[29]
        self.ap = fields[30]


def _row_unions(masks: Sequence[int]) -> tuple[int, ...]:
    """Like ``_rows`` for sets: entry ``32 * row + pattern`` is the union of the masks of
    the squares set in it (the squares a row's pieces attack)."""
    out = []
    for row in range(5):
        for pattern in range(32):
            union = 0
            for j in range(5):
                if pattern >> j & 1:
                    union |= masks[5 * row + j]
            out.append(union)
    return tuple(out)


def _rows(values: Sequence[int]) -> tuple[int, ...]:
    """A per-square table as five per-row tables of the 32 patterns of a board row:
    entry ``32 * row + pattern`` is the sum of the values of the squares set in it."""
    out = []
    for row in range(5):
        for pattern in range(32):
            out.append(sum(values[5 * row + j] for j in range(5) if pattern >> j & 1))
    return tuple(out)


class CardTables:
    """The card configurations of one set of five cards, and their tables.

    A configuration is (colour to move, its two cards, the side card); the
    opponent holds the other two. ``index[(col, c1, c2, side)]`` (c1 < c2) is its
    number; ``configs[i]`` is its ``CardConfig``, whose fields (named as in the tuple
    ``_config`` builds) the search reads at each node:

    ``(t1, t2, k1, k2, n1, n2, z1, z2, att, af, ta, oatt, oaf, ota, evo, evp, mo, mp,
    col, zmove, zmm, zcap, c1, c2, p1, p2, side, mv1, mv2, ao, ap)``

    with t1/t2 the destination masks of the mover's cards c1 < c2 (k1/k2 their ids
    shifted into a move code), n1/n2 the configuration after playing c1/c2 and
    z1/z2 the hash change of that; att[sq] the squares from which the mover reaches
    sq with a card in hand, af those from which its master reaches the enemy arch,
    ta that arch's bit; oatt, oaf, ota the same for the opponent; evo/evp the
    per-row tables of the mover's/opponent's pieces, mo/mp the per-square tables
    of the mover's/opponent's master; zmove/zmm/zcap the mover's hash keys; mv1/mv2
    the moves of c1/c2 by square and set of destinations (``moves_by_mask``); ao/ap the
    per-row unions of the squares the mover's/opponent's pieces attack.
    """

    def __init__(self, cards: tuple[int, ...], weights: Weights) -> None:
        cards = tuple(sorted(set(cards)))
        if len(cards) != 5:
            raise ValueError("an Onitama game has five cards")
        self.cards = cards
        self.weights = weights
        keys: list[tuple[int, int, int, int]] = []
        for col in (RED, BLUE):
            for i, c1 in enumerate(cards):
                for c2 in cards[i + 1 :]:
                    for side in cards:
                        if side not in (c1, c2):
                            keys.append((col, c1, c2, side))
        self.index: dict[tuple[int, int, int, int], int] = {key: i for i, key in enumerate(keys)}
        self.configs: tuple[CardConfig, ...] = tuple(CardConfig(self._config(key)) for key in keys)

    def _config(self, key: tuple[int, int, int, int]) -> Config:
        col, c1, c2, side = key
        w = self.weights
        p1, p2 = [c for c in self.cards if c not in (c1, c2, side)]
        nxt = 1 - col
        mine, theirs = DEST[col], DEST[nxt]

        def after(card: int, other: int) -> int:
            a, b = sorted((other, side))
            return self.index_of(nxt, p1, p2, a, b, card)

        att = tuple(theirs[c1][sq] | theirs[c2][sq] for sq in range(25))
        oatt = tuple(mine[p1][sq] | mine[p2][sq] for sq in range(25))
        target, otarget = ENEMY_ARCH[col], ENEMY_ARCH[nxt]
        own_piece = [
            w.student
            + w.mobility * (mine[c1][sq] | mine[c2][sq]).bit_count()
            + w.side_mobility * mine[side][sq].bit_count()
            + (w.centre if CENTRE >> sq & 1 else 0)
            for sq in range(25)
        ]
        opp_piece = [
            -(
                w.student
                + w.mobility * (theirs[p1][sq] | theirs[p2][sq]).bit_count()
                + (w.centre if CENTRE >> sq & 1 else 0)
            )
            for sq in range(25)
        ]
        # A master is one of its side's pieces (counted above) but no centre student;
        # the tempo bonus rides on the mover's master.
        mo = tuple(w.tempo - (w.centre if CENTRE >> sq & 1 else 0) - w.advance * DIST[sq][target] for sq in range(25))
        mp = tuple((w.centre if CENTRE >> sq & 1 else 0) + w.advance * DIST[sq][otarget] for sq in range(25))
        z1 = Z_CARDS[col][c1][side] >> ZSHIFT
        z2 = Z_CARDS[col][c2][side] >> ZSHIFT
        return (
            mine[c1],
            mine[c2],
            c1 << 10,
            c2 << 10,
            after(c1, c2),
            after(c2, c1),
            z1,
            z2,
            att,
            att[target],
            1 << target,
            oatt,
            oatt[otarget],
            1 << otarget,
            _rows(own_piece),
            _rows(opp_piece),
            mo,
            mp,
            col,
            Z_MOVE_FLAT[col],
            Z_MMOVE_FLAT[col],
            Z_PIECE_SHIFTED[nxt],
            c1,
            c2,
            p1,
            p2,
            side,
            moves_by_mask(col, c1),
            moves_by_mask(col, c2),
            _row_unions([mine[c1][sq] | mine[c2][sq] for sq in range(25)]),
            _row_unions([theirs[p1][sq] | theirs[p2][sq] for sq in range(25)]),
        )

    def index_of(self, col: int, c1: int, c2: int, p1: int, p2: int, side: int) -> int:
        """The configuration of colour ``col`` to move with cards c1, c2 (any order),
        the opponent with p1, p2 and ``side`` aside."""
        del p1, p2  # the opponent holds the other two
        a, b = (c1, c2) if c1 < c2 else (c2, c1)
        return self.index[(col, a, b, side)]

    def evaluate(self, own: int, opp: int, om: int, pm: int, cfg: int) -> int:
        """The static evaluation (side to move) of a node in configuration ``cfg``."""
        config = self.configs[cfg]
        evo, evp, mo, mp = config.evo, config.evp, config.mo, config.mp
        score: int = (
            evo[own & 31]
            + evo[32 + (own >> 5 & 31)]
            + evo[64 + (own >> 10 & 31)]
            + evo[96 + (own >> 15 & 31)]
            + evo[128 + (own >> 20)]
            + evp[opp & 31]
            + evp[32 + (opp >> 5 & 31)]
            + evp[64 + (opp >> 10 & 31)]
            + evp[96 + (opp >> 15 & 31)]
            + evp[128 + (opp >> 20)]
            + mo[om]
            + mp[pm]
        )
        dng = self.weights.danger
        if dng:
            score += dng * ((NEAR[pm] & own).bit_count() - (NEAR[om] & opp).bit_count())
        att = self.weights.attack
        if att:
            ao, ap = config.ao, config.ap
            reach_own = (
                ao[own & 31]
                | ao[32 + (own >> 5 & 31)]
                | ao[64 + (own >> 10 & 31)]
                | ao[96 + (own >> 15 & 31)]
                | ao[128 + (own >> 20)]
            )
            reach_opp = (
                ap[opp & 31]
                | ap[32 + (opp >> 5 & 31)]
                | ap[64 + (opp >> 10 & 31)]
                | ap[96 + (opp >> 15 & 31)]
                | ap[128 + (opp >> 20)]
            )
            score += att * ((reach_own & opp).bit_count() - (reach_opp & own).bit_count())
        return score


# Each set of tables holds about 1.5 MB and takes 4 ms to build (27 ms without the compiled
# build): a worker that plays many games keeps the last few deals, not 256 of them (384 MB,
# which a Celery worker filled as the deals went by: +131 % RSS after 1,000 bot moves).
CARD_TABLES_KEPT = 8


@lru_cache(maxsize=CARD_TABLES_KEPT)
def card_tables(cards: tuple[int, ...], weights: Weights = DEFAULT_WEIGHTS) -> CardTables:
    """The (immutable) tables of a sorted set of five cards; a pure function, cached."""
    return CardTables(cards, weights)


def make_evaluator(w: Weights) -> Evaluator:
    """An evaluation function (side to move's point of view) with the given weights."""

    def evaluate(own: int, opp: int, om: int, pm: int, c1: int, c2: int, p1: int, p2: int, side: int, col: int) -> int:
        tables = card_tables(tuple(sorted((c1, c2, p1, p2, side))), w)
        return tables.evaluate(own, opp, om, pm, tables.index_of(col, c1, c2, p1, p2, side))

    return evaluate


# --- the search ---
def encode(card: int, src: int, dst: int) -> int:
    """A move as an int: card << 10 | src << 5 | dst (a pass has src = dst = 31)."""
    return card << 10 | src << 5 | dst


def move_text(move: int) -> str:
    """The move text of an encoded move (``boar:c1c2``, ``boar:pass``)."""
    card, src, dst = move >> 10, move >> 5 & 31, move & 31
    if src == PASS:
        return CARD_NAMES[card] + ":pass"
    return "%s:%s%s" % (CARD_NAMES[card], SQUARE_NAMES[src], SQUARE_NAMES[dst])


# Bounds of the table entries.
EXACT, LOWER, UPPER = 0, 1, 2
TT_MIN_BITS, TT_MAX_BITS = 10, 18
_NO_MOVES: tuple[int, ...] = ()


def table_bits(max_nodes: int) -> int:
    """Buckets (as a power of two) of a search's table: about one per two nodes of the
    budget, from 2**10 to 2**18 (two slots each)."""
    return max(TT_MIN_BITS, min(TT_MAX_BITS, (max(1, max_nodes) // 2).bit_length()))


class Searcher:
    """One search: a fresh fixed-size table, history and counters, a node budget and an
    optional deadline. ``bind`` (or the first search) sets the game's five cards."""

    def __init__(
        self,
        *,
        max_nodes: int,
        max_depth: int = 64,
        deadline: float | None = None,
        weights: Weights = DEFAULT_WEIGHTS,
    ) -> None:
        self.max_nodes = max_nodes
        self.max_depth = max_depth
        self.deadline = deadline
        self.weights = weights
        self.danger = weights.danger
        self.attack = weights.attack
        bits = table_bits(max_nodes)
        self.tt_mask = (1 << bits) - 1
        # Two slots per bucket: 2i keeps the deeper result, 2i + 1 the latest one.
        self.tt_keys: list[int] = [-1] * (2 << bits)
        self.tt_vals: list[int] = [0] * (2 << bits)
        self.history: list[list[int]] = [[0] * 32768 for _ in range(2)]
        # Two killer moves per ply (quiet moves that cut off at that ply lately).
        self.killer1: list[int] = [-1] * 256
        self.killer2: list[int] = [-1] * 256
        self.nodes = 0
        self.limit = 1 << 62  # nodes at which to abort; off during the depth-1 iteration
        self.depth_reached = 0
        self.tables: CardTables | None = None
        self.configs: tuple[CardConfig, ...] = ()

    def bind(self, cards: Sequence[int]) -> CardTables:
        """Use the tables of these five cards (the game's); returns them."""
        key = tuple(sorted(cards))
        if self.tables is None or self.tables.cards != key:
            self.tables = card_tables(key, self.weights)
            self.configs = self.tables.configs
        return self.tables

    def config(self, c1: int, c2: int, p1: int, p2: int, side: int, col: int) -> int:
        """The configuration number of these cards (binding the searcher to them)."""
        return self.bind((c1, c2, p1, p2, side)).index_of(col, c1, c2, p1, p2, side)

    def _tick(self) -> None:
        if self.nodes >= self.limit:
            raise SearchAborted
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise SearchAborted

    @staticmethod
    def moves(own: int, c1: int, c2: int, col: int) -> list[int]:
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

    # --- the public, card-explicit forms (tests, tools) ----------------------------------------

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
        """Negamax value of the node (engine hash ``h``), from the side to move (fail-soft)."""
        cfg = self.config(c1, c2, p1, p2, side, col)
        return self.search_node(own, opp, om, pm, cfg, h >> ZSHIFT, depth, alpha, beta, ply)

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
        cfg = self.config(c1, c2, p1, p2, side, col)
        return self.qsearch_node(own, opp, om, pm, cfg, alpha, beta, ply, checks)

    # --- the search proper -------------------------------------------------------------------

    def search_node(
        self, own: int, opp: int, om: int, pm: int, cfg: int, h: int, depth: int, alpha: int, beta: int, ply: int
    ) -> int:
        """Negamax value of a node in configuration ``cfg`` with 62-bit hash ``h``."""
        if depth <= 0:
            return self.qsearch_node(own, opp, om, pm, cfg, alpha, beta, ply, 0)
        nodes = self.nodes + 1
        self.nodes = nodes
        if nodes >= self.limit or not nodes & 1023:
            self._tick()
        config = self.configs[cfg]
        if config.att[pm] & own:
            return WIN - ply
        if config.af >> om & 1 and not own & config.ta:
            return WIN - ply
        # Mate distance pruning: nothing here can beat a win at the next ply.
        if alpha >= WIN - ply - 2:
            return alpha
        t1 = config.t1
        t2 = config.t2
        k1 = config.k1
        k2 = config.k2
        c1 = config.c1
        keys = self.tt_keys
        vals = self.tt_vals
        i = (h & self.tt_mask) << 1
        tt_move = -1
        if keys[i] == h:
            e = vals[i]
        elif keys[i + 1] == h:
            e = vals[i + 1]
        else:
            e = -1
        if e >= 0:
            tt_move = e & 32767
            e_flag = e >> 15 & 3
            e_score = (e >> 24) - INF
            proven = False
            if e_score > MATE_BOUND:
                e_score -= ply
                proven = e_flag != UPPER
            elif e_score < -MATE_BOUND:
                e_score += ply
                proven = e_flag != LOWER
            if proven or (e >> 17 & 127) >= depth:
                if e_flag == EXACT:
                    return e_score
                if e_flag == LOWER:
                    if e_score >= beta:
                        return e_score
                elif e_score <= alpha:
                    return e_score
            # The table's move, tried before any other is generated (a pass is left to
            # the generator; a move that does not fit the node, after a key collision, too).
            card = tt_move >> 10
            src = tt_move >> 5 & 31
            if (
                src == PASS
                or not (card == c1 or card << 10 == k2)
                or not own >> src & 1
                or not ((t1 if card == c1 else t2)[src] & ~own) >> (tt_move & 31) & 1
            ):
                tt_move = -1
        n1 = config.n1
        n2 = config.n2
        z1 = config.z1
        z2 = config.z2
        zmove = config.zmove
        zmm = config.zmm
        zcap = config.zcap
        mv1 = config.mv1
        mv2 = config.mv2
        hist = self.history[config.col]
        alpha0 = alpha
        best = -INF
        best_move = -1
        moves: Sequence[int] = _NO_MOVES if tt_move < 0 else (tt_move,)
        stage = 0
        first = True
        # Late move reductions: quiet moves after the first LMR_AFTER ones are searched one
        # ply shallower first (when the side to move is not threatened with a loss in one),
        # and again at full depth when they beat alpha.
        late = -(1 << 30)
        while True:
            for m in moves:
                low10 = m & 1023
                if m >> 10 == c1:
                    nc = n1
                    ch = h ^ z1
                else:
                    nc = n2
                    ch = h ^ z2
                if low10 == PASS_LOW:
                    nown, nopp, nom = own, opp, om
                else:
                    src = low10 >> 5
                    dst = m & 31
                    bit = 1 << dst
                    nown = own ^ (1 << src) ^ bit
                    ch ^= zmove[low10]
                    if opp & bit:
                        nopp = opp ^ bit
                        ch ^= zcap[dst]
                    else:
                        nopp = opp
                    if src == om:
                        nom = dst
                        ch ^= zmm[low10]
                    else:
                        nom = om
                if first:
                    score = -self.search_node(nopp, nown, pm, nom, nc, ch, depth - 1, -beta, -alpha, ply + 1)
                    first = False
                else:
                    late += 1
                    if late > LMR_AFTER:
                        score = -self.search_node(nopp, nown, pm, nom, nc, ch, depth - 2, -alpha - 1, -alpha, ply + 1)
                        if score > alpha:
                            score = -self.search_node(
                                nopp, nown, pm, nom, nc, ch, depth - 1, -alpha - 1, -alpha, ply + 1
                            )
                    else:
                        score = -self.search_node(nopp, nown, pm, nom, nc, ch, depth - 1, -alpha - 1, -alpha, ply + 1)
                    if alpha < score < beta:
                        score = -self.search_node(nopp, nown, pm, nom, nc, ch, depth - 1, -beta, -score, ply + 1)
                if score > best:
                    best = score
                    best_move = m
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            if not opp >> (m & 31) & 1:
                                hist[m] += depth * depth
                                if ply < 256 and self.killer1[ply] != m:
                                    self.killer2[ply] = self.killer1[ply]
                                    self.killer1[ply] = m
                            break
            else:
                # No cut-off: the next group of moves.
                if stage == 0:
                    stage = 1
                    moves = _captures(own, opp, t1, t2, mv1, mv2, tt_move)
                    continue
                if stage == 1:
                    stage = 2
                    quiet = _quiets(own, ~(own | opp) & FULL, t1, t2, mv1, mv2, tt_move)
                    if quiet:
                        quiet.sort(key=hist.__getitem__, reverse=True)
                        if ply < 256:
                            kill = self.killer2[ply]
                            if kill >= 0 and kill in quiet:
                                quiet.remove(kill)
                                quiet.insert(0, kill)
                            kill = self.killer1[ply]
                            if kill >= 0 and kill in quiet:
                                quiet.remove(kill)
                                quiet.insert(0, kill)
                        moves = quiet
                        if depth >= LMR_DEPTH and not (
                            config.oatt[om] & opp or (config.oaf >> pm & 1 and not opp & config.ota)
                        ):
                            late = 0
                        continue
                    if best_move < 0:  # nothing moves: the two passes
                        moves = (k1 | PASS_LOW, k2 | PASS_LOW)
                        continue
            break
        stored = best
        if stored > MATE_BOUND:
            stored += ply
        elif stored < -MATE_BOUND:
            stored -= ply
        flag = LOWER if best >= beta else (EXACT if best > alpha0 else UPPER)
        value = (stored + INF) << 24 | depth << 17 | flag << 15 | best_move
        if keys[i] == h:
            vals[i] = value
        elif depth >= (vals[i] >> 17 & 127):
            keys[i + 1] = keys[i]
            vals[i + 1] = vals[i]
            keys[i] = h
            vals[i] = value
        else:
            keys[i + 1] = h
            vals[i + 1] = value
        return best

    def qsearch_node(
        self, own: int, opp: int, om: int, pm: int, cfg: int, alpha: int, beta: int, ply: int, checks: int
    ) -> int:
        """Quiescence of a node in configuration ``cfg``."""
        nodes = self.nodes + 1
        self.nodes = nodes
        if nodes >= self.limit or not nodes & 1023:
            self._tick()
        config = self.configs[cfg]
        if config.att[pm] & own:
            return WIN - ply
        if config.af >> om & 1 and not own & config.ta:
            return WIN - ply
        # Does the opponent threaten to win on its next move?
        threatened = 1 if config.oatt[om] & opp or (config.oaf >> pm & 1 and not opp & config.ota) else 0
        t1 = config.t1
        t2 = config.t2
        mv1 = config.mv1
        mv2 = config.mv2
        moves: Sequence[int]
        if not threatened or checks >= QS_CHECK_LIMIT:
            evo = config.evo
            evp = config.evp
            score = (
                evo[own & 31]
                + evo[32 + (own >> 5 & 31)]
                + evo[64 + (own >> 10 & 31)]
                + evo[96 + (own >> 15 & 31)]
                + evo[128 + (own >> 20)]
                + evp[opp & 31]
                + evp[32 + (opp >> 5 & 31)]
                + evp[64 + (opp >> 10 & 31)]
                + evp[96 + (opp >> 15 & 31)]
                + evp[128 + (opp >> 20)]
                + config.mo[om]
                + config.mp[pm]
            )
            dng = self.danger
            if dng:
                score += dng * ((NEAR[pm] & own).bit_count() - (NEAR[om] & opp).bit_count())
            atk = self.attack
            if atk:
                ao = config.ao
                ap = config.ap
                reach_own = (
                    ao[own & 31]
                    | ao[32 + (own >> 5 & 31)]
                    | ao[64 + (own >> 10 & 31)]
                    | ao[96 + (own >> 15 & 31)]
                    | ao[128 + (own >> 20)]
                )
                reach_opp = (
                    ap[opp & 31]
                    | ap[32 + (opp >> 5 & 31)]
                    | ap[64 + (opp >> 10 & 31)]
                    | ap[96 + (opp >> 15 & 31)]
                    | ap[128 + (opp >> 20)]
                )
                score += atk * ((reach_own & opp).bit_count() - (reach_opp & own).bit_count())
            if threatened:
                return score
            best = score
            if best >= beta:
                return best
            if best > alpha:
                alpha = best
            moves = _captures(own, opp, t1, t2, mv1, mv2, -1)
            if not moves:
                return best
        else:
            best = -INF
            moves = _captures(own, opp, t1, t2, mv1, mv2, -1)
            moves.extend(_quiets(own, ~(own | opp) & FULL, t1, t2, mv1, mv2, -1))
            if not moves:
                moves = (config.k1 | PASS_LOW, config.k2 | PASS_LOW)
        checks += threatened
        n1 = config.n1
        n2 = config.n2
        c1 = config.c1
        for m in moves:
            nc = n1 if m >> 10 == c1 else n2
            low10 = m & 1023
            if low10 == PASS_LOW:
                nown, nopp, nom = own, opp, om
            else:
                src = low10 >> 5
                dst = m & 31
                bit = 1 << dst
                nown = own ^ (1 << src) ^ bit
                nopp = opp & ~bit
                nom = dst if src == om else om
            score = -self.qsearch_node(nopp, nown, pm, nom, nc, -beta, -alpha, ply + 1, checks)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best


def _captures(
    own: int, opp: int, t1: Sequence[int], t2: Sequence[int], mv1: MovesByMask, mv2: MovesByMask, skip: int
) -> list[int]:
    """The captures (encoded) of the pieces ``own`` with the cards of masks t1/t2 (moves by
    mask mv1/mv2), leaving out ``skip``; per piece (ascending), card c1's then c2's."""
    out: list[int] = []
    bb = own
    while bb:
        low = bb & -bb
        bb ^= low
        s = low.bit_length() - 1
        r = t1[s] & opp
        if r:
            out.extend(mv1[s][r])
        r = t2[s] & opp
        if r:
            out.extend(mv2[s][r])
    if skip >= 0 and opp >> (skip & 31) & 1:
        out.remove(skip)
    return out


def _quiets(
    own: int, empty: int, t1: Sequence[int], t2: Sequence[int], mv1: MovesByMask, mv2: MovesByMask, skip: int
) -> list[int]:
    """The moves onto empty squares, like ``_captures``."""
    out: list[int] = []
    bb = own
    while bb:
        low = bb & -bb
        bb ^= low
        s = low.bit_length() - 1
        r = t1[s] & empty
        if r:
            out.extend(mv1[s][r])
        r = t2[s] & empty
        if r:
            out.extend(mv2[s][r])
    if skip >= 0 and empty >> (skip & 31) & 1:
        out.remove(skip)
    return out


def fast_child(node: FastNode, m: int, configs: Sequence[CardConfig]) -> FastNode:
    """The search's child node after encoded move ``m`` (no win test)."""
    own, opp, om, pm, cfg, h = node
    config = configs[cfg]
    if m >> 10 == config.c1:
        nc, ch = config.n1, h ^ config.z1
    else:
        nc, ch = config.n2, h ^ config.z2
    low10 = m & 1023
    if low10 == PASS_LOW:
        return (opp, own, pm, om, nc, ch)
    src, dst = low10 >> 5, m & 31
    bit = 1 << dst
    nown = own ^ (1 << src) ^ bit
    ch ^= config.zmove[low10]
    nopp = opp
    if opp & bit:
        nopp = opp ^ bit
        ch ^= config.zcap[dst]
    nom = om
    if src == om:
        nom = dst
        ch ^= config.zmm[low10]
    return (nopp, nown, pm, nom, nc, ch)


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
    time_only: bool = False,
) -> SearchResult:
    """Choose a move for the side to move of a running position.

    Deterministic in (position, level, seed): the level's node budget stops the search,
    unless ``seconds`` (a wall-time cap) cuts it short. With ``time_only`` the search
    thinks for ``seconds`` instead, with no node cap (the level's depth limit and noise
    still hold).
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
    timed = time_only and seconds is not None
    budget = (1 << 62) if timed else level.nodes
    s = Searcher(
        max_nodes=budget,
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

    cfg = s.config(c1, c2, p1, p2, side, col)
    node: FastNode = (own, opp, om, pm, cfg, h >> ZSHIFT)
    children = {m: fast_child(node, m, s.configs) for m in root}
    for depth in range(1, max(1, level.max_depth) + 1):
        # The depth-1 iteration always runs to its end (it sees every loss in one).
        s.limit = (1 << 62) if depth == 1 else budget
        saved_deadline = s.deadline
        if depth == 1:
            s.deadline = None
        it_scores: dict[int, int] = {}
        it_best_move, it_best = root[0], -INF
        try:
            for m in root:
                threshold = it_best - margin if it_best > -INF else -INF
                if it_best > -INF and margin == 0:
                    score = -s.search_node(*children[m], depth - 1, -it_best - 1, -it_best, 1)
                    if score > it_best:
                        score = -s.search_node(*children[m], depth - 1, -INF, -score + 1, 1)
                else:
                    score = -s.search_node(*children[m], depth - 1, -INF, -threshold, 1)
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
        if s.nodes >= budget:
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


def search_state(
    state: OnitamaState, *, level: Level, seed: int, seconds: float | None = None, time_only: bool = False
) -> SearchResult:
    """``search_position`` for an engine state (its pieces, masters, hands, side and turn)."""
    return search_position(
        state.red,
        state.blue,
        state.red_master,
        state.blue_master,
        state.red_hand,
        state.blue_hand,
        state.side,
        state.turn,
        level=level,
        seed=seed,
        seconds=seconds,
        time_only=time_only,
    )


def search_onitama_view(
    view: Mapping[str, Any], *, level: int, seed: int, seconds: float | None = None, time_only: bool = False
) -> SearchResult:
    """The search's result for the side to move of an Onitama view (``{"position": text, ...}``):
    the one way in for choosing a move and for evaluating a position (engine.bots).

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
    result = search_state(state, level=ONITAMA_LEVELS[level], seed=seed, seconds=seconds, time_only=time_only)
    RULES.parse_move(state, result.text)  # raises IllegalMoveError if the search were ever wrong
    return result


def choose_onitama(
    view: Mapping[str, Any], *, level: int, seed: int, seconds: float | None = None, time_only: bool = False
) -> str:
    """Move text for the side to move of an Onitama view (``{"position": text, ...}``)."""
    return search_onitama_view(view, level=level, seed=seed, seconds=seconds, time_only=time_only).text
