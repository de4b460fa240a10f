"""Writing ratings: one rated result at a time, live or replayed.

Live (``rating_record_result``): exactly once per game. The change rows are
unique per (game, player) and the service returns early when they exist; the
caller (the game_finished receiver) runs in the transaction that finishes the
game, under the game's row lock, and the two players' Rating rows are locked in
primary-key order, so two games of one player ending at the same moment are
applied one after the other.

Replay (``ratings_replay``): when staff change the result of an ended game
(games.signals.game_result_changed), the history of that game kind is computed
again from that game onward, in game-end order ``(finished_at, game pk)``, with
the same function as live results (``_rate``): a player's rating before a game is
their state after their previous rated game, its deviation grown for the idle
periods in between. Every Rating row of the kind is locked (in primary-key
order, as live results do), so replays and live results are serialized.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.adjudication import REASON_VOID
from games.models import Game, GameStatus, Seat

from . import constants
from .current import glicko_now
from .glicko2 import Result, rate
from .models import Rating, RatingChange

RATING_FIELDS = ["rating", "deviation", "volatility", "games_played", "last_played_at"]
REPLAY_BATCH = 1000  # change rows per INSERT statement of a replay


def _is_rateable(game: Game) -> bool:
    if (
        not game.rated
        or game.status != GameStatus.FINISHED
        or game.bot_level is not None
        or game.result_reason == REASON_VOID
    ):
        return False
    seats = list(game.seats.all())
    return len(seats) == 2 and all(s.user_id is not None for s in seats) and seats[0].user_id != seats[1].user_id


def _player_id(seat: Seat) -> int:
    """The user of a seat of a rateable game (both seats are players': _is_rateable)."""
    if seat.user_id is None:
        raise ValueError("seat %s of game %s is a bot's: the game is not rateable" % (seat.pk, seat.game_id))
    return seat.user_id


def _rate(game: Game, rows: dict[int, Rating]) -> list[RatingChange]:
    """The one rating formula: apply a finished game to its players' Rating rows (in
    memory; the caller saves them) and return the two change rows (unsaved)."""
    seats = list(game.seats.all())
    now = game.finished_at or timezone.now()
    before = {_player_id(s): glicko_now(rows[_player_id(s)], now) for s in seats}
    changes = []
    for seat, other in (seats, seats[::-1]):
        score = 0.5 if not game.winner_side else (1.0 if game.winner_side == seat.side else 0.0)
        me, them = _player_id(seat), _player_id(other)
        mine, theirs = before[me], before[them]
        after = rate(mine, [Result(theirs.rating, theirs.deviation, score)], tau=constants.TAU)
        row = rows[me]
        changes.append(
            RatingChange(
                user_id=me,
                opponent_id=them,
                game=game,
                kind=game.kind,
                score=score,
                rating_before=row.rating,
                rating_after=after.rating,
                deviation_before=mine.deviation,
                deviation_after=after.deviation,
                volatility_after=after.volatility,
                opponent_rating=theirs.rating,
                created_at=now,
            )
        )
        row.rating, row.deviation, row.volatility = after.rating, after.deviation, after.volatility
        row.games_played += 1
        row.last_played_at = now
    return changes


def rating_record_result(*, game: Game) -> list[RatingChange]:
    """Update both players' ratings for a finished rated game; a second call changes nothing.

    Each result is its own rating period (see ratings.constants). Returns the new
    change rows (empty when the game is not rated or was already counted).
    """
    if not _is_rateable(game):
        return []
    with transaction.atomic():
        if RatingChange.objects.filter(game=game).exists():
            return []
        user_ids = sorted(_player_id(s) for s in game.seats.all())
        for user_id in user_ids:  # one order everywhere: no deadlock
            Rating.objects.get_or_create(user_id=user_id, kind=game.kind)
        locked = {
            r.user_id: r
            for r in Rating.objects.select_for_update().filter(kind=game.kind, user_id__in=user_ids).order_by("pk")
        }
        changes = _rate(game, locked)
        for row in locked.values():
            row.save(update_fields=RATING_FIELDS)
        RatingChange.objects.bulk_create(changes)
        return changes


@dataclass
class Replay:
    """What a replay did: how many games it rated again and whose ratings it rewrote."""

    games: int
    players: set[int]


def _state_before(row: Rating, earlier: Iterable[RatingChange]) -> None:
    """Set ``row`` to the player's state after their last change in ``earlier`` (in
    game-end order), or to a new player's rating when there is none."""
    earlier = list(earlier)
    if earlier:
        last = earlier[-1]
        row.rating, row.deviation, row.volatility = (last.rating_after, last.deviation_after, last.volatility_after)
        row.last_played_at = last.created_at
    else:
        row.rating, row.deviation, row.volatility = (
            constants.INITIAL_RATING,
            constants.INITIAL_DEVIATION,
            constants.INITIAL_VOLATILITY,
        )
        row.last_played_at = None
    row.games_played = len(earlier)


def ratings_replay(*, kind: str, since: datetime, game_id: int) -> Replay:
    """Compute the rating history of ``kind`` again from the game ``game_id``, which
    ended at ``since`` (its old end), onward: the change rows of every game ending at
    or after it are written again, one pair per game rated now, in (finished_at, pk)
    order (none for a game no longer rated, e.g. a void one), and each touched
    player's Rating row ends as that history leaves it.

    The rows are deleted and created again in batches rather than updated: an UPDATE
    of many rows through the ORM is one CASE per field over all of them, whose cost
    grows with the square of the rows (minutes for a few thousand)."""
    after_pivot = Q(finished_at__gt=since) | Q(finished_at=since, pk__gte=game_id)
    with transaction.atomic():
        rows = {r.user_id: r for r in Rating.objects.select_for_update().filter(kind=kind).order_by("pk")}
        candidates = (
            Game.objects.filter(after_pivot, kind=kind, status=GameStatus.FINISHED)
            .order_by("finished_at", "pk")
            .prefetch_related("seats")
        )
        games = [g for g in candidates if _is_rateable(g)]
        # Who is touched: the players of the games rated again, and whoever was rated
        # at or after the old end (the changed game's players among them).
        players = {_player_id(s) for g in games for s in g.seats.all()}
        players |= {r.user_id for r in rows.values() if r.last_played_at is not None and r.last_played_at >= since}
        stale = (
            Q(game__finished_at__gt=since)
            | Q(game__finished_at=since, game_id__gte=game_id)
            | Q(game__finished_at__isnull=True)
            | Q(game_id=game_id)
        )
        RatingChange.objects.filter(stale, kind=kind).delete()
        for user_id in sorted(players - set(rows)):
            rows[user_id], _created = Rating.objects.get_or_create(user_id=user_id, kind=kind)
        earlier: dict[int, list[RatingChange]] = {user_id: [] for user_id in players}
        for change in RatingChange.objects.filter(kind=kind, user_id__in=players).order_by("created_at", "game_id"):
            earlier[change.user_id].append(change)
        for user_id in players:
            _state_before(rows[user_id], earlier[user_id])
        changes = [change for game in games for change in _rate(game, rows)]
        RatingChange.objects.bulk_create(changes, batch_size=REPLAY_BATCH)
        for user_id in sorted(players):
            rows[user_id].save(update_fields=RATING_FIELDS)
        return Replay(games=len(games), players=players)


def rating_result_changed(*, game: Game, previous: dict[str, Any]) -> Replay | None:
    """Staff changed the result of an ended game (void, award, reversed timeout):
    replay the ratings of its kind from where it had ended. None for a game that
    was never rated and is not rated now (casual, against a bot)."""
    if not game.rated or game.bot_level is not None:
        return None
    since = previous.get("finished_at") or game.finished_at
    if since is None:
        return None
    return ratings_replay(kind=game.kind, since=since, game_id=game.pk)
