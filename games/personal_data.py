"""What games holds about a user, for the account export and erasure (registered in
maatasite.personal_data; privacy runs it): every game they sat in, with its public moves;
on deletion their open challenges are closed and their running games resigned, and
their alarms not sent yet go. Games, seats and moves stay: the other players' history."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from maatasite.personal_data import ErasePhase, EraseStep, ExportSection, PersonalData, registry, timestamp

from . import conditional, services
from .models import Alarm, ConditionalLines, Game, GameStatus, ImportedRecord, Move, player_result

if TYPE_CHECKING:
    from accounts.models import User


def _games(user: User) -> list[dict[str, Any]]:
    """Every game the user sat in, with its public move list. Never the engine state; the
    seed only once revealed, i.e. for games that are over."""
    games = list(
        Game.objects.filter(seats__user=user)
        .distinct()
        .defer("sealed_state", "sealed_seed")
        .prefetch_related("seats__user")
        .order_by("pk")
    )
    moves: dict[int, list[dict[str, Any]]] = {}
    for move in Move.objects.filter(game__in=games).select_related("seat").order_by("game_id", "ply"):
        moves.setdefault(move.game_id, []).append(
            {
                "ply": move.ply,
                "turn": move.turn,
                "side": move.seat.side,
                "text": move.text,
                "played_at": timestamp(move.created_at),
            }
        )
    queued = {
        row.game_id: conditional.tree_lines(conditional.tree_unseal(row.sealed_lines))
        for row in ConditionalLines.objects.filter(seat__user=user)
    }
    rows = []
    for game in games:
        seats = list(game.seats.all())
        mine = next(s for s in seats if s.user_id == user.pk)
        rows.append(
            {
                "id": game.pk,
                "kind": game.kind,
                "options": game.options,
                "rated": game.rated,
                "days_per_move": game.days_per_move,
                "status": game.status,
                "your_side": mine.side,
                "seats": [
                    {
                        "side": s.side,
                        "player": s.user.public_name if s.user is not None else None,
                        "bot_level": s.bot_level,
                    }
                    for s in seats
                ],
                "opponents": [s.player_name for s in seats if s.pk != mine.pk],
                "result": player_result(game, mine.side),
                "winner_side": game.winner_side or None,
                "reason": game.result_reason or None,
                "scores": game.scores,
                "created_at": timestamp(game.created_at),
                "finished_at": timestamp(game.finished_at),
                "seed_commitment": game.seed_commitment,
                "revealed_salt": game.revealed_salt if game.is_over else None,
                "revealed_seed": game.revealed_seed if game.is_over else None,
                "moves": moves.get(game.pk, []),
                "conditional_lines": queued.get(game.pk, []),  # your own queued lines, never the opponent's
            }
        )
    return rows


def _play_end(user: User, now: datetime) -> dict[str, int]:
    """Close the open challenges (cancel those made, decline those received), then resign
    every running game, against people and bots alike: the opponent wins and game_finished
    rates the game and moves ladders and tournaments on. The games are locked first, in pk
    order, before any ladder or tournament row (their lock order)."""
    services.user_challenges_close(user=user, now=now)
    running = list(
        Game.objects.select_for_update(of=("self",))
        .filter(seats__user=user, status=GameStatus.ACTIVE)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    for game_id in running:
        services.game_resign(game_id=game_id, user=user)
    return {"games_resigned": len(running)}


def _alarms_delete(user: User, now: datetime) -> None:
    """The alarms not sent yet (the resignations' included); those sent are the record."""
    Alarm.objects.filter(user=user, sent_at__isnull=True).delete()


def _imported_records(user: User) -> list[dict[str, Any]]:
    """The records the user imported to an analysis board, as they gave them."""
    return [
        {"id": r.pk, "kind": r.kind, "plies": r.plies, "imported_at": timestamp(r.created_at), "record": r.text}
        for r in ImportedRecord.objects.filter(owner=user).order_by("pk")
    ]


def _imported_records_delete(user: User, now: datetime) -> None:
    ImportedRecord.objects.filter(owner=user).delete()


def register() -> None:
    registry.register(
        PersonalData(
            app="games",
            models={
                "games.Game": "exported (the games sat in); kept, the other players' history",
                "games.Seat": "exported with its game (and its own queued conditional lines, games.ConditionalLines, "
                "deleted with the resignation that ends the game); kept, shown as deleted player",
                "games.Move": "exported with its game; kept, so the game replays",
                "games.Challenge": "the open ones closed (cancelled or declined); kept",
                "games.Alarm": "the ones not sent yet deleted; the sent ones kept",
                "games.TimeoutBatch": "kept: the staff member's decision on held time-outs",
                "games.ImportedRecord": "exported; deleted",
            },
            export=(
                ExportSection(key="games", position=20, build=_games),
                ExportSection(key="imported_records", position=21, build=_imported_records),
            ),
            erase=(
                EraseStep(name="games.play", phase=ErasePhase.GAMES, run=_play_end),
                EraseStep(name="games.alarms", phase=ErasePhase.REMAINDER, run=_alarms_delete),
                EraseStep(name="games.imported_records", phase=ErasePhase.REMAINDER, run=_imported_records_delete),
            ),
        )
    )
