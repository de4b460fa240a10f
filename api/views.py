"""The API's endpoints still here until they move to their apps: a player's profile and
ratings, leaderboards, ladders, tournaments (documented here), blocks and reports. The
endpoints of accounts and games are in accounts/apis.py and games/apis.py; ping/ and the
unknown-path 404 in api/apis.py.
"""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.response import Response

from accounts import selectors as account_selectors
from accounts import services as account_services
from accounts.apis import public_player_or_404 as _user_or_404
from fairplay import services as fairplay_services
from games import selectors as game_selectors
from games.apis import game_detail_data
from ladder import selectors as ladder_selectors
from tournaments import api as tournament_api

from . import serializers as s
from .base import ApiView, PublicReadView, body_conditional_response, idempotent
from .docs import CONDITIONAL, IDEMPOTENCY, NOT_MODIFIED, errors
from .errors import ApiError

# ---------------------------------------------------------------- players

class PlayerView(PublicReadView):
    @extend_schema(tags=["players"], responses={200: s.PlayerProfileSerializer, **errors(404, 429)},
                   summary="A player's public profile and ratings")
    def get(self, request: Any, username: str) -> Response:
        from ratings.selectors import ratings_for_player

        player = _user_or_404(username)
        data = {"username": player.username, "display_name": player.display_name,
                "date_joined": player.date_joined, **game_selectors.player_game_counts(player=player),
                "ratings": [_rating_data(shown) for shown in ratings_for_player(user=player)]}
        return Response(s.PlayerProfileSerializer(data).data)


# ---------------------------------------------------------------- ratings and ladders (read-only lists,
# join, leave and ladder challenges through the ladder app's own services)

def _rating_data(shown: Any) -> dict[str, Any]:
    return {"kind": shown.kind, "rating": round(shown.rating, 1), "deviation": round(shown.deviation, 1),
            "provisional": shown.provisional, "display": shown.display, "games_played": shown.games_played,
            "username": shown.user.username}


class LeaderboardView(PublicReadView):
    @extend_schema(tags=["ratings"], parameters=[
        OpenApiParameter("kind", OpenApiTypes.STR, enum=["onitama", "maatatahay"], required=True)],
        responses={200: s.PlayerRatingSerializer(many=True), **errors(400, 429)},
        summary="The best established players of a game")
    def get(self, request: Any) -> Response:
        from ratings.selectors import leaderboard

        kind = request.query_params.get("kind")
        if kind not in ("onitama", "maatatahay"):
            raise ApiError("invalid", _("Some fields are not valid."), details={"fields": {"kind": [str(kind)[:50]]}})
        rows = [_rating_data(shown) for shown in leaderboard(kind=kind)]
        return Response(s.PlayerRatingSerializer(rows, many=True).data)


def _ladder_or_404(ladder_id: int) -> None:
    if not ladder_selectors.ladder_exists(ladder_id=ladder_id):
        raise ApiError("ladder_not_found", _("This ladder does not exist."), status_code=404)


def _ladder_data(ladder: Any) -> dict[str, Any]:
    return {"id": ladder.pk, "name": ladder.name, "kind": ladder.kind, "days_per_move": ladder.days_per_move,
            "max_places_up": ladder.max_places_up, "is_open": ladder.is_open}


def _ladder_detail(ladder_id: int, user: Any) -> dict[str, Any]:
    from ladder.selectors import ladder_page

    _ladder_or_404(ladder_id)
    page = ladder_page(ladder_id=ladder_id, user=user)
    data = _ladder_data(page.ladder)
    data.update({
        "standings": [{"position": m.position, "username": m.user.username, "display_name": m.user.public_name}
                      for m in page.standings],
        "your_position": page.me.position if page.me else None,
        "you_may_challenge": [m.user.username for m in page.challengeable],
        "running": [{"game_id": c.game_id, "challenger": c.challenger.username, "defender": c.defender.username}
                    for c in page.running],
    })
    return s.LadderDetailSerializer(data).data


class LadderListView(PublicReadView):
    @extend_schema(tags=["ladders"], responses={200: s.LadderSerializer(many=True), **errors(429)},
                   summary="Every ladder, open ones first")
    def get(self, request: Any) -> Response:
        from ladder.selectors import ladders_list

        return Response(s.LadderSerializer([_ladder_data(lad) for lad in ladders_list()], many=True).data)


class LadderDetailView(PublicReadView):
    @extend_schema(tags=["ladders"], responses={200: s.LadderDetailSerializer, **errors(404, 429)},
                   summary="A ladder: standings, your place, whom you may challenge, games running")
    def get(self, request: Any, ladder_id: int) -> Response:
        return Response(_ladder_detail(ladder_id, request.user))


def _ladder_action(name: str, summary: str) -> type[ApiView]:
    class LadderActionView(ApiView):
        @extend_schema(tags=["ladders"], request=None, parameters=[IDEMPOTENCY], summary=summary,
                       operation_id="ladders_%s" % name,
                       responses={200: s.LadderDetailSerializer, **errors(400, 401, 403, 404, 409, 422, 429)})
        def post(self, request: Any, ladder_id: int) -> Response:
            from ladder import services as ladder_services

            action = {"join": ladder_services.ladder_join, "leave": ladder_services.ladder_leave}[name]

            def run() -> Response:
                _ladder_or_404(ladder_id)
                action(ladder_id=ladder_id, user=request.user)
                return Response(_ladder_detail(ladder_id, request.user))
            return idempotent(request, run)
    LadderActionView.__name__ = LadderActionView.__qualname__ = "Ladder%sView" % name.title()
    return LadderActionView


LadderJoinView = _ladder_action("join", "Join a ladder (at the bottom)")
LadderLeaveView = _ladder_action("leave", "Leave a ladder (your ladder games there are resigned)")


class LadderChallengeView(ApiView):
    @extend_schema(tags=["ladders"], request=s.LadderChallengeCreateSerializer, parameters=[IDEMPOTENCY],
                   responses={201: s.GameDetailSerializer, **errors(400, 401, 403, 404, 409, 422, 429)},
                   summary="Challenge a player above you: a rated game starts at once")
    def post(self, request: Any, ladder_id: int) -> Response:
        from ladder import services as ladder_services

        data = s.LadderChallengeCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        defender = _user_or_404(data.validated_data["defender"])

        def run() -> Response:
            _ladder_or_404(ladder_id)
            challenge = ladder_services.ladder_challenge_create(ladder_id=ladder_id, challenger=request.user,
                                                                defender=defender)
            return Response(game_detail_data(challenge.game_id, request.user), status=status.HTTP_201_CREATED)
        return idempotent(request, run)


# ---------------------------------------------------------------- tournaments (the tournaments app's own
# views, tournaments/api.py, documented here; reads get ETags, registering takes an Idempotency-Key)

TOURNAMENT_EXAMPLE = {
    "id": 7, "name": "Autumn Onitama Swiss", "game": "onitama", "format": "swiss", "status": "registration",
    "days_per_move": 3, "rated": True, "vacation_allowed": True, "swiss_rounds": 5, "cycles": 1,
    "registration_opens_at": None, "registration_closes_at": "2026-12-01T12:00:00Z", "min_players": 4,
    "max_players": 32, "rating_min": None, "rating_max": 1800, "started_at": None, "finished_at": None}


class TournamentListView(tournament_api.TournamentListView):
    @extend_schema(tags=["tournaments"], parameters=CONDITIONAL, operation_id="tournaments_list",
                   responses={200: s.TournamentListSerializer, **NOT_MODIFIED, **errors(401, 403, 429)},
                   summary="Tournaments open for registration, running, paused or finished (newest first)",
                   examples=[OpenApiExample("One tournament", response_only=True,
                                            value={"results": [TOURNAMENT_EXAMPLE]})])
    def get(self, request: Any) -> Response:
        return body_conditional_response(request, super().get(request))


class TournamentDetailView(tournament_api.TournamentDetailView):
    @extend_schema(tags=["tournaments"], parameters=CONDITIONAL,
                   responses={200: s.TournamentDetailSerializer, **NOT_MODIFIED, **errors(401, 403, 404, 429)},
                   summary="A tournament: settings, players, rounds and their pairings",
                   examples=[OpenApiExample("A Swiss in its first round", response_only=True, value={
                       **TOURNAMENT_EXAMPLE, "status": "running", "started_at": "2026-12-01T12:00:00Z",
                       "planned_rounds": 5, "registration_open": False,
                       "players": [{"username": "alice", "seed": 1, "status": "active"},
                                   {"username": "bob", "seed": 2, "status": "active"},
                                   {"username": "carol", "seed": 3, "status": "active"}],
                       "rounds": [{"number": 1, "pairings": [
                           {"board": 1, "replay": 0, "first": "alice", "second": "bob", "game": 42, "result": ""},
                           {"board": 2, "replay": 0, "first": "carol", "second": None, "game": None,
                            "result": "bye"}]}]})])
    def get(self, request: Any, tournament_id: int) -> Response:
        return body_conditional_response(request, super().get(request, tournament_id))


class TournamentStandingsView(tournament_api.TournamentStandingsView):
    @extend_schema(tags=["tournaments"], parameters=CONDITIONAL,
                   responses={200: s.TournamentStandingsSerializer, **NOT_MODIFIED,
                              **errors(401, 403, 404, 429)},
                   summary="Standings with tie-breaks (Buchholz, Sonneborn-Berger, head to head); "
                           "the bracket of a knockout",
                   examples=[OpenApiExample("After one round", response_only=True, value={
                       "id": 7, "name": "Autumn Onitama Swiss", "game": "onitama", "format": "swiss",
                       "status": "running", "current_round": 1, "standings": [
                           {"rank": 1, "player": "alice", "seed": 1, "points": 1.0, "buchholz": 0.0,
                            "sonneborn_berger": 0.0, "head_to_head": 0.0, "games": 1, "wins": 1, "draws": 0,
                            "losses": 0, "byes": 0, "withdrawn": False},
                           {"rank": 2, "player": "bob", "seed": 2, "points": 0.0, "buchholz": 1.0,
                            "sonneborn_berger": 0.0, "head_to_head": 0.0, "games": 1, "wins": 0, "draws": 0,
                            "losses": 1, "byes": 0, "withdrawn": False}]})])
    def get(self, request: Any, tournament_id: int) -> Response:
        return body_conditional_response(request, super().get(request, tournament_id))


class TournamentRegisterView(tournament_api.TournamentRegisterView):
    @extend_schema(tags=["tournaments"], request=None, parameters=[IDEMPOTENCY],
                   responses={201: s.TournamentRegistrationSerializer,
                              **errors(400, 401, 403, 404, 409, 422, 429)},
                   summary="Register for a tournament while its registration is open "
                           "(400: outside its rating limits; 409: closed, full or already registered)",
                   examples=[OpenApiExample("Registered", response_only=True, status_codes=["201"],
                                            value={"registered": True}),
                             OpenApiExample("Full", response_only=True, status_codes=["409"], value={
                                 "code": "tournament_full", "message": "This tournament is full (32 players).",
                                 "details": {"max": 32}})])
    def post(self, request: Any, tournament_id: int) -> Response:
        return idempotent(request, lambda: super(TournamentRegisterView, self).post(request, tournament_id))


class TournamentWithdrawView(tournament_api.TournamentWithdrawView):
    @extend_schema(tags=["tournaments"], request=None, parameters=[IDEMPOTENCY],
                   responses={200: s.TournamentRegistrationSerializer,
                              **errors(400, 401, 403, 404, 409, 422, 429)},
                   summary="Take back your registration (only before the start; 409 after it, "
                           "or when you are not registered; 400: a bad Idempotency-Key)",
                   examples=[OpenApiExample("Withdrawn", response_only=True, status_codes=["200"],
                                            value={"registered": False})])
    def post(self, request: Any, tournament_id: int) -> Response:
        return idempotent(request, lambda: super(TournamentWithdrawView, self).post(request, tournament_id))


# ---------------------------------------------------------------- blocks and reports

def _block_data(block: Any) -> dict[str, Any]:
    return {"username": block.blocked.username, "display_name": block.blocked.display_name,
            "blocked_at": block.created_at}


class BlockListView(ApiView):
    @extend_schema(tags=["fair play"], responses={200: s.BlockSerializer(many=True), **errors(401, 403, 429)},
                   summary="The players you blocked (they cannot challenge you)")
    def get(self, request: Any) -> Response:
        blocks = account_selectors.blocks_of_user(user=request.user)
        return Response(s.BlockSerializer([_block_data(b) for b in blocks], many=True).data)

    @extend_schema(tags=["fair play"], request=s.BlockCreateSerializer, parameters=[IDEMPOTENCY],
                   responses={201: s.BlockSerializer, **errors(400, 401, 403, 404, 422, 429)},
                   summary="Block a player (blocking twice changes nothing)")
    def post(self, request: Any) -> Response:
        data = s.BlockCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = _user_or_404(data.validated_data["username"])

        def create() -> Response:
            block = account_services.block_create(blocker=request.user, blocked=player)
            return Response(s.BlockSerializer(_block_data(block)).data, status=status.HTTP_201_CREATED)
        return idempotent(request, create)


class BlockDetailView(ApiView):
    @extend_schema(tags=["fair play"], responses={204: None, **errors(401, 403, 404, 429)},
                   summary="Unblock a player (204 also when there was no block)")
    def delete(self, request: Any, username: str) -> Response:
        account_services.block_delete(blocker=request.user, blocked=_user_or_404(username))
        return Response(status=status.HTTP_204_NO_CONTENT)


class ReportCreateView(ApiView):
    @extend_schema(tags=["fair play"], request=s.ReportCreateSerializer, parameters=[IDEMPOTENCY],
                   responses={201: s.ReportSerializer, **errors(400, 401, 403, 404, 409, 422, 429)},
                   summary="Report a player or a game to staff (once a day per target)")
    def post(self, request: Any) -> Response:
        data = s.ReportCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        player = _user_or_404(values["player"]) if values["player"] else None

        def create() -> Response:
            report = fairplay_services.report_create(reporter=request.user, kind=values["kind"],
                                                     reason=values["reason"], player=player,
                                                     game_id=values["game"])
            body = {"id": report.pk, "kind": report.kind, "reason": report.reason,
                    "player": report.player.username if report.player else None, "game": report.game_id,
                    "status": report.status, "created_at": report.created_at}
            return Response(s.ReportSerializer(body).data, status=status.HTTP_201_CREATED)
        return idempotent(request, create)
