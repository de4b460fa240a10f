"""Reads of the api app: tokens by secret, a user's tokens, stored idempotent answers."""
from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

from django.db.models import QuerySet

from .models import ApiToken

TOKEN_PREFIX = "mta_"


def token_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def token_for_secret(*, secret: str) -> ApiToken | None:
    """The live (not revoked) token with this secret, or None."""
    if not secret.startswith(TOKEN_PREFIX) or len(secret) > 200:
        return None
    return (ApiToken.objects.select_related("user")
            .filter(key_hash=token_hash(secret), revoked_at__isnull=True).first())


def tokens_of_user(*, user: Any) -> QuerySet[ApiToken]:
    """The user's live tokens, newest first."""
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True).order_by("-created_at", "-pk")


# ---------------------------------------------------------------- games

def games_list(*, user: Any, mine: bool = False, my_turn: bool = False, status: str | None = None,
               kind: str | None = None, player: Any = None) -> QuerySet[Any]:
    """Games filtered as the list endpoints offer, newest first (without state or seed).

    ``mine`` and ``my_turn`` need a signed-in ``user``; ``status`` is active, finished
    (finished or aborted) or aborted; ``player`` restricts to one player's games.
    """
    from games.models import Game, GameStatus

    qs = Game.objects.defer("sealed_state", "sealed_seed")
    if mine or my_turn:
        qs = qs.filter(seats__user=user)
    if my_turn:
        qs = qs.filter(status=GameStatus.ACTIVE, to_move_user=user)
    if player is not None:
        qs = qs.filter(seats__user=player)
    if status == GameStatus.ACTIVE:
        qs = qs.filter(status=GameStatus.ACTIVE)
    elif status == GameStatus.FINISHED:
        qs = qs.filter(status__in=[GameStatus.FINISHED, GameStatus.ABORTED])
    elif status == GameStatus.ABORTED:
        qs = qs.filter(status=GameStatus.ABORTED)
    if kind:
        qs = qs.filter(kind=kind)
    return qs.distinct().prefetch_related("seats__user")


def game_changed_at(*, game_id: int) -> tuple[Any, str] | None:
    """(last change time, version tag) of a game in one query; None if unknown.

    The tag changes with every move, draw offer or answer, ending or clock change, so
    a client's cached copy can be validated without building the view.
    """
    from django.db.models import Max, OuterRef, Subquery

    from games.models import DrawOffer, Game, Move

    last_move = Move.objects.filter(game=OuterRef("pk"), ply=OuterRef("ply")).order_by().values("created_at")[:1]
    offers = DrawOffer.objects.filter(game=OuterRef("pk")).order_by().values("game")
    row = (Game.objects.filter(pk=game_id).order_by()
           .annotate(last_move=Subquery(last_move),
                     offer_created=Subquery(offers.annotate(m=Max("created_at")).values("m")[:1]),
                     offer_responded=Subquery(offers.annotate(m=Max("responded_at")).values("m")[:1]))
           .values("ply", "status", "created_at", "finished_at", "deadline", "to_move_side",
                   "last_move", "offer_created", "offer_responded").first())
    if row is None:
        return None
    moments = (row[key] for key in ("created_at", "finished_at", "last_move", "offer_created", "offer_responded"))
    times: list[datetime] = [moment for moment in moments if moment is not None]
    changed = max(times)
    tag = "%s:%s:%s:%s:%s:%s" % (row["ply"], row["status"], changed.timestamp(),
                                 row["deadline"].timestamp() if row["deadline"] else "",
                                 row["to_move_side"], row["offer_responded"] or "")
    return changed, tag


def player_game_counts(*, player: Any) -> dict[str, int]:
    from games.models import Game, GameStatus

    games = Game.objects.filter(seats__user=player)
    return {"games_active": games.filter(status=GameStatus.ACTIVE).count(),
            "games_played": games.filter(status=GameStatus.FINISHED).count()}


def challenge_visible_to(*, challenge_id: int, user: Any) -> Any:
    """The challenge if ``user`` made it or received it, or it is open to anyone; else None."""
    from games.models import Challenge, ChallengeStatus

    challenge = Challenge.objects.select_related("challenger", "opponent").filter(pk=challenge_id).first()
    if challenge is None:
        return None
    mine = user is not None and user.is_authenticated and user.pk in (challenge.challenger_id,
                                                                       challenge.opponent_id)
    open_to_all = challenge.opponent_id is None and challenge.status == ChallengeStatus.OPEN
    return challenge if mine or open_to_all else None

