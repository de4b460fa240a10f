"""/api/v1/games/<id>/messages/: the messages between the players of a game (chat app).

Only the game's seated players read and write (403 for anyone else, 404 for an unknown
game); blocks, lengths and the rate limit are the chat service's (403, 400, 429)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from api.base import ApiView, idempotent
from api.docs import IDEMPOTENCY, errors

from . import selectors as chat_selectors
from . import serializers as s
from . import services as chat_services


class GameMessagesView(ApiView):
    """Messages between the seated players of a game; spectators and bots take no part."""

    @extend_schema(
        tags=["games"],
        responses={200: s.GameMessageSerializer(many=True), **errors(401, 403, 404, 429)},
        summary="The messages of your game, oldest first (players only; none a blocked player wrote after your block)",
    )
    def get(self, request: Any, game_id: int) -> Response:
        conversation = chat_selectors.conversation_for(game_id=game_id, user=request.user)
        return Response(s.GameMessageSerializer(conversation.messages, many=True).data)

    @extend_schema(
        tags=["games"],
        request=s.GameMessageCreateSerializer,
        parameters=[IDEMPOTENCY],
        responses={201: s.GameMessageSerializer, **errors(400, 401, 403, 404, 422, 429)},
        summary="Write to the other player of your game (403 when they blocked you; "
        "429 after 20 messages in a game within an hour)",
    )
    def post(self, request: Any, game_id: int) -> Response:
        data = s.GameMessageCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)

        def create() -> Response:
            message = chat_services.message_create(
                game_id=game_id, author=request.user, text=data.validated_data["text"]
            )
            return Response(s.GameMessageSerializer(message).data, status=status.HTTP_201_CREATED)

        return idempotent(request, create)
