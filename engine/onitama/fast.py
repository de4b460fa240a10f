"""Fast move generation, perft and Zobrist hashing for Onitama (no history, no checks).

This is the layer a search (bot) stands on. A *node* is a plain tuple seen
from the side to move::

    (own, opp, own_master, opp_master, own_hand, opp_hand, side, colour, zobrist)

``own``/``opp`` are 25-bit sets of all pieces of the side to move / the other
side (masters included), ``own_master``/``opp_master`` the masters' squares
(-1 once captured), ``own_hand``/``opp_hand`` pairs of card ids, ``side`` the
side card's id, ``colour`` the side to move (0 red, 1 blue) and ``zobrist``
the position's 64-bit hash (see ``zobrist_of``).

``node_moves(node)`` lists the moves as ``(card, src, dst)`` int triples (a
pass is ``(card, -1, -1)``) in the engine's fixed order; ``node_play(node,
move)`` returns ``(child, won)`` where ``won`` tells that the move just won the
game (master captured or master on the enemy arch), updating the hash
incrementally. Neither checks legality nor knows about repetition.

>>> from engine.onitama import RULES, position_from_text
>>> state = position_from_text("bbBbb/5/5/5/rrRrr boar,ox elephant,horse crab r")
>>> node = node_of(state)
>>> len(node_moves(node)), perft_node(node, 2)
(10, 130)
>>> child, won = node_play(node, node_moves(node)[0])
>>> after = RULES.apply(state, RULES.legal_moves(state)[0])
>>> won, child[8] == after.zobrist, node_of(after)[:4] == child[:4]
(False, True, True)
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from .cards import BLUE, CARD_NAMES, DEST, ENEMY_ARCH, RED

if TYPE_CHECKING:
    from .state import OnitamaState

Node = tuple[int, int, int, int, tuple[int, int], tuple[int, int], int, int, int]
FastMove = tuple[int, int, int]


def _key(label: str) -> int:
    return int.from_bytes(hashlib.sha256(("onitama/zobrist/" + label).encode()).digest()[:8], "big")


Z_PIECE = tuple(tuple(_key("piece/%d/%d" % (c, sq)) for sq in range(25)) for c in (RED, BLUE))
"""Zobrist key of any piece of colour c on a square (student or master)."""
Z_MASTER = tuple(tuple(_key("master/%d/%d" % (c, sq)) for sq in range(25)) for c in (RED, BLUE))
"""Extra key of colour c's master on a square."""
Z_CARD = tuple(tuple(_key("card/%d/%d" % (h, card)) for card in range(len(CARD_NAMES))) for h in range(3))
"""Key of a card held by red (0), blue (1) or lying aside (2); a hand hashes as a set."""
Z_BLUE_TO_MOVE = _key("blue-to-move")


def zobrist_of(
    red: int,
    blue: int,
    red_master: int,
    blue_master: int,
    red_hand: tuple[int, int],
    blue_hand: tuple[int, int],
    side: int,
    colour: int,
) -> int:
    """The 64-bit hash of a position (absolute colours), computed from scratch.

    Equal for equal positions (hands compared as sets); XOR of the keys above.
    """
    h = Z_BLUE_TO_MOVE if colour == BLUE else 0
    for colour_, bb, master in ((RED, red, red_master), (BLUE, blue, blue_master)):
        keys = Z_PIECE[colour_]
        while bb:
            low = bb & -bb
            h ^= keys[low.bit_length() - 1]
            bb ^= low
        if master >= 0:
            h ^= Z_MASTER[colour_][master]
    for holder, hand in ((RED, red_hand), (BLUE, blue_hand)):
        for card in hand:
            h ^= Z_CARD[holder][card]
    return h ^ Z_CARD[2][side]


def node_of(state: OnitamaState) -> Node:
    """The node of a state (seen from its side to move)."""
    if state.turn == RED:
        return (
            state.red,
            state.blue,
            state.red_master,
            state.blue_master,
            state.red_hand,
            state.blue_hand,
            state.side,
            RED,
            state.zobrist,
        )
    return (
        state.blue,
        state.red,
        state.blue_master,
        state.red_master,
        state.blue_hand,
        state.red_hand,
        state.side,
        BLUE,
        state.zobrist,
    )


def node_moves(node: Node) -> list[FastMove]:
    """All moves of the side to move: cards in id (= alphabetical) order, then source
    square, then destination square, ascending; the two passes when nothing moves."""
    own = node[0]
    table = DEST[node[7]]
    moves: list[FastMove] = []
    for card in sorted(node[4]):
        dests_of = table[card]
        bb = own
        while bb:
            low = bb & -bb
            src = low.bit_length() - 1
            bb ^= low
            dests = dests_of[src] & ~own
            while dests:
                dlow = dests & -dests
                moves.append((card, src, dlow.bit_length() - 1))
                dests ^= dlow
    if not moves:
        moves = [(card, -1, -1) for card in sorted(node[4])]
    return moves


def node_play(node: Node, move: FastMove) -> tuple[Node, bool]:
    """``(child, won)``: the node after ``move`` and whether that move won the game."""
    own, opp, om, pm, oh, ph, side, colour, h = node
    card, src, dst = move
    other = oh[1] if oh[0] == card else oh[0]
    zc = Z_CARD
    h ^= Z_BLUE_TO_MOVE ^ zc[colour][card] ^ zc[2][card] ^ zc[2][side] ^ zc[colour][side]
    won = False
    if src >= 0:
        zp = Z_PIECE[colour]
        bit = 1 << dst
        own = own ^ (1 << src) ^ bit
        h ^= zp[src] ^ zp[dst]
        if opp & bit:
            opp ^= bit
            h ^= Z_PIECE[1 - colour][dst]
            if dst == pm:
                h ^= Z_MASTER[1 - colour][dst]
                pm = -1
                won = True
        if src == om:
            zm = Z_MASTER[colour]
            h ^= zm[src] ^ zm[dst]
            om = dst
            if dst == ENEMY_ARCH[colour]:
                won = True
    return (opp, own, pm, om, ph, (other, side), card, 1 - colour, h), won


def perft_node(node: Node, depth: int) -> int:
    """Leaves of the move tree below ``node`` (see ``engine.onitama.perft``); the node
    must be a running game's (``perft`` checks that)."""
    if depth <= 0:
        return 1
    own, opp, om, pm, oh, ph, side, colour, _ = node
    return _perft(own, opp, om, pm, oh[0], oh[1], ph, side, colour, depth)


def _perft(
    own: int, opp: int, om: int, pm: int, c1: int, c2: int, ph: tuple[int, int], side: int, colour: int, depth: int
) -> int:
    """Perft of a running game's node, ``depth >= 1``, bulk-counting the last ply."""
    table = DEST[colour]
    t1 = table[c1]
    t2 = table[c2]
    notown = ~own
    if depth == 1:
        n = 0
        bb = own
        while bb:
            low = bb & -bb
            src = low.bit_length() - 1
            bb ^= low
            n += (t1[src] & notown).bit_count() + (t2[src] & notown).bit_count()
        return n or 2
    depth -= 1
    arch = ENEMY_ARCH[colour]
    nxt = 1 - colour
    p1, p2 = ph
    total = 0
    moved = False
    for card, other, dests_of in ((c1, c2, t1), (c2, c1, t2)):
        bb = own
        while bb:
            low = bb & -bb
            src = low.bit_length() - 1
            bb ^= low
            dests = dests_of[src] & notown
            if not dests:
                continue
            moved = True
            rest = own ^ low
            is_master = src == om
            while dests:
                dlow = dests & -dests
                dests ^= dlow
                dst = dlow.bit_length() - 1
                if dst == pm:
                    total += 1
                elif is_master:
                    if dst == arch:
                        total += 1
                    else:
                        total += _perft(opp & ~dlow, rest | dlow, pm, dst, p1, p2, (other, side), card, nxt, depth)
                else:
                    total += _perft(opp & ~dlow, rest | dlow, pm, om, p1, p2, (other, side), card, nxt, depth)
    if not moved:
        total = _perft(opp, own, pm, om, p1, p2, (c2, side), c1, nxt, depth) + _perft(
            opp, own, pm, om, p1, p2, (c1, side), c2, nxt, depth
        )
    return total
