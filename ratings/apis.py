"""/api/v1/ratings/leaderboard/ and /api/v1/players/<username>/ (a public profile with its
ratings): reads through ratings.selectors, shaped by ratings/serializers.py."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.response import Response

from accounts.apis import public_player_or_404 as public_user_or_404
from api.base import PublicReadView
from api.docs import errors
from games import selectors as game_selectors
from games.models import GameKind

from . import selectors
from . import serializers as s


class LeaderboardView(PublicReadView):
    @extend_schema(
        tags=["ratings"],
        parameters=[OpenApiParameter("kind", OpenApiTypes.STR, enum=GameKind.values, required=True)],
        responses={200: s.PlayerRatingSerializer(many=True), **errors(400, 429)},
        summary="The best established players of a game",
    )
    def get(self, request: Any) -> Response:
        query = s.LeaderboardQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        rows = selectors.leaderboard(kind=query.validated_data["kind"])
        return Response(s.PlayerRatingSerializer(rows, many=True).data)


class PlayerView(PublicReadView):
    @extend_schema(
        tags=["players"],
        responses={200: s.PlayerProfileSerializer, **errors(404, 429)},
        summary="A player's public profile and ratings",
    )
    def get(self, request: Any, username: str) -> Response:
        player = public_user_or_404(username)
        profile = s.PlayerProfile(
            user=player,
            **game_selectors.player_game_counts(player=player),
            ratings=selectors.ratings_for_player(user=player),
        )
        return Response(s.PlayerProfileSerializer(profile).data)
