"""The API's endpoints. Thin: input is checked by serializers, writes go through the
games, accounts and api services, reads through selectors; data is shaped by
api/presenters.py.
"""
from __future__ import annotations

from typing import Any

from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.exceptions import NotFound
from rest_framework.pagination import CursorPagination
from rest_framework.response import Response

from accounts import selectors as account_selectors
from accounts import services as account_services
from api.client_address import client_address_bucket
from games import selectors as game_selectors
from games import services as game_services
from games.errors import Conflict
from games.events import Cursor, events_for_user
from games.models import Challenge, Game, GameKind, GameStatus
from ops import services as ops_services
from tournaments import api as tournament_api

from . import presenters, selectors, services
from . import serializers as s
from .base import ApiView, PublicReadView, body_conditional_response, conditional_response, idempotent
from .docs import CONDITIONAL, IDEMPOTENCY, NOT_MODIFIED, errors
from .errors import ApiError, game_action_error_response
from .throttling import AuthRateThrottle, IPRateThrottle, UserRateThrottle


def _detail_data(game_id: int, user: Any) -> dict[str, Any]:
    try:
        page = game_selectors.game_for_viewer(game_id=game_id, user=user)
    except Game.DoesNotExist:
        raise ApiError("game_not_found", _("This game does not exist."), status_code=404) from None
    return s.GameDetailSerializer(presenters.game_detail_data(page, user)).data


def _user_or_404(username: str) -> Any:
    player = account_selectors.user_get_public(username=username)
    if player is None:
        raise ApiError("player_not_found", _("No such player."), status_code=404)
    return player


# ---------------------------------------------------------------- auth

class _AuthView(ApiView):
    authentication_classes: list[Any] = []
    permission_classes = [permissions.AllowAny]
    throttle_classes = [AuthRateThrottle, IPRateThrottle]


class SignupView(_AuthView):
    @extend_schema(tags=["auth"], request=s.SignupSerializer,
                   responses={201: s.SignupResultSerializer, **errors(400, 429)},
                   summary="Sign up: an inactive account, confirmed through the mailed link",
                   examples=[OpenApiExample("Sign-up", request_only=True, value={
                       "username": "alice", "email": "alice@example.org", "password": "a long passphrase"})])
    def post(self, request: Any) -> Response:
        data = s.SignupSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = account_services.user_signup(**data.validated_data)
        return Response({"username": user.username, "email": user.email,
                         "message": _("We have mailed you a link to confirm your address.")},
                        status=status.HTTP_201_CREATED)


class ConfirmView(_AuthView):
    @extend_schema(tags=["auth"], request=s.ConfirmSerializer,
                   responses={200: s.MessageSerializer, **errors(400, 429)},
                   summary="Confirm the email address with the token of the mailed link",
                   description="The token works once: used again (or after another link of the "
                               "account was used) it answers 400 with code `already_confirmed` "
                               "and changes nothing. It signs nobody in: get a token next.")
    def post(self, request: Any) -> Response:
        data = s.ConfirmSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = account_services.user_confirm_email(token=data.validated_data["token"])
        return Response({"message": _("Your email address is confirmed. Welcome, %(name)s!")
                         % {"name": user.public_name}})


class ConfirmResendView(_AuthView):
    @extend_schema(tags=["auth"], request=s.EmailSerializer,
                   responses={202: s.MessageSerializer, **errors(400, 429)},
                   summary="Mail a new confirmation link")
    def post(self, request: Any) -> Response:
        data = s.EmailSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        account_services.user_confirmation_resend(email=data.validated_data["email"])
        return Response({"message": _("If an unconfirmed account uses that address, we have mailed it a new link.")},
                        status=status.HTTP_202_ACCEPTED)


class PasswordResetView(_AuthView):
    @extend_schema(tags=["auth"], request=s.EmailSerializer,
                   responses={202: s.MessageSerializer, **errors(400, 429)},
                   summary="Mail a password reset link (its uid and token go to the confirm endpoint)")
    def post(self, request: Any) -> Response:
        data = s.EmailSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.password_reset_request(email=data.validated_data["email"])
        return Response({"message": _("If an account uses that address, we have mailed it a link.")},
                        status=status.HTTP_202_ACCEPTED)


class PasswordResetConfirmView(_AuthView):
    @extend_schema(tags=["auth"], request=s.PasswordResetConfirmSerializer,
                   responses={200: s.MessageSerializer, **errors(400, 429)},
                   summary="Set a new password (revokes the account's API tokens)")
    def post(self, request: Any) -> Response:
        data = s.PasswordResetConfirmSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.password_reset_complete(**data.validated_data)
        return Response({"message": _("Your password is changed.")})


def _token_data(token: Any, secret: str | None = None) -> dict[str, Any]:
    data = {"id": token.pk, "name": token.name, "prefix": token.prefix, "scopes": token.scopes,
            "created_at": token.created_at, "last_used_at": token.last_used_at}
    if secret is not None:
        data["token"] = secret
    return data


class CredentialsTokenView(_AuthView):
    @extend_schema(tags=["auth"], request=s.CredentialsTokenSerializer,
                   responses={201: s.TokenSecretSerializer, **errors(400, 403, 429)},
                   summary="Get a token from username (or email) and password",
                   examples=[OpenApiExample("Token for a phone", request_only=True, value={
                       "username": "alice", "password": "a long passphrase", "name": "Alice's phone",
                       "scopes": ["read", "play"]})])
    def post(self, request: Any) -> Response:
        data = s.CredentialsTokenSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        token, secret = services.token_create_from_credentials(**data.validated_data,
                                                               client_address=client_address_bucket(request))
        return Response(s.TokenSecretSerializer(_token_data(token, secret)).data, status=status.HTTP_201_CREATED)


class TokenListView(ApiView):
    @extend_schema(tags=["tokens"], responses={200: s.TokenSerializer(many=True), **errors(401, 403, 429)},
                   summary="Your live tokens (never their secrets)")
    def get(self, request: Any) -> Response:
        tokens = selectors.tokens_of_user(user=request.user)
        return Response(s.TokenSerializer([_token_data(t) for t in tokens], many=True).data)

    @extend_schema(tags=["tokens"], request=s.TokenCreateSerializer,
                   responses={201: s.TokenSecretSerializer, **errors(400, 401, 403, 409, 429)},
                   summary="Make a token (its secret is shown once)")
    def post(self, request: Any) -> Response:
        data = s.TokenCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        allowed = request.auth.scopes if hasattr(request.auth, "scopes") else None
        token, secret = services.token_create(user=request.user, allowed_scopes=allowed, **data.validated_data)
        return Response(s.TokenSecretSerializer(_token_data(token, secret)).data, status=status.HTTP_201_CREATED)


class TokenDetailView(ApiView):
    @extend_schema(tags=["tokens"], responses={204: None, **errors(401, 403, 404, 429)},
                   summary="Revoke a token")
    def delete(self, request: Any, token_id: int) -> Response:
        services.token_revoke(user=request.user, token_id=token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


# ---------------------------------------------------------------- me and players

def _me_data(user: Any) -> dict[str, Any]:
    return {field: getattr(user, field) for field in s.MeSerializer().fields.keys()}


class MeView(ApiView):
    @extend_schema(tags=["me"], responses={200: s.MeSerializer, **errors(401, 403, 429)},
                   summary="Your account and preferences")
    def get(self, request: Any) -> Response:
        return Response(s.MeSerializer(_me_data(request.user)).data)

    @extend_schema(tags=["me"], request=s.PreferencesSerializer,
                   responses={200: s.MeSerializer, **errors(400, 401, 403, 429)},
                   summary="Change your preferences (only the fields you send)")
    def patch(self, request: Any) -> Response:
        data = s.PreferencesSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = request.user
        current = {field: getattr(user, field) for field in s.PreferencesSerializer().fields.keys()}
        account_services.profile_update(user=user, **{**current, **data.validated_data})
        return Response(s.MeSerializer(_me_data(user)).data)


class AccountEmailView(ApiView):
    # A password check: it spends the budget of the sign-in endpoints too.
    throttle_classes = [UserRateThrottle, IPRateThrottle, AuthRateThrottle]

    @extend_schema(tags=["me"], request=s.EmailChangeSerializer,
                   responses={202: s.MessageSerializer, **errors(400, 401, 403, 429)},
                   summary="Change your email address (or confirm a failing one again): a link goes to it, "
                           "and following it makes it the account's address and clears a failure")
    def post(self, request: Any) -> Response:
        data = s.EmailChangeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        account_services.email_change_request(user=request.user, new_email=data.validated_data["email"],
                                              password=data.validated_data["password"])
        return Response({"message": _("We have mailed a link to %(email)s: follow it to use that address.")
                         % {"email": data.validated_data["email"]}}, status=status.HTTP_202_ACCEPTED)


class GamePagination(CursorPagination):
    ordering = "-id"
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100

    def decode_cursor(self, request: Any) -> Any:
        try:
            return super().decode_cursor(request)
        except NotFound:  # a bad cursor is bad input, not a missing page
            raise ApiError("bad_cursor", _("This cursor is not valid: use the next or previous link."),
                           details={"cursor": request.query_params.get(self.cursor_query_param, "")[:100]}) from None


GAME_FILTERS = [
    OpenApiParameter("mine", OpenApiTypes.BOOL, description="Only your games (signed in)."),
    OpenApiParameter("my_turn", OpenApiTypes.BOOL, description="Only your games where it is your turn."),
    OpenApiParameter("status", OpenApiTypes.STR, enum=GameStatus.values,
                     description="`finished` includes aborted games."),
    OpenApiParameter("kind", OpenApiTypes.STR, enum=GameKind.values),
]


def _flag(request: Any, name: str) -> bool:
    value = request.query_params.get(name, "")
    if value.lower() in ("", "0", "false", "no"):
        return False
    if value.lower() in ("1", "true", "yes"):
        return True
    raise ApiError("invalid", _("Some fields are not valid."), details={"fields": {name: ["true or false"]}})


def _game_list(view: ApiView, request: Any, player: Any = None) -> Response:
    mine, my_turn = _flag(request, "mine"), _flag(request, "my_turn")
    if (mine or my_turn) and not request.user.is_authenticated:
        raise ApiError("not_authenticated", _("Sign in to list your own games."), status_code=401)
    status_filter = request.query_params.get("status") or None
    if status_filter is not None and status_filter not in GameStatus.values:
        raise ApiError("invalid", _("Some fields are not valid."), details={"fields": {"status": [status_filter]}})
    kind = request.query_params.get("kind") or None
    if kind is not None and kind not in GameKind.values:
        raise ApiError("invalid", _("Some fields are not valid."), details={"fields": {"kind": [kind]}})
    qs = selectors.games_list(user=request.user, mine=mine, my_turn=my_turn, status=status_filter,
                              kind=kind, player=player)
    paginator = GamePagination()
    page = paginator.paginate_queryset(qs, request, view=view)
    rows = [presenters.game_summary_data(g, list(g.seats.all()), request.user) for g in page or []]
    response = paginator.get_paginated_response(s.GameSummarySerializer(rows, many=True).data)
    return body_conditional_response(request, response)


class PlayerView(PublicReadView):
    @extend_schema(tags=["players"], responses={200: s.PlayerProfileSerializer, **errors(404, 429)},
                   summary="A player's public profile and ratings")
    def get(self, request: Any, username: str) -> Response:
        from ratings.selectors import ratings_for_player

        player = _user_or_404(username)
        data = {"username": player.username, "display_name": player.display_name,
                "date_joined": player.date_joined, **selectors.player_game_counts(player=player),
                "ratings": [_rating_data(shown) for shown in ratings_for_player(user=player)]}
        return Response(s.PlayerProfileSerializer(data).data)


class PlayerGamesView(PublicReadView):
    pagination_class = GamePagination

    @extend_schema(tags=["players"], parameters=GAME_FILTERS[2:] + CONDITIONAL,
                   responses={200: s.GameSummarySerializer(many=True), **NOT_MODIFIED, **errors(400, 404, 429)},
                   summary="A player's games, newest first")
    def get(self, request: Any, username: str) -> Response:
        return _game_list(self, request, player=_user_or_404(username))


# ---------------------------------------------------------------- games

class GameListView(PublicReadView):
    pagination_class = GamePagination

    @extend_schema(tags=["games"], parameters=GAME_FILTERS + CONDITIONAL,
                   responses={200: s.GameSummarySerializer(many=True), **NOT_MODIFIED, **errors(400, 401, 429)},
                   summary="Games, newest first, with filters and cursor pagination")
    def get(self, request: Any) -> Response:
        return _game_list(self, request)


class GameDetailView(PublicReadView):
    @extend_schema(tags=["games"], parameters=CONDITIONAL,
                   responses={200: s.GameDetailSerializer, **NOT_MODIFIED, **errors(404, 429)},
                   summary="A game as you see it: view, moves, whose turn, deadline, your legal moves")
    def get(self, request: Any, game_id: int) -> Response:
        changed = selectors.game_changed_at(game_id=game_id)
        if changed is None:
            raise ApiError("game_not_found", _("This game does not exist."), status_code=404)
        changed_at, version = changed
        return conditional_response(request, version="game:%s:%s" % (game_id, version), last_modified=changed_at,
                                    build=lambda: Response(_detail_data(game_id, request.user)))


class MoveSubmitView(ApiView):
    @extend_schema(tags=["games"], request=s.MoveSubmitSerializer, parameters=[IDEMPOTENCY],
                   responses={201: s.MoveResultSerializer, **errors(400, 401, 403, 404, 409, 422, 429)},
                   summary="Play one decision at the ply you saw",
                   examples=[OpenApiExample("Onitama move", request_only=True, value={"move": "boar:c1c2", "ply": 0}),
                             OpenApiExample("Stale ply", response_only=True, status_codes=["409"], value={
                                 "code": "stale_ply", "message": "The game has moved on since you loaded the page "
                                 "(you saw ply 3, the game is at ply 4). Nothing was changed; please look again.",
                                 "details": {"expected": 3, "current": 4, "game": {"id": 7, "ply": 4}}})])
    def post(self, request: Any, game_id: int) -> Response:
        data = s.MoveSubmitSerializer(data=request.data)
        data.is_valid(raise_exception=True)

        def submit() -> Response:
            try:
                move = game_services.move_submit(game_id=game_id, user=request.user,
                                                 move_text=data.validated_data["move"],
                                                 expected_ply=data.validated_data["ply"])
            except Conflict as error:
                if error.code != "stale_ply":
                    raise
                return game_action_error_response(error, {"game": _detail_data(game_id, request.user)})
            result = {"played": presenters.move_data(move), "game": _detail_data(game_id, request.user)}
            return Response(s.MoveResultSerializer(result).data, status=status.HTTP_201_CREATED)
        return idempotent(request, submit)


def _game_action(name: str, action: Any, summary: str) -> type[ApiView]:
    class GameActionView(ApiView):
        @extend_schema(tags=["games"], request=None, parameters=[IDEMPOTENCY], summary=summary,
                       operation_id="games_%s" % name,
                       responses={200: s.GameDetailSerializer, **errors(400, 401, 403, 404, 409, 422, 429)})
        def post(self, request: Any, game_id: int) -> Response:
            def run() -> Response:
                action(game_id=game_id, user=request.user)
                return Response(_detail_data(game_id, request.user))
            return idempotent(request, run)
    GameActionView.__name__ = GameActionView.__qualname__ = "Game%sView" % name.title().replace("_", "")
    return GameActionView


GameResignView = _game_action("resign", game_services.game_resign, "Resign: the other side wins")
GameAbortView = _game_action("abort", game_services.game_abort, "Abort before both sides have moved")
DrawOfferView = _game_action("draw_offer", game_services.draw_offer,
                             "Offer a draw (Onitama between players; accepts a pending offer to you)")
DrawAcceptView = _game_action("draw_accept", game_services.draw_accept, "Accept the draw offered to you")
DrawDeclineView = _game_action("draw_decline", game_services.draw_decline, "Decline the draw offered to you")


class SoloCreateView(ApiView):
    @extend_schema(tags=["games"], request=s.SoloCreateSerializer, parameters=[IDEMPOTENCY],
                   responses={201: s.GameDetailSerializer, **errors(400, 401, 403, 422, 429)},
                   summary="Start a casual game against a bot",
                   examples=[OpenApiExample("Onitama against level 2", request_only=True, value={
                       "kind": "onitama", "level": 2, "side": "red", "options": {"cards": "base"}})])
    def post(self, request: Any) -> Response:
        data = s.SoloCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data

        def create() -> Response:
            game = game_services.game_create_solo(user=request.user, kind=values["kind"], bot_level=values["level"],
                                                  side=values["side"], options=values["options"])
            return Response(_detail_data(game.pk, request.user), status=status.HTTP_201_CREATED)
        return idempotent(request, create)


# ---------------------------------------------------------------- challenges

def _challenge_data(challenge: Challenge) -> dict[str, Any]:
    return s.ChallengeSerializer(presenters.challenge_data(challenge)).data


class ChallengeListView(ApiView):
    @extend_schema(tags=["challenges"], parameters=CONDITIONAL,
                   responses={200: s.ChallengeListSerializer, **NOT_MODIFIED, **errors(401, 403, 429)},
                   summary="Open challenges to you, by you, and open to anyone")
    def get(self, request: Any) -> Response:
        lobby = game_selectors.challenges_for_lobby(user=request.user)
        data = {"incoming": [presenters.challenge_data(c) for c in lobby.incoming],
                "outgoing": [presenters.challenge_data(c) for c in lobby.outgoing],
                "open": [presenters.challenge_data(c) for c in lobby.open_to_all]}
        return body_conditional_response(request, Response(s.ChallengeListSerializer(data).data))

    @extend_schema(tags=["challenges"], request=s.ChallengeCreateSerializer, parameters=[IDEMPOTENCY],
                   responses={201: s.ChallengeSerializer, **errors(400, 401, 403, 404, 422, 429)},
                   summary="Challenge a player, or anyone (no opponent)",
                   examples=[OpenApiExample("Direct Maatatahay challenge", request_only=True, value={
                       "kind": "maatatahay", "opponent": "bob", "options": {"variant": "standard"},
                       "days_per_move": 3, "rated": True, "side": "random"})])
    def post(self, request: Any) -> Response:
        data = s.ChallengeCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        opponent = _user_or_404(values["opponent"]) if values["opponent"] else None

        def create() -> Response:
            challenge = game_services.challenge_create(
                challenger=request.user, opponent=opponent, kind=values["kind"], options=values["options"],
                days_per_move=values["days_per_move"], rated=values["rated"], seat_choice=values["side"])
            return Response(_challenge_data(challenge), status=status.HTTP_201_CREATED)
        return idempotent(request, create)


class ChallengeDetailView(ApiView):
    @extend_schema(tags=["challenges"], responses={200: s.ChallengeSerializer, **errors(401, 403, 404, 429)},
                   summary="One challenge (yours, to you, or open to anyone)",
                   operation_id="challenges_detail")
    def get(self, request: Any, challenge_id: int) -> Response:
        challenge = selectors.challenge_visible_to(challenge_id=challenge_id, user=request.user)
        if challenge is None:
            raise ApiError("challenge_not_found", _("This challenge does not exist."), status_code=404)
        return Response(_challenge_data(challenge))


class ChallengeAcceptView(ApiView):
    @extend_schema(tags=["challenges"], request=None, parameters=[IDEMPOTENCY],
                   responses={201: s.GameDetailSerializer, **errors(400, 401, 403, 404, 409, 422, 429)},
                   summary="Accept a challenge: the game starts")
    def post(self, request: Any, challenge_id: int) -> Response:
        def accept() -> Response:
            game = game_services.challenge_accept(challenge_id=challenge_id, user=request.user)
            return Response(_detail_data(game.pk, request.user), status=status.HTTP_201_CREATED)
        return idempotent(request, accept)


def _challenge_action(name: str, action: Any, summary: str) -> type[ApiView]:
    class ChallengeActionView(ApiView):
        @extend_schema(tags=["challenges"], request=None, parameters=[IDEMPOTENCY], summary=summary,
                       operation_id="challenges_%s" % name,
                       responses={200: s.ChallengeSerializer, **errors(400, 401, 403, 404, 409, 422, 429)})
        def post(self, request: Any, challenge_id: int) -> Response:
            def run() -> Response:
                return Response(_challenge_data(action(challenge_id=challenge_id, user=request.user)))
            return idempotent(request, run)
    ChallengeActionView.__name__ = ChallengeActionView.__qualname__ = "Challenge%sView" % name.title()
    return ChallengeActionView


ChallengeDeclineView = _challenge_action("decline", game_services.challenge_decline,
                                         "Decline a challenge addressed to you")
ChallengeCancelView = _challenge_action("cancel", game_services.challenge_cancel, "Withdraw your challenge")


# ---------------------------------------------------------------- events and ping

class EventsView(ApiView):
    @extend_schema(tags=["events"], parameters=[
        OpenApiParameter("after", OpenApiTypes.STR, description="The `cursor` of your last answer."),
        OpenApiParameter("limit", OpenApiTypes.INT, description="At most this many events (1-100, default 50)."),
    ] + CONDITIONAL, responses={200: s.EventPageSerializer, **NOT_MODIFIED, **errors(400, 401, 403, 429)},
        summary="What changed for you since a cursor: your turn, challenges, draw offers, game over")
    def get(self, request: Any) -> Response:
        after_text = request.query_params.get("after")
        after = Cursor.parse(after_text) if after_text else None
        try:
            limit = max(1, min(100, int(request.query_params.get("limit", 50))))
        except ValueError:
            raise ApiError(
                "invalid", _("Some fields are not valid."), details={"fields": {"limit": ["1-100"]}}
            ) from None
        page = events_for_user(user=request.user, after=after, limit=limit)
        data = {"events": [e.as_dict() for e in page.events], "cursor": page.cursor.text(),
                "has_more": page.has_more}
        return body_conditional_response(request, Response(s.EventPageSerializer(data).data))


@csrf_exempt
def unknown_path(request: Any, *args: Any, **kwargs: Any) -> JsonResponse:
    """A path under /api/v1/ that names nothing: 404 in the error shape (it changes nothing,
    so it needs no CSRF check, whatever the method)."""
    return JsonResponse({"code": "not_found", "message": _("Not found."), "details": {"path": request.path[:200]}},
                        status=404)


class PingView(ApiView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(tags=["meta"], responses={200: s.PingSerializer, **errors(429)},
                   summary="A trivial answer (for monitoring and benchmarks)")
    def get(self, request: Any) -> Response:
        return Response({"ok": True})



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
    if not selectors.ladder_exists(ladder_id=ladder_id):
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
            return Response(_detail_data(challenge.game_id, request.user), status=status.HTTP_201_CREATED)
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
            report = ops_services.report_create(reporter=request.user, kind=values["kind"],
                                                reason=values["reason"], player=player, game_id=values["game"])
            body = {"id": report.pk, "kind": report.kind, "reason": report.reason,
                    "player": report.player.username if report.player else None, "game": report.game_id,
                    "status": report.status, "created_at": report.created_at}
            return Response(s.ReportSerializer(body).data, status=status.HTTP_201_CREATED)
        return idempotent(request, create)
