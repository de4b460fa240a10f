"""/api/v1/games/<id>/analysis/: the post-game analysis of a game (analysis app).

Anyone reads the analysis of a game that is over, as its page shows it; only its players
ask for it (403 for anyone else), never while it runs (409), within their budget (429)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from api.base import PublicReadView, idempotent
from api.docs import IDEMPOTENCY, errors

from . import selectors, services
from . import serializers as s


class GameAnalysisView(PublicReadView):
    """The bot's evaluation of every position of a game that is over, and its marked moves."""

    @extend_schema(
        tags=["games"],
        responses={200: s.GameAnalysisSerializer, **errors(404, 409, 429)},
        summary="The analysis of a game that is over (404 before a player asked for it, 409 while the game runs)",
    )
    def get(self, request: Any, game_id: int) -> Response:
        return Response(s.GameAnalysisSerializer(selectors.analysis_for_api(game_id=game_id)).data)

    @extend_schema(
        tags=["games"],
        request=None,
        parameters=[IDEMPOTENCY],
        responses={
            200: s.GameAnalysisSerializer,
            202: s.GameAnalysisSerializer,
            **errors(401, 403, 404, 409, 422, 429),
        },
        summary="Ask for the analysis of your game once it is over: 202 when queued, 200 when it is already "
        "made or under way (costs nothing); 409 while the game runs, 429 over your budget",
    )
    def post(self, request: Any, game_id: int) -> Response:
        def ask() -> Response:
            row, queued = services.game_analysis_request(game_id=game_id, user=request.user)
            return Response(
                s.GameAnalysisSerializer(row).data, status=status.HTTP_202_ACCEPTED if queued else status.HTTP_200_OK
            )

        return idempotent(request, ask)
