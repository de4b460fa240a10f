"""Reading ratings: a player's ratings, their history, the leaderboards.

Every rating shown is the rating "now": the deviation has grown for the time
since the player's last rated game (ratings.constants), so a player who stops
playing becomes provisional again and drops off the leaderboard.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import router
from django.db.models import QuerySet
from django.utils import timezone

from accounts.selectors import users_public
from games.models import GameKind
from maatasite.sql_once import instances_once

from . import constants
from .current import glicko_now
from .models import Rating, RatingChange


@dataclass(frozen=True)
class RatingShown:
    """A rating as pages and the API show it."""

    user: Any
    kind: str
    rating: float
    deviation: float
    volatility: float
    games_played: int
    last_played_at: datetime | None

    @property
    def provisional(self) -> bool:
        return self.deviation > constants.PROVISIONAL_DEVIATION

    @property
    def display(self) -> str:
        """The rounded rating, with "?" when provisional (e.g. "1500?")."""
        return "%d%s" % (round(self.rating), "?" if self.provisional else "")

    @property
    def kind_label(self) -> str:
        return str(GameKind(self.kind).label)


def _shown(row: Rating, now: datetime) -> RatingShown:
    current = glicko_now(row, now)
    return RatingShown(
        user=row.user,
        kind=row.kind,
        rating=current.rating,
        deviation=current.deviation,
        volatility=current.volatility,
        games_played=row.games_played,
        last_played_at=row.last_played_at,
    )


def _unrated(user: Any, kind: str) -> RatingShown:
    return RatingShown(
        user=user,
        kind=kind,
        rating=constants.INITIAL_RATING,
        deviation=constants.INITIAL_DEVIATION,
        volatility=constants.INITIAL_VOLATILITY,
        games_played=0,
        last_played_at=None,
    )


def rating_for_player(*, user: Any, kind: str, now: datetime | None = None) -> RatingShown:
    """The player's current rating in one game (a new player's when they have none)."""
    now = now or timezone.now()
    row = Rating.objects.select_related("user").filter(user=user, kind=kind).first()
    return _shown(row, now) if row is not None else _unrated(user, kind)


def ratings_for_player(*, user: Any, now: datetime | None = None) -> list[RatingShown]:
    """The player's current rating in each game, in the order of GameKind."""
    now = now or timezone.now()
    rows = {r.kind: r for r in Rating.objects.select_related("user").filter(user=user)}
    return [_shown(rows[kind], now) if kind in rows else _unrated(user, kind) for kind in GameKind.values]


def ratings_by_user(*, users: list[Any], kind: str, now: datetime | None = None) -> dict[int, RatingShown]:
    """Current ratings of many players in one game, by user id (for standings tables)."""
    now = now or timezone.now()
    found = {r.user_id: _shown(r, now) for r in Rating.objects.select_related("user").filter(kind=kind, user__in=users)}
    return {u.pk: found.get(u.pk) or _unrated(u, kind) for u in users}


_KIND_PLACEHOLDER = "\x00kind"  # a kind no rating has: the compiled SQL's variable parameter


def _leaderboard_candidates(kind: str) -> QuerySet[Rating]:
    """The established players of a game with a public account, best first (the leaderboard
    leaves out those whose deviation has grown since)."""
    return (
        Rating.objects.select_related("user")
        .filter(kind=kind, games_played__gt=0, deviation__lte=constants.PROVISIONAL_DEVIATION, user__in=users_public())
        .order_by("-rating", "pk")
    )


def leaderboard(
    *, kind: str, limit: int = constants.LEADERBOARD_SIZE, now: datetime | None = None
) -> list[RatingShown]:
    """The best established players of a game, best first; provisional players are left out."""
    now = now or timezone.now()
    # Read in pages with a LIMIT, so the plan walks the (kind, -rating) index and stops: an
    # unbounded cursor had PostgreSQL join and sort every rating of the game first.
    rows: list[RatingShown] = []
    page_size = limit + 20  # a few may have turned provisional since their last game
    start = 0
    while len(rows) < limit:
        if start == 0:  # the lobby's and every leaderboard's read: its SQL built once
            page = instances_once(
                "leaderboard_first_page:%d" % page_size,
                queryset=lambda kind: _leaderboard_candidates(kind)[:page_size],
                placeholder=_KIND_PLACEHOLDER,
                value=kind,
                alias=router.db_for_read(Rating),
            )
        else:
            page = list(_leaderboard_candidates(kind)[start : start + page_size])
        for row in page:
            shown = _shown(row, now)
            if not shown.provisional:  # the deviation may have grown since the last game
                rows.append(shown)
                if len(rows) >= limit:
                    break
        if len(page) < page_size:
            break
        start += page_size
    return rows


def leaderboards(
    *, limit: int = constants.LEADERBOARD_SIZE, now: datetime | None = None
) -> list[tuple[str, str, list[RatingShown]]]:
    """(kind, label, leaderboard) for every game."""
    return [(kind, str(label), leaderboard(kind=kind, limit=limit, now=now)) for kind, label in GameKind.choices]


def rating_history(*, user: Any, kind: str, limit: int = 500) -> list[RatingChange]:
    """The player's rating changes in one game, oldest first (the last ``limit``)."""
    rows = list(
        RatingChange.objects.select_related("opponent", "game")
        .filter(user=user, kind=kind)
        .order_by("-created_at", "-pk")[:limit]
    )
    rows.reverse()
    return rows


def game_rating_changes(*, game_id: int) -> list[RatingChange]:
    """What one rated game did to its players' ratings: none for a casual game (or one
    whose rated result staff voided)."""
    return list(RatingChange.objects.select_related("user").filter(game_id=game_id).order_by("pk"))
