"""/api/v1/tournaments/: list (cursor-paged), detail and standings (page-numbered: ``page``,
``page_size``; read by anyone; ETags of their bodies),
register and withdraw (signed in, before the start; an Idempotency-Key makes a retry safe).

Drafts answer 404. Refusals are the tournament services' GameActionErrors (400/403/404/409
with code and message) in the API's error shape; responses are shaped by
tournaments/serializers.py."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param

from api.base import PublicReadView, body_conditional_response, idempotent
from api.docs import CONDITIONAL, IDEMPOTENCY, NOT_MODIFIED, errors
from api.errors import ApiError
from games.apis import GamePagination

from . import selectors, services
from . import serializers as s
from .errors import NotFound
from .models import Tournament, TournamentStatus


class TournamentPagination(GamePagination):
    """The list's pages, as the games lists' (cursor links, ``page_size`` up to 100), newest first."""

    ordering = "-id"


TOURNAMENT_EXAMPLE = {
    "id": 7,
    "name": "Autumn Onitama Swiss",
    "game": "onitama",
    "format": "swiss",
    "status": "registration",
    "days_per_move": 3,
    "rated": True,
    "vacation_allowed": True,
    "swiss_rounds": 5,
    "cycles": 1,
    "registration_opens_at": None,
    "registration_closes_at": "2026-12-01T12:00:00Z",
    "min_players": 4,
    "max_players": 32,
    "rating_min": None,
    "rating_max": 1800,
    "started_at": None,
    "finished_at": None,
}


def _visible(tournament_id: int) -> Tournament:
    tournament = selectors.tournament_get(tournament_id=tournament_id)
    if tournament.status == TournamentStatus.DRAFT:
        raise NotFound("tournament_not_found")
    return tournament


PAGING = [
    OpenApiParameter("page", OpenApiTypes.INT, description="The page, from 1 (default 1)."),
    OpenApiParameter(
        "page_size",
        OpenApiTypes.INT,
        description="Items of each list a page holds (default %d, at most %d)."
        % (selectors.API_PAGE_SIZE, selectors.API_PAGE_SIZE_MAX),
    ),
]


def _paging(request: Any) -> tuple[int, int]:
    """(page, page size) of the query; 400 for a page or size that is not a whole number from 1
    (a size above the largest is the largest, as in the cursor-paged lists)."""
    numbers = []
    for name, default in (("page", 1), ("page_size", selectors.API_PAGE_SIZE)):
        raw = request.query_params.get(name, "")
        try:
            value = int(raw) if raw != "" else default
        except ValueError:
            value = 0
        if not 1 <= value <= 2**31:
            raise ApiError("bad_page", _("The page and its size are whole numbers from 1."), details={name: raw[:20]})
        numbers.append(value)
    return numbers[0], min(numbers[1], selectors.API_PAGE_SIZE_MAX)


def _links(request: Any, shown: selectors.ApiPage) -> dict[str, str | None]:
    here = request.build_absolute_uri()
    previous = None
    if shown.number > 1:
        target = min(shown.number - 1, shown.pages)
        previous = replace_query_param(here, "page", target) if target > 1 else remove_query_param(here, "page")
    return {
        "next": replace_query_param(here, "page", shown.number + 1) if shown.number < shown.pages else None,
        "previous": previous,
    }


# The register and withdraw views are PublicReadViews too (a POST needs a signed-in user all
# the same): the schema's description of each operation is that class's docstring.


class TournamentListView(PublicReadView):
    pagination_class = TournamentPagination

    @extend_schema(
        tags=["tournaments"],
        parameters=CONDITIONAL,
        operation_id="tournaments_list",
        responses={200: s.TournamentSerializer(many=True), **NOT_MODIFIED, **errors(400, 401, 403, 429)},
        summary="Tournaments open for registration, running, paused or finished (newest first, cursor pagination)",
        examples=[
            OpenApiExample(
                "One tournament",
                response_only=True,
                value={"next": None, "previous": None, "results": [TOURNAMENT_EXAMPLE]},
            )
        ],
    )
    def get(self, request: Any) -> Response:
        paginator = TournamentPagination()
        page = paginator.paginate_queryset(selectors.tournament_list(), request, view=self)
        rows = s.TournamentSerializer(page or [], many=True).data
        return body_conditional_response(request, paginator.get_paginated_response(rows))


class TournamentDetailView(PublicReadView):
    @extend_schema(
        tags=["tournaments"],
        parameters=CONDITIONAL + PAGING,
        responses={200: s.TournamentDetailSerializer, **NOT_MODIFIED, **errors(400, 401, 403, 404, 429)},
        summary="A tournament: settings, players, rounds and their pairings (page-number pagination)",
        description="Paged since issue 17: the tournament's own fields are on every page; ``players`` "
        "and ``rounds`` hold one page (``page``, ``page_size``) of the players and of the pairings, "
        "``player_count`` and ``pairing_count`` count them all, and ``next`` is the next page's address "
        "(null on the last). A client that read the whole tournament follows ``next`` and adds up the "
        "players and each round's pairings (a round can go on over the next page). 400 ``bad_page``: "
        "a page or size that is not a whole number from 1.",
        examples=[
            OpenApiExample(
                "A Swiss in its first round",
                response_only=True,
                value={
                    **TOURNAMENT_EXAMPLE,
                    "status": "running",
                    "started_at": "2026-12-01T12:00:00Z",
                    "planned_rounds": 5,
                    "registration_open": False,
                    "page": 1,
                    "pages": 1,
                    "page_size": 50,
                    "next": None,
                    "previous": None,
                    "player_count": 3,
                    "pairing_count": 2,
                    "players": [
                        {"username": "alice", "seed": 1, "status": "active"},
                        {"username": "bob", "seed": 2, "status": "active"},
                        {"username": "carol", "seed": 3, "status": "active"},
                    ],
                    "rounds": [
                        {
                            "number": 1,
                            "pairings": [
                                {"board": 1, "replay": 0, "first": "alice", "second": "bob", "game": 42, "result": ""},
                                {
                                    "board": 2,
                                    "replay": 0,
                                    "first": "carol",
                                    "second": None,
                                    "game": None,
                                    "result": "bye",
                                },
                            ],
                        }
                    ],
                },
            )
        ],
    )
    def get(self, request: Any, tournament_id: int) -> Response:
        page, size = _paging(request)
        _visible(tournament_id)
        detail = selectors.tournament_detail(tournament_id=tournament_id, page=page, per_page=size)
        detail.update(_links(request, detail["page"]))
        return body_conditional_response(request, Response(s.TournamentDetailSerializer(detail).data))


class TournamentStandingsView(PublicReadView):
    @extend_schema(
        tags=["tournaments"],
        parameters=CONDITIONAL + PAGING,
        responses={200: s.TournamentStandingsPageSerializer, **NOT_MODIFIED, **errors(400, 401, 403, 404, 429)},
        summary="Standings with tie-breaks (Buchholz, Sonneborn-Berger, head to head); the bracket of a knockout "
        "(page-number pagination)",
        description="Paged since issue 17: ``standings`` holds one page (``page``, ``page_size``) of the "
        "rows, ranked from every result, and a knockout's ``bracket`` the same page of its matches (in "
        "round and board order, by round); ``player_count`` and ``match_count`` count them all, ``next`` "
        "is the next page's address (null on the last). The other fields are on every page. 400 "
        "``bad_page``: a page or size that is not a whole number from 1.",
        examples=[
            OpenApiExample(
                "After one round",
                response_only=True,
                value={
                    "id": 7,
                    "name": "Autumn Onitama Swiss",
                    "game": "onitama",
                    "format": "swiss",
                    "status": "running",
                    "current_round": 1,
                    "page": 1,
                    "pages": 1,
                    "page_size": 50,
                    "next": None,
                    "previous": None,
                    "player_count": 2,
                    "standings": [
                        {
                            "rank": 1,
                            "player": "alice",
                            "seed": 1,
                            "points": 1.0,
                            "buchholz": 0.0,
                            "sonneborn_berger": 0.0,
                            "head_to_head": 0.0,
                            "games": 1,
                            "wins": 1,
                            "draws": 0,
                            "losses": 0,
                            "byes": 0,
                            "withdrawn": False,
                        },
                        {
                            "rank": 2,
                            "player": "bob",
                            "seed": 2,
                            "points": 0.0,
                            "buchholz": 1.0,
                            "sonneborn_berger": 0.0,
                            "head_to_head": 0.0,
                            "games": 1,
                            "wins": 0,
                            "draws": 0,
                            "losses": 1,
                            "byes": 0,
                            "withdrawn": False,
                        },
                    ],
                },
            )
        ],
    )
    def get(self, request: Any, tournament_id: int) -> Response:
        page, size = _paging(request)
        _visible(tournament_id)
        standings = selectors.tournament_standings_page(tournament_id=tournament_id, page=page, per_page=size)
        standings.update(_links(request, standings["page"]))
        return body_conditional_response(request, Response(s.TournamentStandingsPageSerializer(standings).data))


class TournamentRegisterView(PublicReadView):
    @extend_schema(
        tags=["tournaments"],
        request=None,
        parameters=[IDEMPOTENCY],
        responses={201: s.TournamentRegistrationSerializer, **errors(400, 401, 403, 404, 409, 422, 429)},
        summary="Register for a tournament while its registration is open "
        "(400: outside its rating limits; 409: closed, full or already registered)",
        examples=[
            OpenApiExample("Registered", response_only=True, status_codes=["201"], value={"registered": True}),
            OpenApiExample(
                "Full",
                response_only=True,
                status_codes=["409"],
                value={
                    "code": "tournament_full",
                    "message": "This tournament is full (32 players).",
                    "details": {"max": 32},
                },
            ),
        ],
    )
    def post(self, request: Any, tournament_id: int) -> Response:
        def register() -> Response:
            _visible(tournament_id)
            services.tournament_register(tournament_id=tournament_id, user=request.user)
            return Response(
                s.TournamentRegistrationSerializer({"registered": True}).data, status=status.HTTP_201_CREATED
            )

        return idempotent(request, register)


class TournamentWithdrawView(PublicReadView):
    @extend_schema(
        tags=["tournaments"],
        request=None,
        parameters=[IDEMPOTENCY],
        responses={200: s.TournamentRegistrationSerializer, **errors(400, 401, 403, 404, 409, 422, 429)},
        summary="Take back your registration (only before the start; 409 after it, "
        "or when you are not registered; 400: a bad Idempotency-Key)",
        examples=[OpenApiExample("Withdrawn", response_only=True, status_codes=["200"], value={"registered": False})],
    )
    def post(self, request: Any, tournament_id: int) -> Response:
        def withdraw() -> Response:
            _visible(tournament_id)
            services.tournament_withdraw(tournament_id=tournament_id, user=request.user)
            return Response(s.TournamentRegistrationSerializer({"registered": False}).data)

        return idempotent(request, withdraw)
