"""The part of a "your turn" mail that says what the opponent just played and what the
player may decide, written once per game, ply and player when the position is reached.

What it says needs the engine: the opponent's last decisions are replayed from the seed
for their words, and the legal decisions listed (Onitama, by card) or summarised
(Maatatahay, the kinds open with an example). ``turn_parts`` renders it, in the active
language, as the plain text and the two HTML fragments the mail's templates print; the
pictures task (correspondence.pictures) stores them sealed beside the player's picture
(they may name what only that player may know, e.g. a drawn favour among their options),
so the mail sweep only unseals and prints them. A mail whose parts are missing renders
them through the same function.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

import engine
from engine import EngineError, replay
from games.labels import decision_kind_label, move_in_words
from games.models import Game, GameKind, Move
from games.rules import SQUARE_PARTS, game_secret, game_state, legal_moves_of

log = logging.getLogger(__name__)


def opponent_moves(game: Game, user_id: int, moves: list[Move]) -> list[dict[str, str]]:
    """The decisions the opponents made since ``user_id``'s last one (``moves``: the
    game's, by ply, their seats loaded): each one's move text, the player and what it did
    in words (from the engine's preview of it, in the position it was made in). Text in
    the active language."""
    recent: list[Move] = []
    for move in reversed(moves):
        if move.seat.user_id == user_id:
            break
        recent.append(move)
    recent.reverse()
    if not recent:
        return []
    rules = engine.get_game(game.kind)
    texts = [m.text for m in moves]
    first = len(moves) - len(recent)  # the moves before the opponents' latest ones
    out = []
    try:
        _salt, seed = game_secret(game)
        state = replay(rules, seed, game.options, texts[:first], data_version=game.data_version or None)
        for move in recent:
            played = rules.parse_move(state, move.text)
            parts = rules.move_parts(played)
            # the previews of the moves naming the move's first square only (engine
            # move_previews_at: equal to move_previews', without every other square's)
            square = next((value for key in SQUARE_PARTS if isinstance(value := parts.get(key), str)), None)
            effects = next(
                (p.effects for p in rules.move_previews_at(state, square) if rules.move_text(p.move) == move.text),
                None,
            )
            out.append(
                {
                    "text": move.text,
                    "player": move.seat.player_name,
                    "words": move_in_words(game.kind, effects) if effects is not None else "",
                }
            )
            state = rules.apply(state, played)
    except EngineError:  # a record the engine no longer reads: the move text alone
        log.warning("game %s: the last moves could not be replayed for the mail", game.pk, exc_info=True)
        return [{"text": m.text, "player": m.seat.player_name, "words": ""} for m in recent]
    return out


def legal_summary(game: Game, *, state: Any = None) -> dict[str, Any]:
    """What the player to move may decide, shortly: Onitama's moves grouped by card
    (``by_card``: card, the moves' squares), Maatatahay's kinds of decision open, each
    with how many and one example (``kinds``)."""
    try:
        legal = legal_moves_of(kind=game.kind, state=state if state is not None else game_state(game))
    except EngineError:
        return {"by_card": [], "kinds": []}
    if game.kind == GameKind.ONITAMA:
        by_card: dict[str, list[str]] = {}
        for move in legal:
            card = str(move.parts.get("card"))
            if move.parts.get("type") == "pass":
                by_card.setdefault(card, []).append("pass")
            else:
                by_card.setdefault(card, []).append("%s%s" % (move.parts.get("from"), move.parts.get("to")))
        return {"by_card": [{"card": card, "moves": moves} for card, moves in by_card.items()], "kinds": []}
    kinds: dict[str, dict[str, Any]] = {}
    for move in legal:
        kind = str(move.parts.get("type"))
        entry = kinds.get(kind)
        if entry is None:  # (the label once per kind, not per legal move: a placement has hundreds)
            entry = kinds[kind] = {"label": decision_kind_label(kind), "count": 0, "example": move.text}
        entry["count"] += 1
    return {"by_card": [], "kinds": list(kinds.values())}


@dataclass(frozen=True)
class TurnParts:
    """The turn section of a "your turn" mail, in one language: ``text`` for the plain-text
    body, ``moves_html`` (what the opponent just played) and ``legal_html`` (the decisions
    open) for the HTML body, each empty when there is nothing to say."""

    text: str
    moves_html: SafeString
    legal_html: SafeString

    def as_dict(self) -> dict[str, str]:
        return {name: str(value) for name, value in asdict(self).items()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TurnParts:
        # the HTML was rendered with autoescaping (turn_parts) before it was sealed
        return cls(
            text=str(data["text"]),
            moves_html=mark_safe(str(data["moves_html"])),  # noqa: S308
            legal_html=mark_safe(str(data["legal_html"])),  # noqa: S308
        )


def turn_parts(game: Game, user_id: int, moves: list[Move], *, state: Any = None) -> TurnParts:
    """The turn section for ``user_id``, to move in ``game`` (``moves``: the game's, by ply,
    their seats loaded; ``state``: the game's engine state when already read), rendered in
    the active language."""
    context = {
        "last_moves": opponent_moves(game, user_id, moves),
        "legal": legal_summary(game, state=state),
    }
    return TurnParts(
        text=render_to_string("correspondence/email/_turn.txt", context),
        moves_html=render_to_string("correspondence/email/_turn_moves.html", context),
        legal_html=render_to_string("correspondence/email/_turn_legal.html", context),
    )
