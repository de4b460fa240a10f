"""``OnitamaRules``: the ``engine.core.GameRules`` implementation of Onitama.

>>> from engine.onitama import RULES
>>> state = RULES.new_game(7, {"cards": "base"})
>>> RULES.reveal(7) == {"red": state.hand_names(0), "blue": state.hand_names(1),
...                    "side": RULES.view(state, None)["side"], "first": RULES.to_move(state)}
True
>>> move = RULES.parse_move(state, RULES.move_text(RULES.legal_moves(state)[0]))
>>> RULES.apply(state, move).ply
1
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from ..core import GameMove, GameState, JSONObject, MoveParts, MovePreview, Outcome
from ..errors import IllegalMoveError, MoveSyntaxError, OptionsError, StateFormatError
from ..fair import SeedStream, check_seed
from .cards import (
    BLUE,
    CARD_ID,
    CARD_NAMES,
    COLOURS,
    DATA_VERSION,
    DEST,
    OFFSETS,
    POOLS,
    RED,
    STAMP,
    square_index,
    square_name,
    squares_of,
)
from .fast import node_moves, node_of, node_play
from .state import OnitamaState, board_outcome, board_rows, key_text, make_state, parse_position, position_text

CARD_POOLS = ("base", "senseis_path", "mixed")
ENGINE_REASONS = ("master_captured", "temple_reached", "repetition")
_MOVE_RE = re.compile(r"^([a-z_]+):(.*)$")
_REASON_RE = re.compile(r"^[a-z][a-z_]*$")
START_RED = 0b11111  # a1..e1
START_BLUE = 0b11111 << 20  # a5..e5


class Move(NamedTuple):
    """A decision: play ``card`` moving the piece on square ``src`` to ``dst``
    (square indices, a1 = 0 ... e5 = 24), or give ``card`` away when no move
    exists (a pass: ``src`` and ``dst`` are None)."""

    card: str
    src: int | None = None
    dst: int | None = None

    @property
    def is_pass(self) -> bool:
        return self.src is None


def _illegal(code: str, message: str, **params: Any) -> IllegalMoveError:
    return IllegalMoveError(code, message, **params)


def _names(move: Move, square: str | None) -> bool:
    """Whether ``move`` names ``square`` as its from or to (None: a pass, which names none)."""
    if move.src is None or move.dst is None:
        return square is None
    return square in (square_name(move.src), square_name(move.dst))


def _own(state: GameState) -> OnitamaState:
    """``state`` as an Onitama state; a TypeError for another game's state."""
    if not isinstance(state, OnitamaState):
        raise TypeError("not an Onitama state: %s" % type(state).__name__)
    return state


class OnitamaRules:
    """Onitama as ``GameRules[OnitamaState, Move]`` (stateless; use ``engine.onitama.RULES``)."""

    name = "onitama"
    players = ("red", "blue")
    hidden_information = False

    # -- setup -----------------------------------------------------------------
    def normalize_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """``{"cards": "base" | "senseis_path" | "mixed"}``, default base."""
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise OptionsError("bad_options", "Game options must be a mapping of names to values")
        unknown = sorted(str(k) for k in options if k != "cards")
        if unknown:
            raise OptionsError(
                "unknown_option",
                "Onitama has no option %s (its only option is 'cards')" % ", ".join(repr(k) for k in unknown),
                option=unknown[0],
            )
        cards = options.get("cards", "base")
        if cards not in CARD_POOLS:
            raise OptionsError(
                "bad_cards", "The card pool must be base, senseis_path or mixed (got %r)" % (cards,), value=str(cards)
            )
        return {"cards": cards}

    def _check_data_version(self, data_version: str | None) -> str:
        if data_version is not None and data_version != DATA_VERSION:
            raise OptionsError(
                "bad_data_version",
                "Unknown Onitama data version %r (this engine knows %r)" % (data_version, DATA_VERSION),
                data_version=str(data_version),
            )
        return DATA_VERSION

    def _deal(self, seed: int, options: Mapping[str, Any] | None) -> tuple[str, list[str]]:
        pool_name = self.normalize_options(options)["cards"]
        pool = list(POOLS[pool_name])  # alphabetical
        SeedStream(check_seed(seed), "onitama/deal").shuffle(pool)
        return pool_name, pool[:5]

    def reveal(self, seed: int, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """``{"red": [a, b], "blue": [c, d], "side": e, "first": "red" | "blue"}``."""
        _, dealt = self._deal(seed, options)
        return {
            "red": sorted(dealt[0:2]),
            "blue": sorted(dealt[2:4]),
            "side": dealt[4],
            "first": COLOURS[STAMP[CARD_ID[dealt[4]]]],
        }

    def new_game(
        self, seed: int, options: Mapping[str, Any] | None = None, *, data_version: str | None = None
    ) -> OnitamaState:
        """The starting position of the deal (see the package docstring)."""
        version = self._check_data_version(data_version)
        pool_name, dealt = self._deal(seed, options)
        ids = [CARD_ID[n] for n in dealt]
        return make_state(
            START_RED,
            START_BLUE,
            2,
            22,
            (ids[0], ids[1]),
            (ids[2], ids[3]),
            ids[4],
            STAMP[ids[4]],
            cards=pool_name,
            data_version=version,
        )

    def data_version(self, state: GameState) -> str:
        return _own(state).data_version

    # -- play ------------------------------------------------------------------
    def to_move(self, state: GameState) -> str | None:
        state = _own(state)
        return None if state.outcome is not None else COLOURS[state.turn]

    def legal_moves(self, state: GameState) -> list[Move]:
        """Cards alphabetically, then source square, then destination square (a1 = 0
        ... e5 = 24, i.e. rank-major from a1); when no move exists, the two passes
        (card given, alphabetically). Empty once the game is over."""
        state = _own(state)
        if state.outcome is not None:
            return []
        return [
            Move(CARD_NAMES[c], None if s < 0 else s, None if d < 0 else d) for c, s, d in node_moves(node_of(state))
        ]

    def _check(self, state: OnitamaState, card: int, src: int | None, dst: int | None) -> None:
        """Raise IllegalMoveError (with a helpful message) unless the move is legal."""
        if state.outcome is not None:
            raise _illegal("game_over", "The game is over", move=self._text(card, src, dst))
        colour = state.turn
        hand = state.hand(colour)
        name = CARD_NAMES[card]
        if card not in hand:
            raise _illegal(
                "not_in_hand",
                "%s is not in your hand: you hold %s and %s" % (name, CARD_NAMES[hand[0]], CARD_NAMES[hand[1]]),
                card=name,
                hand=[CARD_NAMES[c] for c in hand],
            )
        own = state.blue if colour else state.red
        if src is None:
            moves = node_moves(node_of(state))
            if moves[0][1] >= 0:
                example = self._text(*moves[0])
                raise _illegal(
                    "must_move",
                    "You cannot pass while you have a legal move (for example %s)" % example,
                    card=name,
                    example=example,
                )
            return
        assert dst is not None
        if not own >> src & 1:
            raise _illegal("not_your_piece", "You have no piece on %s" % square_name(src), square=square_name(src))
        reach = DEST[colour][card][src]
        if not reach >> dst & 1:
            free = [square_name(s) for s in squares_of(reach & ~own)]
            raise _illegal(
                "unreachable",
                "%s cannot move a piece from %s to %s (%s)"
                % (
                    name,
                    square_name(src),
                    square_name(dst),
                    "from there it can go to " + ", ".join(free) if free else "it has no move from there",
                ),
                card=name,
                src=square_name(src),
                dst=square_name(dst),
            )
        if own >> dst & 1:
            raise _illegal("own_piece", "%s holds one of your own pieces" % square_name(dst), square=square_name(dst))

    def _coerce(self, move: Any) -> tuple[int, int | None, int | None]:
        """(card id, src, dst) of a move value; IllegalMoveError when it is not a move at all."""
        if not isinstance(move, tuple) or len(move) != 3:
            raise _illegal("bad_move", "Not a move: %r" % (move,))
        card, src, dst = move
        if not isinstance(card, str) or card not in CARD_ID:
            raise _illegal("unknown_card", "%r is not a card of this game" % (card,), card=str(card))

        def square(value: Any) -> bool:
            return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 25

        if not ((src is None and dst is None) or (square(src) and square(dst))):
            raise _illegal("bad_move", "Not a move: %r (squares are 0..24, or both None for a pass)" % (move,))
        return CARD_ID[card], src, dst

    def apply(self, state: GameState, move: GameMove) -> OnitamaState:
        """The state after ``move``; IllegalMoveError when it is not legal now."""
        state = _own(state)
        card, src, dst = self._coerce(move)
        self._check(state, card, src, dst)
        child, won = node_play(node_of(state), (card, -1 if src is None else src, -1 if dst is None else dst))
        if child[7] == RED:
            red, blue, rm, bm, rh, bh = child[0], child[1], child[2], child[3], child[4], child[5]
        else:
            blue, red, bm, rm, bh, rh = child[0], child[1], child[2], child[3], child[4], child[5]
        if rh[0] > rh[1]:
            rh = (rh[1], rh[0])
        if bh[0] > bh[1]:
            bh = (bh[1], bh[0])
        key = (red, blue, rm, bm, rh, bh, child[6], child[7])
        captured = (red | blue).bit_count() != (state.red | state.blue).bit_count()
        history = (key,) if captured else state.history + (key,)
        outcome: Outcome | None = None
        if won:
            outcome = board_outcome(rm, bm)
        elif history.count(key) >= 3:
            outcome = Outcome(None, "repetition")
        return OnitamaState(
            red,
            blue,
            rm,
            bm,
            rh,
            bh,
            child[6],
            child[7],
            state.ply + 1,
            child[8],
            history,
            outcome,
            state.cards,
            state.data_version,
        )

    @staticmethod
    def _text(card: int, src: int | None, dst: int | None) -> str:
        if src is None or src < 0:
            return CARD_NAMES[card] + ":pass"
        assert dst is not None
        return "%s:%s%s" % (CARD_NAMES[card], square_name(src), square_name(dst))

    def move_text(self, move: GameMove) -> str:
        """``boar:c1c2``, or ``boar:pass``."""
        card, src, dst = self._coerce(move)
        return self._text(card, src, dst)

    def move_parts(self, move: GameMove) -> MoveParts:
        """``{"type": "move", "card": "boar", "from": "c1", "to": "c2"}``, or
        ``{"type": "pass", "card": "boar"}``."""
        card, src, dst = self._coerce(move)
        if src is None or dst is None:
            return {"type": "pass", "card": CARD_NAMES[card]}
        return {"type": "move", "card": CARD_NAMES[card], "from": square_name(src), "to": square_name(dst)}

    def parse_move(self, state: GameState, text: str) -> Move:
        """Read ``<card>:<from><to>`` or ``<card>:pass``.

        MoveSyntaxError codes: ``not_text``, ``bad_syntax``, ``unknown_card``,
        ``bad_square``. IllegalMoveError codes: ``game_over``, ``not_in_hand``,
        ``must_move``, ``not_your_piece``, ``unreachable``, ``own_piece``.
        """
        state = _own(state)
        if not isinstance(text, str):
            raise MoveSyntaxError("not_text", "A move must be text", value=repr(text))
        text = text.strip()
        match = _MOVE_RE.match(text)
        if match is None:
            raise MoveSyntaxError(
                "bad_syntax", "Write a move as card:fromto (like boar:c1c2) or card:pass (got %r)" % text, text=text
            )
        name, rest = match.groups()
        if name not in CARD_ID:
            raise MoveSyntaxError("unknown_card", "There is no card called %r" % name, card=name)
        if rest == "pass":
            src = dst = None
        else:
            try:
                if len(rest) != 4:
                    raise KeyError(rest)
                src, dst = square_index(rest[:2]), square_index(rest[2:])
            except KeyError:
                raise MoveSyntaxError(
                    "bad_square",
                    "After %s: write two squares a1-e5 like c1c2, or the word pass (got %r)" % (name, rest),
                    text=text,
                ) from None
        self._check(state, CARD_ID[name], src, dst)
        return Move(name, src, dst)

    def outcome(self, state: GameState) -> Outcome | None:
        state = _own(state)
        return state.outcome

    def terminate(self, state: GameState, *, reason: str, winner: str | None) -> OnitamaState:
        """End a running game by a site decision: ``reason="agreement"`` (a draw,
        ``winner=None``) or another site reason such as ``"resign"``/``"timeout"``
        with the ``winner``."""
        state = _own(state)
        if state.outcome is not None:
            raise _illegal("game_over", "The game is already over")
        if not isinstance(reason, str) or not _REASON_RE.match(reason) or reason in ENGINE_REASONS:
            raise OptionsError("bad_reason", "%r cannot end a game from outside" % (reason,), reason=str(reason))
        if winner is not None and winner not in self.players:
            raise OptionsError("unknown_player", "Unknown player %r" % (winner,), player=str(winner))
        if reason == "agreement" and winner is not None:
            raise OptionsError("bad_winner", "A game ended by agreement is a draw")
        return OnitamaState(
            state.red,
            state.blue,
            state.red_master,
            state.blue_master,
            state.red_hand,
            state.blue_hand,
            state.side,
            state.turn,
            state.ply,
            state.zobrist,
            state.history,
            Outcome(winner, reason),
            state.cards,
            state.data_version,
        )

    def random_move(self, state: GameState, stream: SeedStream) -> Move:
        """``legal_moves(state)[stream.below(len(moves))]``."""
        state = _own(state)
        moves = self.legal_moves(state)
        if not moves:
            raise _illegal("game_over", "The game is over")
        return moves[stream.below(len(moves))]

    def move_previews(self, state: GameState) -> list[MovePreview]:
        """What each legal move does, by ``apply`` (Onitama hides nothing). ``effects``:
        ``type`` (``move``/``pass``), ``card``, for a move ``from``, ``to``, ``piece``
        (``master``/``student``) and ``captures`` (None or ``{"square", "piece"}``);
        ``receives`` (the side card, which joins the mover's hand) and ``ends`` (None, or
        the outcome the move brings: ``{"winner", "reason", "scores"}``, reason
        ``master_captured``, ``temple_reached`` or ``repetition``)."""
        return self._previews(_own(state), self.legal_moves(state))

    def move_previews_at(self, state: GameState, square: str | None) -> list[MovePreview]:
        """``move_previews`` of the moves from or to ``square`` (None: the passes)."""
        state = _own(state)
        moves = [m for m in self.legal_moves(state) if _names(m, square)]
        return self._previews(state, moves)

    def _previews(self, state: OnitamaState, moves: list[Move]) -> list[MovePreview]:
        red = state.turn == RED
        own_master = state.red_master if red else state.blue_master
        enemy_master = state.blue_master if red else state.red_master
        enemy = state.blue if red else state.red
        out = []
        for move in moves:
            after = self.apply(state, move)
            effects: JSONObject = {"type": "pass" if move.is_pass else "move", "card": move.card}
            if move.src is not None and move.dst is not None:
                captures: JSONObject | None = None
                if enemy >> move.dst & 1:
                    captures = {
                        "square": square_name(move.dst),
                        "piece": "master" if move.dst == enemy_master else "student",
                    }
                effects.update(
                    {
                        "from": square_name(move.src),
                        "to": square_name(move.dst),
                        "piece": "master" if move.src == own_master else "student",
                        "captures": captures,
                    }
                )
            effects["receives"] = CARD_NAMES[state.side]
            effects["ends"] = after.outcome.as_dict() if after.outcome is not None else None
            out.append(MovePreview(move, effects))
        return out

    # -- data ------------------------------------------------------------------
    def to_json(self, state: GameState) -> dict[str, Any]:
        """Schema ``onitama/1`` (see the package docstring)."""
        state = _own(state)
        return {
            "schema": "onitama/1",
            "data_version": state.data_version,
            "options": {"cards": state.cards},
            "position": position_text(state),
            "ply": state.ply,
            "history": [key_text(k) for k in state.history],
            "outcome": state.outcome.as_dict() if state.outcome else None,
        }

    def from_json(self, data: Mapping[str, Any]) -> OnitamaState:
        """Inverse of ``to_json``; StateFormatError on anything inconsistent."""

        def bad(message: str) -> StateFormatError:
            return StateFormatError("bad_state", message)

        if not isinstance(data, Mapping):
            raise bad("An Onitama state is a JSON object")
        if data.get("schema") != "onitama/1":
            raise bad("Unknown state schema %r (expected 'onitama/1')" % (data.get("schema"),))
        expected = {"schema", "data_version", "options", "position", "ply", "history", "outcome"}
        if set(data) != expected:
            raise bad("An onitama/1 state has exactly the keys %s" % ", ".join(sorted(expected)))
        try:
            version = self._check_data_version(data["data_version"])
            cards = self.normalize_options(data["options"])["cards"]
        except OptionsError as error:
            raise bad(error.message) from None
        red, blue, rm, bm, rh, bh, side, turn = parse_position(data["position"])
        if not {CARD_NAMES[c] for c in (*rh, *bh, side)} <= set(POOLS[cards]):
            raise bad("The position's cards are not all in the %s pool" % cards)
        ply = data["ply"]
        if isinstance(ply, bool) or not isinstance(ply, int) or ply < 0:
            raise bad("ply must be a whole number >= 0")
        history_texts = data["history"]
        if not isinstance(history_texts, list) or not history_texts:
            raise bad("history must be a non-empty list of position texts")
        history = tuple(parse_position(t) for t in history_texts)
        key = (red, blue, rm, bm, rh, bh, side, turn)
        if history[-1] != key:
            raise bad("The last history entry must be the current position")
        pieces = (red | blue).bit_count()
        if any((h[0] | h[1]).bit_count() != pieces for h in history):
            raise bad("history holds the positions since the last capture only")
        if len(history) > ply + 1:
            raise bad("history is longer than the game")
        won = board_outcome(rm, bm)
        raw = data["outcome"]
        outcome = None
        if raw is not None:
            if (
                not isinstance(raw, Mapping)
                or set(raw) != {"winner", "reason", "scores"}
                or raw["scores"] is not None
                or raw["winner"] not in (None, *self.players)
                or not isinstance(raw["reason"], str)
            ):
                raise bad("outcome must be null or {winner, reason, scores: null}")
            outcome = Outcome(raw["winner"], raw["reason"])
        if won is not None and outcome != won:
            raise bad("The board shows %s winning by %s, the outcome disagrees" % (won.winner, won.reason))
        if won is None and outcome is not None and outcome.reason in ("master_captured", "temple_reached"):
            raise bad("The outcome says %s but the board shows no win" % outcome.reason)
        if (
            outcome is not None
            and outcome.reason == "repetition"
            and (outcome.winner is not None or history.count(key) < 3)
        ):
            raise bad("A repetition draw needs the position three times in the history")
        if outcome is not None and outcome.reason == "agreement" and outcome.winner is not None:
            raise bad("A game ended by agreement is a draw")
        return make_state(
            red,
            blue,
            rm,
            bm,
            rh,
            bh,
            side,
            turn,
            ply=ply,
            history=history,
            outcome=outcome,
            cards=cards,
            data_version=version,
        )

    def view(self, state: GameState, player: str | None) -> dict[str, Any]:
        """The public table (Onitama hides nothing after the deal; never the seed)."""
        state = _own(state)
        if player is not None and player not in self.players:
            raise OptionsError("unknown_player", "Unknown player %r" % (player,), player=str(player))
        board = board_rows(state.red, state.blue, state.red_master, state.blue_master)
        in_play = sorted(CARD_NAMES[c] for c in (*state.red_hand, *state.blue_hand, state.side))
        return {
            "game": "onitama",
            "player": player,
            "position": position_text(state),
            "board": board,
            "hands": {"red": state.hand_names(RED), "blue": state.hand_names(BLUE)},
            "side": CARD_NAMES[state.side],
            "to_move": self.to_move(state),
            "ply": state.ply,
            "outcome": state.outcome.as_dict() if state.outcome else None,
            "cards": {
                n: {"moves": [list(o) for o in OFFSETS[CARD_ID[n]]], "stamp": COLOURS[STAMP[CARD_ID[n]]]}
                for n in in_play
            },
            "options": {"cards": state.cards},
            "data_version": state.data_version,
        }

    def summary(self, state: GameState) -> str:
        """The board drawn with rank and file labels, the hands, side card and whose turn."""
        state = _own(state)
        rows = board_rows(state.red, state.blue, state.red_master, state.blue_master)
        lines = ["%d  %s" % (5 - i, " ".join(row)) for i, row in enumerate(rows)]
        lines.append("   a b c d e")
        lines.append(
            "red: %s   blue: %s   side: %s"
            % (", ".join(state.hand_names(RED)), ", ".join(state.hand_names(BLUE)), CARD_NAMES[state.side])
        )
        if state.outcome is None:
            lines.append("to move: %s (ply %d)" % (COLOURS[state.turn], state.ply))
        else:
            lines.append(
                "over after ply %d: %s (%s)" % (state.ply, state.outcome.winner or "draw", state.outcome.reason)
            )
        return "\n".join(lines)

    def result_line(self, state: GameState) -> str:
        """``result: red``, ``result: blue``, ``result: draw`` or ``result: unfinished``."""
        state = _own(state)
        if state.outcome is None:
            return "result: unfinished"
        return "result: " + (state.outcome.winner or "draw")
