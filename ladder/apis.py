"""/api/v1/ladders/: the list, one ladder, join, leave and ladder challenges, through the
ladder app's selectors and services (their refusals, e.g. ``ladder_not_found``, in the API's
error shape), shaped by ladder/serializers.py."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from accounts.apis import public_player_or_404 as public_user_or_404
from api.base import ApiView, PublicReadView, body_conditional_response, idempotent
from api.docs import CONDITIONAL, IDEMPOTENCY, NOT_MODIFIED, errors
from games.apis import GamePagination, game_detail_data
from games.serializers import GameDetailSerializer

from . import selectors, services
from . import serializers as s
from .errors import LadderNotFound
from .models import Ladder


def _ladder_detail(ladder_id: int, user: Any) -> dict[str, Any]:
    # The first page of the standings only (the top STANDINGS_PAGE_SIZE), and the newest
    # running games: the standings/ and games/ endpoints page through all of them.
    try:
        page = selectors.ladder_page(ladder_id=ladder_id, user=user, page=1)
    except Ladder.DoesNotExist:
        raise LadderNotFound("ladder_not_found") from None
    return s.LadderDetailSerializer(page).data


def _ladder_or_404(ladder_id: int) -> Ladder:
    ladder = Ladder.objects.filter(pk=ladder_id).first()
    if ladder is None:
        raise LadderNotFound("ladder_not_found")
    return ladder


class StandingsPagination(GamePagination):
    """A ladder's positions, top first, as the games lists page (cursor links, ``page_size`` up to 100)."""

    ordering = "position"
    page_size = selectors.STANDINGS_PAGE_SIZE


class LadderGamesPagination(GamePagination):
    """A ladder's running games, newest first."""

    ordering = "-id"


class LadderListView(PublicReadView):
    @extend_schema(
        tags=["ladders"],
        responses={200: s.LadderSerializer(many=True), **errors(429)},
        summary="Every ladder, open ones first",
    )
    def get(self, request: Any) -> Response:
        return Response(s.LadderSerializer(selectors.ladders_list(), many=True).data)


class LadderDetailView(PublicReadView):
    @extend_schema(
        tags=["ladders"],
        responses={200: s.LadderDetailSerializer, **errors(404, 429)},
        summary="A ladder: standings, your place, whom you may challenge, games running",
    )
    def get(self, request: Any, ladder_id: int) -> Response:
        return Response(_ladder_detail(ladder_id, request.user))


class LadderStandingsView(PublicReadView):
    pagination_class = StandingsPagination

    @extend_schema(
        tags=["ladders"],
        parameters=CONDITIONAL,
        responses={200: s.StandingSerializer(many=True), **NOT_MODIFIED, **errors(400, 404, 429)},
        summary="A ladder's positions, top first, with cursor pagination",
    )
    def get(self, request: Any, ladder_id: int) -> Response:
        _ladder_or_404(ladder_id)
        paginator = StandingsPagination()
        page = paginator.paginate_queryset(selectors.standings_list(ladder_id=ladder_id), request, view=self)
        rows = s.StandingSerializer(page or [], many=True).data
        return body_conditional_response(request, paginator.get_paginated_response(rows))


class LadderGamesView(PublicReadView):
    pagination_class = LadderGamesPagination

    @extend_schema(
        tags=["ladders"],
        parameters=CONDITIONAL,
        responses={200: s.LadderGameSerializer(many=True), **NOT_MODIFIED, **errors(400, 404, 429)},
        summary="A ladder's games in progress, newest first, with cursor pagination",
    )
    def get(self, request: Any, ladder_id: int) -> Response:
        _ladder_or_404(ladder_id)
        paginator = LadderGamesPagination()
        page = paginator.paginate_queryset(selectors.running_list(ladder_id=ladder_id), request, view=self)
        rows = s.LadderGameSerializer(page or [], many=True).data
        return body_conditional_response(request, paginator.get_paginated_response(rows))


def _ladder_action(name: str, action: Any, summary: str) -> type[ApiView]:
    # The services refuse an unknown ladder themselves (404 ladder_not_found).
    class LadderActionView(ApiView):
        @extend_schema(
            tags=["ladders"],
            request=None,
            parameters=[IDEMPOTENCY],
            summary=summary,
            operation_id="ladders_%s" % name,
            responses={200: s.LadderDetailSerializer, **errors(400, 401, 403, 404, 409, 422, 429)},
        )
        def post(self, request: Any, ladder_id: int) -> Response:
            def run() -> Response:
                action(ladder_id=ladder_id, user=request.user)
                return Response(_ladder_detail(ladder_id, request.user))

            return idempotent(request, run)

    LadderActionView.__name__ = LadderActionView.__qualname__ = "Ladder%sView" % name.title()
    return LadderActionView


LadderJoinView = _ladder_action("join", services.ladder_join, "Join a ladder (at the bottom)")
LadderLeaveView = _ladder_action(
    "leave", services.ladder_leave, "Leave a ladder (your ladder games there are resigned)"
)


class LadderChallengeView(ApiView):
    @extend_schema(
        tags=["ladders"],
        request=s.LadderChallengeCreateSerializer,
        parameters=[IDEMPOTENCY],
        responses={201: GameDetailSerializer, **errors(400, 401, 403, 404, 409, 422, 429)},
        summary="Challenge a player above you: a rated game starts at once",
    )
    def post(self, request: Any, ladder_id: int) -> Response:
        data = s.LadderChallengeCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        defender = public_user_or_404(data.validated_data["defender"])

        def run() -> Response:
            challenge = services.ladder_challenge_create(
                ladder_id=ladder_id, challenger=request.user, defender=defender
            )
            return Response(game_detail_data(challenge.game_id, request.user), status=status.HTTP_201_CREATED)

        return idempotent(request, run)
