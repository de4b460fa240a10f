"""The Onitama state value and the position text.

Position text (the rulings' FEN-like line)::

    <board> <red hand> <blue hand> <side card> <to move>

board: ranks 5 down to 1 joined by '/', each rank from file a to file e; R/r
red master/student, B/b blue master/student, digits 1-5 for runs of empty
squares. Hands: two card names joined by ',' (either order on input,
alphabetical on output). Side card: one name. To move: r or b.

>>> s = position_from_text("bbBbb/5/5/5/rrRrr ox,boar horse,elephant crab b")
>>> position_text(s)
'bbBbb/5/5/5/rrRrr boar,ox elephant,horse crab b'
>>> s.turn, s.red_master, s.outcome
(1, 2, None)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core import GameState, Outcome
from ..errors import StateFormatError
from .cards import BLUE, BLUE_ARCH, CARD_ID, CARD_NAMES, COLOURS, DATA_VERSION, POOLS, RED, RED_ARCH
from .fast import zobrist_of

Key = tuple[int, int, int, int, tuple[int, int], tuple[int, int], int, int]


@dataclass(frozen=True)
class OnitamaState(GameState):
    """An immutable Onitama position with the history the repetition rule needs.

    Fields a bot reads: ``red``/``blue`` (25-bit sets of all pieces of a colour,
    masters included; square = file + 5 * rank, a1 = 0), ``red_master``/
    ``blue_master`` (squares, -1 once captured), ``red_hand``/``blue_hand``
    (sorted pairs of card ids, see ``cards.CARD_NAMES``), ``side`` (card id),
    ``turn`` (0 red, 1 blue: the colour whose turn it is; after the game ends it
    names the side that would have moved next), ``zobrist`` (64-bit hash of the
    position, hands as sets, updated incrementally), ``ply`` (decisions played).

    ``history`` holds the exact keys (``key``) of the positions since the last
    capture, oldest first, ending with this one: a capture removes a piece for
    good, so no earlier position can come back. ``outcome`` is None while the
    game runs. ``cards`` is the card pool option, ``data_version`` the card data.
    """

    red: int
    blue: int
    red_master: int
    blue_master: int
    red_hand: tuple[int, int]
    blue_hand: tuple[int, int]
    side: int
    turn: int
    ply: int = 0
    zobrist: int = 0
    history: tuple[Key, ...] = ()
    outcome: Outcome | None = None
    cards: str = "base"
    data_version: str = DATA_VERSION

    @property
    def key(self) -> Key:
        """What the repetition rule compares: pieces, both hands (sorted), side card, turn."""
        return (
            self.red,
            self.blue,
            self.red_master,
            self.blue_master,
            self.red_hand,
            self.blue_hand,
            self.side,
            self.turn,
        )

    @property
    def to_play(self) -> str:
        """``"red"`` or ``"blue"``: whose turn it is (ignores whether the game is over)."""
        return COLOURS[self.turn]

    def hand(self, colour: int) -> tuple[int, int]:
        """The hand (card ids) of colour 0 (red) or 1 (blue)."""
        return self.blue_hand if colour else self.red_hand

    def hand_names(self, colour: int) -> list[str]:
        """The card names of a colour's hand, alphabetical."""
        return [CARD_NAMES[c] for c in self.hand(colour)]


def make_state(
    red: int,
    blue: int,
    red_master: int,
    blue_master: int,
    red_hand: tuple[int, int],
    blue_hand: tuple[int, int],
    side: int,
    turn: int,
    *,
    ply: int = 0,
    history: tuple[Key, ...] | None = None,
    outcome: Outcome | None = None,
    cards: str = "base",
    data_version: str = DATA_VERSION,
) -> OnitamaState:
    """Build a state, sorting hands, computing the hash and (by default) a fresh history."""
    red_hand = tuple(sorted(red_hand))  # type: ignore[assignment]
    blue_hand = tuple(sorted(blue_hand))  # type: ignore[assignment]
    key = (red, blue, red_master, blue_master, red_hand, blue_hand, side, turn)
    return OnitamaState(
        red,
        blue,
        red_master,
        blue_master,
        red_hand,
        blue_hand,
        side,
        turn,
        ply,
        zobrist_of(red, blue, red_master, blue_master, red_hand, blue_hand, side, turn),
        (key,) if history is None else history,
        outcome,
        cards,
        data_version,
    )


def board_outcome(red_master: int, blue_master: int) -> Outcome | None:
    """The win the board shows (a master gone, or on the enemy arch), else None."""
    if blue_master < 0:
        return Outcome("red", "master_captured")
    if red_master < 0:
        return Outcome("blue", "master_captured")
    if red_master == BLUE_ARCH:
        return Outcome("red", "temple_reached")
    if blue_master == RED_ARCH:
        return Outcome("blue", "temple_reached")
    return None


def pool_of(card_ids: list[int]) -> str:
    """The smallest card pool option that holds all these cards."""
    names = {CARD_NAMES[c] for c in card_ids}
    for pool in ("base", "senseis_path"):
        if names <= set(POOLS[pool]):
            return pool
    return "mixed"


def _bad(message: str, **params: object) -> StateFormatError:
    return StateFormatError("bad_position", message, **params)


def _card(name: str, text: str) -> int:
    if name not in CARD_ID:
        raise _bad("Unknown card %r in the position" % name, card=name, position=text)
    return CARD_ID[name]


def _hand(word: str, who: str, text: str) -> tuple[int, int]:
    names = word.split(",")
    if len(names) != 2:
        raise _bad("%s's hand must be two card names joined by ',' (got %r)" % (who, word), position=text)
    a, b = (_card(n, text) for n in names)
    return (a, b) if a < b else (b, a)


def parse_position(text: str) -> tuple[int, int, int, int, tuple[int, int], tuple[int, int], int, int]:
    """Read position text into (red, blue, red_master, blue_master, red_hand, blue_hand,
    side, turn); StateFormatError with a readable message when it is malformed."""
    if not isinstance(text, str):
        raise _bad("A position must be text", position=repr(text))
    words = text.split()
    if len(words) != 5:
        raise _bad(
            "A position has five parts: board, red hand, blue hand, side card, r or b (got %d)" % len(words),
            position=text,
        )
    board, red_word, blue_word, side_word, turn_word = words
    ranks = board.split("/")
    if len(ranks) != 5:
        raise _bad("The board has five ranks separated by '/' (got %d)" % len(ranks), position=text)
    red = blue = 0
    red_master = blue_master = -1
    red_count = blue_count = 0
    for row, rank_text in enumerate(ranks):
        rank = 4 - row
        file = 0
        for ch in rank_text:
            if ch in "12345":
                file += int(ch)
                continue
            if ch not in "rRbB":
                raise _bad("Unexpected %r on rank %d: use R r B b or digits 1-5" % (ch, rank + 1), position=text)
            if file >= 5:
                raise _bad("Rank %d has more than five squares (%r)" % (rank + 1, rank_text), position=text)
            bit = 1 << (file + 5 * rank)
            if ch in "rR":
                red |= bit
                red_count += 1
                if ch == "R":
                    if red_master >= 0:
                        raise _bad("Red has two masters", position=text)
                    red_master = file + 5 * rank
            else:
                blue |= bit
                blue_count += 1
                if ch == "B":
                    if blue_master >= 0:
                        raise _bad("Blue has two masters", position=text)
                    blue_master = file + 5 * rank
            file += 1
        if file != 5:
            raise _bad("Rank %d does not hold exactly five squares (%r)" % (rank + 1, rank_text), position=text)
    if red_count > 5 or blue_count > 5:
        raise _bad("A side has at most five pieces (four students and the master)", position=text)
    if red_count - (red_master >= 0) > 4 or blue_count - (blue_master >= 0) > 4:
        raise _bad("A side has at most four students", position=text)
    if red_master < 0 and blue_master < 0:
        raise _bad("Both masters are missing", position=text)
    red_hand = _hand(red_word, "Red", text)
    blue_hand = _hand(blue_word, "Blue", text)
    side = _card(side_word, text)
    if len({*red_hand, *blue_hand, side}) != 5:
        raise _bad("The five cards in play must all be different", position=text)
    if turn_word not in ("r", "b"):
        raise _bad("The side to move is r or b (got %r)" % turn_word, position=text)
    turn = RED if turn_word == "r" else BLUE
    # Both sides winning at once cannot arise in play (one master may capture the
    # other on its arch: that is a single win).
    if (blue_master < 0 or red_master == BLUE_ARCH) and (red_master < 0 or blue_master == RED_ARCH):
        raise _bad("The board shows a win for both sides", position=text)
    won = board_outcome(red_master, blue_master)
    if won is not None and won.winner == COLOURS[turn]:
        raise _bad(
            "%s has already won, so it cannot be %s's turn" % (won.winner.capitalize(), won.winner), position=text
        )
    return red, blue, red_master, blue_master, red_hand, blue_hand, side, turn


def position_from_text(text: str) -> OnitamaState:
    """A state (fresh history, ply 0) from position text.

    The card pool recorded in the state is the smallest pool holding the five
    cards. A finished board (a master gone or on the enemy arch) gives a
    finished state.
    """
    red, blue, rm, bm, rh, bh, side, turn = parse_position(text)
    return make_state(
        red, blue, rm, bm, rh, bh, side, turn, outcome=board_outcome(rm, bm), cards=pool_of([*rh, *bh, side])
    )


def board_rows(red: int, blue: int, red_master: int, blue_master: int) -> list[str]:
    """The board as five strings, rank 5 first, files a..e: R r B b, '.' when empty."""
    rows = []
    for rank in range(4, -1, -1):
        row = ""
        for sq in range(5 * rank, 5 * rank + 5):
            row += (
                ("R" if sq == red_master else "r")
                if red >> sq & 1
                else ("B" if sq == blue_master else "b")
                if blue >> sq & 1
                else "."
            )
        rows.append(row)
    return rows


_EMPTY_RUN = re.compile(r"\.+")


def _board_text(red: int, blue: int, red_master: int, blue_master: int) -> str:
    return "/".join(
        _EMPTY_RUN.sub(lambda m: str(len(m.group())), row) for row in board_rows(red, blue, red_master, blue_master)
    )


def key_text(key: Key) -> str:
    """Position text of a history key."""
    red, blue, rm, bm, rh, bh, side, turn = key
    return "%s %s %s %s %s" % (
        _board_text(red, blue, rm, bm),
        ",".join(CARD_NAMES[c] for c in rh),
        ",".join(CARD_NAMES[c] for c in bh),
        CARD_NAMES[side],
        "rb"[turn],
    )


def position_text(state: OnitamaState) -> str:
    """The position text of a state (hands alphabetical)."""
    return key_text(state.key)
