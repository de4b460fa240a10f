"""/api/v1/blocks/ and /api/v1/reports/: blocking players (accounts' blocks) and reporting a
player or a game to staff, shaped by fairplay/serializers.py."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from accounts import selectors as account_selectors
from accounts import services as account_services
from accounts.apis import public_player_or_404 as public_user_or_404
from api.base import ApiView, idempotent
from api.docs import IDEMPOTENCY, errors

from . import serializers as s
from . import services


class BlockListView(ApiView):
    @extend_schema(
        tags=["fair play"],
        responses={200: s.BlockSerializer(many=True), **errors(401, 403, 429)},
        summary="The players you blocked (they cannot challenge you)",
    )
    def get(self, request: Any) -> Response:
        blocks = account_selectors.blocks_of_user(user=request.user)
        return Response(s.BlockSerializer(blocks, many=True).data)

    @extend_schema(
        tags=["fair play"],
        request=s.BlockCreateSerializer,
        parameters=[IDEMPOTENCY],
        responses={201: s.BlockSerializer, **errors(400, 401, 403, 404, 422, 429)},
        summary="Block a player (blocking twice changes nothing)",
    )
    def post(self, request: Any) -> Response:
        data = s.BlockCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = public_user_or_404(data.validated_data["username"])

        def create() -> Response:
            block = account_services.block_create(blocker=request.user, blocked=player)
            return Response(s.BlockSerializer(block).data, status=status.HTTP_201_CREATED)

        return idempotent(request, create)


class BlockDetailView(ApiView):
    @extend_schema(
        tags=["fair play"],
        responses={204: None, **errors(401, 403, 404, 429)},
        summary="Unblock a player (204 also when there was no block)",
    )
    def delete(self, request: Any, username: str) -> Response:
        account_services.block_delete(blocker=request.user, blocked=public_user_or_404(username))
        return Response(status=status.HTTP_204_NO_CONTENT)


class ReportCreateView(ApiView):
    @extend_schema(
        tags=["fair play"],
        request=s.ReportCreateSerializer,
        parameters=[IDEMPOTENCY],
        responses={201: s.ReportSerializer, **errors(400, 401, 403, 404, 409, 422, 429)},
        summary="Report a player or a game to staff (once a day per target)",
    )
    def post(self, request: Any) -> Response:
        data = s.ReportCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        player = public_user_or_404(values["player"]) if values["player"] else None

        def create() -> Response:
            report = services.report_create(
                reporter=request.user,
                kind=values["kind"],
                reason=values["reason"],
                player=player,
                game_id=values["game"],
            )
            return Response(s.ReportSerializer(report).data, status=status.HTTP_201_CREATED)

        return idempotent(request, create)
