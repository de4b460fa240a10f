"""Plain data of games, challenges and players as one caller sees them.

Games come from games.selectors (``game_for_viewer`` builds the engine's view for
the viewer); nothing here touches ``Game.state`` or the sealed seed.
"""
from __future__ import annotations

from typing import Any

from games.models import Challenge, Game, Move, Seat
from games.selectors import GamePage


def _me(user: Any) -> int | None:
    return user.pk if user is not None and getattr(user, "is_authenticated", False) else None


def seat_data(seat: Seat, me: int | None) -> dict[str, Any]:
    user = seat.user if seat.user_id is not None else None
    return {"side": seat.side, "position": seat.position,
            "username": user.username if user and not user.is_deleted else None,
            "display_name": user.public_name if user else seat.player_name,
            "bot_level": seat.bot_level, "is_you": me is not None and seat.user_id == me}


def game_summary_data(game: Game, seats: list[Seat], user: Any) -> dict[str, Any]:
    me = _me(user)
    mine = next((s for s in seats if me is not None and s.user_id == me), None)
    to_move = next((s for s in seats if s.side == game.to_move_side), None) if game.to_move_side else None
    result = None
    if game.is_over:
        result = {"winner_side": game.winner_side or None, "reason": game.result_reason,
                  "scores": game.scores}
    return {
        "id": game.pk, "kind": game.kind, "status": game.status, "options": game.options,
        "days_per_move": game.days_per_move, "rated": game.rated, "bot_level": game.bot_level,
        "ply": game.ply, "turn": game.turn,
        "to_move_side": game.to_move_side or None,
        "to_move_username": to_move.user.username if to_move and to_move.user else None,
        "your_side": mine.side if mine else None,
        "your_turn": bool(mine and game.is_active and game.to_move_side == mine.side),
        "deadline": game.deadline, "seats": [seat_data(s, me) for s in seats], "result": result,
        "created_at": game.created_at, "finished_at": game.finished_at,
    }


def move_data(move: Move) -> dict[str, Any]:
    return {"ply": move.ply, "turn": move.turn, "side": move.seat.side, "text": move.text,
            "played_at": move.created_at}


def game_detail_data(page: GamePage, user: Any) -> dict[str, Any]:
    game = page.game
    data = game_summary_data(game, page.seats, user)
    offer = page.draw_offer
    offer_seat = next((s for s in page.seats if offer and s.pk == offer.seat_id), None)
    data.update({
        "view": page.view,
        "moves": [move_data(m) for m in page.moves],
        "time_left_seconds": int(page.time_left.total_seconds()) if page.time_left is not None else None,
        "legal_moves": [{"text": move.text, "move": move.parts} for move in page.legal_moves],
        "can_abort": page.can_abort, "can_offer_draw": page.can_offer_draw,
        "draw_offer": ({"side": offer_seat.side if offer_seat else "", "ply": offer.ply,
                        "to_you": page.draw_offer_to_me} if offer is not None else None),
        "fairness": {"seed_commitment": game.seed_commitment,
                     "revealed_salt": game.revealed_salt, "revealed_seed": game.revealed_seed},
    })
    return data


def challenge_data(challenge: Challenge) -> dict[str, Any]:
    return {"id": challenge.pk, "kind": challenge.kind, "challenger": challenge.challenger.username,
            "opponent": challenge.opponent.username if challenge.opponent else None,
            "options": challenge.options, "days_per_move": challenge.days_per_move,
            "rated": challenge.rated, "side": challenge.seat_choice, "status": challenge.status,
            "created_at": challenge.created_at, "expires_at": challenge.expires_at,
            "game_id": challenge.game_id}

