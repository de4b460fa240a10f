"""Onitama: rules, notation, perft and the fast move generator.

Public API: ``RULES`` (the ``GameRules`` object, also ``engine.get_game("onitama")``),
``perft(position, depth)``, ``position_from_text(text)``, ``position_text(state)``,
``OnitamaState``, ``Move``; for searches the node functions of ``engine.onitama.fast``.

>>> start = position_from_text("bbBbb/5/5/5/rrRrr boar,ox elephant,horse crab r")
>>> [perft(start, d) for d in (1, 2, 3)]
[10, 130, 1989]
>>> move = RULES.parse_move(start, "boar:c1c2")
>>> position_text(RULES.apply(start, move))
'bbBbb/5/5/2R2/rr1rr crab,ox elephant,horse boar b'

Deal (a fairness contract: anyone holding the revealed seed can recompute it)
-----------------------------------------------------------------------------
1. ``pool`` = the names of the chosen pool's cards (option ``cards``: ``base``,
   ``senseis_path``, or ``mixed`` = both), sorted alphabetically (Python string
   order; ``sea_snake`` sorts as written).
2. ``SeedStream(seed, "onitama/deal").shuffle(pool)`` (``engine.fair``: SHA-256
   blocks of seed || "onitama/deal" || counter, Fisher-Yates from the end).
3. Red takes ``pool[0]`` and ``pool[1]``, Blue ``pool[2]`` and ``pool[3]``, the
   side card is ``pool[4]``. The first player is the colour of the side card's stamp.
The pieces start as usual: students on a-b and d-e of ranks 1 (Red) and 5
(Blue), masters on c1 and c5. No other draw is ever made from the seed.

Moves
-----
A ``Move`` is ``(card, src, dst)`` with square indices ``file + 5 * rank``
(a1 = 0, e1 = 4, a5 = 20); a pass is ``(card, None, None)``. Move text is
``<card>:<from><to>`` (``boar:c1c2``) or ``<card>:pass``. ``legal_moves`` lists
cards alphabetically, then source square ascending, then destination square
ascending; when no move exists it lists the two passes (card given,
alphabetically). ``RULES.move_parts(move)`` gives the same as data:
``{"type": "move", "card": "boar", "from": "c1", "to": "c2"}`` or
``{"type": "pass", "card": "boar"}``. Using (or giving) a card puts it aside and the side card
joins the mover's hand.

End: capturing the enemy master (reason ``master_captured``; it takes
precedence when a master captures the other on its arch) or one's master
reaching the enemy arch (Red's on c5, Blue's on c1: ``temple_reached``) wins.
The third occurrence of a position (pieces, hands as sets, side card, side to
move) is a draw (``repetition``). ``RULES.terminate`` ends a game by a site
decision (``agreement``: a draw; ``resign``, ``timeout`` ...: with a winner).

JSON (schema ``onitama/1``)
---------------------------
``{"schema": "onitama/1", "data_version": "onitama-1", "options": {"cards": pool},
"position": <position text>, "ply": <decisions played>, "history": [<position
texts since the last capture, oldest first, the current position last>],
"outcome": null | {"winner": "red" | "blue" | null, "reason": ..., "scores": null}}``.
``from_json(to_json(state)) == state`` exactly. Onitama keeps no secret after
the deal, so the JSON holds no seed; ``view`` is the public table.

Perft
-----
``perft(position, depth)`` counts leaves: depth 0 or a finished game (master
captured or on the enemy arch) is one leaf; a pass node has two children;
repetition is not applied and the side to move is the one the position names.
"""

from __future__ import annotations

from ..core import GameRules
from .cards import CARD_NAMES, DATA_VERSION, POOLS
from .fast import node_moves, node_of, node_play, perft_node, zobrist_of
from .rules import Move, OnitamaRules
from .state import OnitamaState, board_outcome, position_from_text, position_text

RULES = OnitamaRules()
_CONTRACT: GameRules = RULES  # the type checker proves here that Onitama implements the contract


def perft(position: OnitamaState, depth: int) -> int:
    """Leaves of the move tree of ``position`` to ``depth`` plies (rulings' definition).

    >>> perft(position_from_text("bbBbb/5/5/5/rrRrr rooster,tiger cobra,rabbit frog r"), 2)
    72
    """
    if depth < 0:
        raise ValueError("depth must be >= 0")
    if board_outcome(position.red_master, position.blue_master) is not None:
        return 1
    return perft_node(node_of(position), depth)


__all__ = [
    "RULES",
    "OnitamaRules",
    "OnitamaState",
    "Move",
    "perft",
    "position_from_text",
    "position_text",
    "CARD_NAMES",
    "POOLS",
    "DATA_VERSION",
    "node_of",
    "node_moves",
    "node_play",
    "zobrist_of",
]
