"""The API's endpoints of games: lists, a game, moves and actions, solo games, challenges, events.

Thin: input serializers check the request, the games services write, games.selectors read,
and the output serializers of games/serializers.py shape every answer. Built on api's
shared base views (conditional GETs, idempotent writes, the error shape).
"""

from __future__ import annotations

import time
from typing import Any

from django.core.cache import cache
from django.http import HttpResponse
from django.utils import translation
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.pagination import CursorPagination
from rest_framework.response import Response

from accounts.apis import public_player_or_404
from api.base import ApiView, PublicReadView, body_conditional_response, conditional_response, idempotent
from api.docs import CONDITIONAL, IDEMPOTENCY, NOT_MODIFIED, errors
from api.errors import ApiError, service_error_response
from engine.records import record_to_json, record_to_text

from . import archive, selectors, services
from . import records as game_records
from . import serializers as s
from .archive import VARIANT_OPTIONS
from .errors import Conflict, GameActionError
from .events import Cursor, events_for_user
from .forms import ArchiveFilterForm
from .models import Game, GameKind, GameStatus, PlayerResult

# A game's detail, as one viewer sees it in one language, is kept for this long per version of
# the game (selectors.game_changed_at: every move, offer, answer, ending or clock change makes a
# new one), so that polling clients without an ETag cost what a 304 costs. Only the seconds
# left move on in between: they are counted down on the way out. What the version does not
# cover (a player's new display name) shows within this time, as it does through the ETag.
GAME_DETAIL_CACHE_SECONDS = 300


def game_detail_cached(game_id: int, user: Any, version: str) -> dict[str, Any]:
    """game_detail_data, from the cache when this viewer read this version of the game in this
    language before (the key names the viewer: what one player sees never reaches another)."""
    viewer = user.pk if getattr(user, "is_authenticated", False) else "-"
    key = "games:api-detail:%d:%s:%s:%s" % (game_id, version, viewer, translation.get_language())
    kept = cache.get(key)
    now = time.time()
    if kept is None:
        kept = {"data": dict(game_detail_data(game_id, user)), "built": now}
        cache.set(key, kept, GAME_DETAIL_CACHE_SECONDS)
        return kept["data"]
    data = dict(kept["data"])
    if data.get("time_left_seconds") is not None:
        data["time_left_seconds"] = max(0, data["time_left_seconds"] - int(now - kept["built"]))
    return data


def game_detail_data(game_id: int, user: Any) -> dict[str, Any]:
    """The game as ``user`` sees it, in the API's shape (404 in the error shape if unknown)."""
    try:
        page = selectors.game_for_viewer(game_id=game_id, user=user)
    except Game.DoesNotExist:
        raise ApiError("game_not_found", _("This game does not exist."), status_code=404) from None
    return s.GameDetailSerializer(page, context={"user": user}).data


# ---------------------------------------------------------------- lists


class GamePagination(CursorPagination):
    ordering = "-id"
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100

    def decode_cursor(self, request: Any) -> Any:
        try:
            return super().decode_cursor(request)
        except NotFound:  # a bad cursor is bad input, not a missing page
            raise ApiError(
                "bad_cursor",
                _("This cursor is not valid: use the next or previous link."),
                details={"cursor": request.query_params.get(self.cursor_query_param, "")[:100]},
            ) from None


GAME_FILTERS = [
    OpenApiParameter("mine", OpenApiTypes.BOOL, description="Only your games (signed in)."),
    OpenApiParameter("my_turn", OpenApiTypes.BOOL, description="Only your games where it is your turn."),
    OpenApiParameter(
        "status", OpenApiTypes.STR, enum=GameStatus.values, description="`finished` includes aborted games."
    ),
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
    qs = selectors.games_list(
        user=request.user, mine=mine, my_turn=my_turn, status=status_filter, kind=kind, player=player
    )
    paginator = GamePagination()
    page = paginator.paginate_queryset(qs, request, view=view)
    rows = s.GameSummarySerializer(page or [], many=True, context={"user": request.user}).data
    return body_conditional_response(request, paginator.get_paginated_response(rows))


class PlayerGamesView(PublicReadView):
    pagination_class = GamePagination

    @extend_schema(
        tags=["players"],
        parameters=GAME_FILTERS[2:] + CONDITIONAL,
        responses={200: s.GameSummarySerializer(many=True), **NOT_MODIFIED, **errors(400, 404, 429)},
        summary="A player's games, newest first",
    )
    def get(self, request: Any, username: str) -> Response:
        return _game_list(self, request, player=public_player_or_404(username))


class GameListView(PublicReadView):
    pagination_class = GamePagination

    @extend_schema(
        tags=["games"],
        parameters=GAME_FILTERS + CONDITIONAL,
        responses={200: s.GameSummarySerializer(many=True), **NOT_MODIFIED, **errors(400, 401, 429)},
        summary="Games, newest first, with filters and cursor pagination",
    )
    def get(self, request: Any) -> Response:
        return _game_list(self, request)


ARCHIVE_FILTERS = [
    OpenApiParameter("kind", OpenApiTypes.STR, enum=GameKind.values),
    OpenApiParameter(
        "variant",
        OpenApiTypes.STR,
        enum=list(VARIANT_OPTIONS),
        description="Onitama cards (`base`, `senseis_path`, `mixed`) or Maatatahay variant (`first`, `standard`).",
    ),
    OpenApiParameter(
        "result", OpenApiTypes.STR, enum=PlayerResult.values, description="The result seen from the player."
    ),
    OpenApiParameter("opponent", OpenApiTypes.STR, description="The start of an opponent's username, in any case."),
    OpenApiParameter("finished_from", OpenApiTypes.DATE, description="Finished on or after this day."),
    OpenApiParameter("finished_to", OpenApiTypes.DATE, description="Finished on or before this day."),
    OpenApiParameter("rated", OpenApiTypes.STR, enum=["yes", "no"]),
    OpenApiParameter("tournament", OpenApiTypes.INT, description="A tournament's id: only its games."),
]


class PlayerArchiveView(PublicReadView):
    pagination_class = GamePagination

    @extend_schema(
        tags=["players"],
        parameters=ARCHIVE_FILTERS + CONDITIONAL,
        responses={200: s.ArchiveGameSerializer(many=True), **NOT_MODIFIED, **errors(400, 404, 429)},
        summary="A player's archive: their games that are over, filtered, newest first",
        description="The same filters as the archive page (/history/<username>/). A bad value answers 400 "
        "with the fields at fault in `details.fields`.",
    )
    def get(self, request: Any, username: str) -> Response:
        player = public_player_or_404(username)
        form = ArchiveFilterForm(request.query_params)
        if not form.is_valid():
            raise ApiError(
                "invalid",
                _("Some fields are not valid."),
                details={"fields": {name: [str(e) for e in errs] for name, errs in form.errors.items()}},
            )
        qs = archive.games_archive_shown(player=player, filters=form.archive_filters())
        paginator = GamePagination()
        page = paginator.paginate_queryset(qs, request, view=self)
        rows = s.ArchiveGameSerializer(page or [], many=True, context={"user": request.user}).data
        return body_conditional_response(request, paginator.get_paginated_response(rows))


# ---------------------------------------------------------------- a game


class GameDetailView(PublicReadView):
    @extend_schema(
        tags=["games"],
        parameters=CONDITIONAL,
        responses={200: s.GameDetailSerializer, **NOT_MODIFIED, **errors(404, 429)},
        summary="A game as you see it: view, moves, whose turn, deadline, your legal moves",
    )
    def get(self, request: Any, game_id: int) -> Response:
        changed = selectors.game_changed_at(game_id=game_id)
        if changed is None:
            raise ApiError("game_not_found", _("This game does not exist."), status_code=404)
        changed_at, version = changed
        return conditional_response(
            request,
            version="game:%s:%s" % (game_id, version),
            last_modified=changed_at,
            build=lambda: Response(game_detail_cached(game_id, request.user, version)),
        )


def _record_or_error(game_id: int) -> tuple[Any, str]:
    try:
        return game_records.game_record_get(game_id=game_id)
    except GameActionError as error:
        raise ApiError(error.code, error.message, status_code=error.status) from None


class GameRecordView(PublicReadView):
    @extend_schema(
        tags=["games"],
        responses={200: OpenApiTypes.OBJECT, **errors(404, 409, 429)},
        summary="The JSON replay record of a game that is over (what `python -m engine replay` reads)",
        description=(
            "Keys: `game`, `seed` (revealed at the end), `options`, `moves` (one move text per decision), "
            "`data_version`, `salt`, and `tags`: the text record's header (Event, Site, Date, Game, the players "
            "by side, their ratings, Result, Reason, the options, Seed, Salt). A running game answers 409."
        ),
    )
    def get(self, request: Any, game_id: int) -> Response:
        record, salt = _record_or_error(game_id)
        return Response(record_to_json(record, salt=salt))


class GameRecordTextView(PublicReadView):
    @extend_schema(
        tags=["games"],
        responses={(200, "text/plain"): OpenApiTypes.STR, **errors(404, 409, 429)},
        summary="The text record of a game that is over (PGN-like: tags, one decision a line, the result)",
    )
    def get(self, request: Any, game_id: int) -> HttpResponse:
        record, _salt = _record_or_error(game_id)
        return HttpResponse(record_to_text(record), content_type="text/plain; charset=utf-8")


class RecordImportView(ApiView):
    @extend_schema(
        tags=["games"],
        request=s.RecordImportSerializer,
        parameters=[IDEMPOTENCY],
        responses={201: s.ImportedRecordSerializer, **errors(400, 401, 422, 429)},
        summary="Import a game record to step through on an analysis board (no bot evaluation)",
        description="A malformed record or an illegal move answers 400 with `line` (0 when it has none).",
    )
    def post(self, request: Any) -> Response:
        data = s.RecordImportSerializer(data=request.data)
        data.is_valid(raise_exception=True)

        def create() -> Response:
            imported = game_records.record_import(owner=request.user, text=data.validated_data["record"])
            position = game_records.imported_record_position(record_id=imported.pk, owner=request.user, ply=0)
            return Response(s.ImportedRecordSerializer(position).data, status=status.HTTP_201_CREATED)

        return idempotent(request, create)


class ImportedRecordView(ApiView):
    @extend_schema(
        tags=["games"],
        parameters=[OpenApiParameter("ply", OpenApiTypes.INT, description="The position after this many decisions.")],
        responses={200: s.ImportedRecordSerializer, **errors(401, 404, 429)},
        summary="One of your imported records at a position",
    )
    def get(self, request: Any, record_id: int) -> Response:
        ply = request.query_params.get("ply", "")
        position = game_records.imported_record_position(
            record_id=record_id, owner=request.user, ply=int(ply) if ply.isdigit() else None
        )
        return Response(s.ImportedRecordSerializer(position).data)


class MoveSubmitView(ApiView):
    @extend_schema(
        tags=["games"],
        request=s.MoveSubmitSerializer,
        parameters=[IDEMPOTENCY],
        responses={201: s.MoveResultSerializer, **errors(400, 401, 403, 404, 409, 422, 429)},
        summary="Play one decision at the ply you saw",
        examples=[
            OpenApiExample("Onitama move", request_only=True, value={"move": "boar:c1c2", "ply": 0}),
            OpenApiExample(
                "Stale ply",
                response_only=True,
                status_codes=["409"],
                value={
                    "code": "stale_ply",
                    "message": "The game has moved on since you loaded the page "
                    "(you saw ply 3, the game is at ply 4). Nothing was changed; please look again.",
                    "details": {"expected": 3, "current": 4, "game": {"id": 7, "ply": 4}},
                },
            ),
        ],
    )
    def post(self, request: Any, game_id: int) -> Response:
        data = s.MoveSubmitSerializer(data=request.data)
        data.is_valid(raise_exception=True)

        def submit() -> Response:
            try:
                move = services.move_submit(
                    game_id=game_id,
                    user=request.user,
                    move_text=data.validated_data["move"],
                    expected_ply=data.validated_data["ply"],
                )
            except Conflict as error:
                if error.code != "stale_ply":
                    raise
                return service_error_response(error, {"game": game_detail_data(game_id, request.user)})
            page = selectors.game_for_viewer(game_id=game_id, user=request.user, game=move.game)
            result = s.MoveResultSerializer({"played": move, "game": page}, context={"user": request.user})
            return Response(result.data, status=status.HTTP_201_CREATED)

        return idempotent(request, submit)


class ConditionalLinesView(ApiView):
    @extend_schema(
        tags=["games"],
        responses={200: s.ConditionalLinesSerializer, **errors(400, 401, 403, 404, 429)},
        summary="Your own queued conditional lines in an Onitama game (never the opponent's)",
    )
    def get(self, request: Any, game_id: int) -> Response:
        lines = services.conditional_lines_of(game_id=game_id, user=request.user)
        return Response(s.ConditionalLinesSerializer({"lines": lines}).data)

    @extend_schema(
        tags=["games"],
        request=s.ConditionalLinesSerializer,
        responses={200: s.ConditionalLinesSerializer, **errors(400, 401, 403, 404, 409, 422, 429)},
        summary="Replace your queued conditional lines (on your opponent's turn; an empty list clears them)",
        description="Each line is checked against the current position; an illegal line answers 400 "
        "naming the line and ply (`details.line`, `details.ply`). When your opponent plays the first "
        "move of a line, its answer is played for you at once, and the rest of the line kept; the "
        "lines that no longer apply are dropped. Private: shown to nobody else before they are played.",
        examples=[OpenApiExample("One line", request_only=True, value={"lines": [["ox:c5c4", "boar:a1a2"]]})],
    )
    def put(self, request: Any, game_id: int) -> Response:
        data = s.ConditionalLinesSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        lines = services.conditional_lines_set(game_id=game_id, user=request.user, lines=data.validated_data["lines"])
        return Response(s.ConditionalLinesSerializer({"lines": lines}).data)


def _game_action(name: str, action: Any, summary: str) -> type[ApiView]:
    class GameActionView(ApiView):
        @extend_schema(
            tags=["games"],
            request=None,
            parameters=[IDEMPOTENCY],
            summary=summary,
            operation_id="games_%s" % name,
            responses={200: s.GameDetailSerializer, **errors(400, 401, 403, 404, 409, 422, 429)},
        )
        def post(self, request: Any, game_id: int) -> Response:
            def run() -> Response:
                action(game_id=game_id, user=request.user)
                return Response(game_detail_data(game_id, request.user))

            return idempotent(request, run)

    GameActionView.__name__ = GameActionView.__qualname__ = "Game%sView" % name.title().replace("_", "")
    return GameActionView


GameResignView = _game_action("resign", services.game_resign, "Resign: the other side wins")
GameAbortView = _game_action("abort", services.game_abort, "Abort before both sides have moved")
DrawOfferView = _game_action(
    "draw_offer", services.draw_offer, "Offer a draw (Onitama between players; accepts a pending offer to you)"
)
DrawAcceptView = _game_action("draw_accept", services.draw_accept, "Accept the draw offered to you")
DrawDeclineView = _game_action("draw_decline", services.draw_decline, "Decline the draw offered to you")


class RematchOfferView(ApiView):
    @extend_schema(
        tags=["games"],
        request=None,
        parameters=[IDEMPOTENCY],
        responses={201: s.RematchSerializer, 200: s.RematchSerializer, **errors(400, 401, 403, 404, 409, 422, 429)},
        summary="Offer a rematch of a finished casual game, sides swapped",
        operation_id="games_rematch",
        description="Against a bot the rematch starts at once, same level. Between two players "
        "the opponent gets a challenge to accept or decline. One rematch per game: "
        "offering again answers 200 with the existing offer or game; the opponent's "
        "offer accepts a waiting one. Ladder and tournament games have none (403).",
    )
    def post(self, request: Any, game_id: int) -> Response:
        def offer() -> Response:
            rematch = services.rematch_offer(game_id=game_id, user=request.user)
            return Response(
                s.RematchSerializer(rematch).data,
                status=status.HTTP_201_CREATED if rematch.created else status.HTTP_200_OK,
            )

        return idempotent(request, offer)


class SoloCreateView(ApiView):
    @extend_schema(
        tags=["games"],
        request=s.SoloCreateSerializer,
        parameters=[IDEMPOTENCY],
        responses={201: s.GameDetailSerializer, **errors(400, 401, 403, 422, 429)},
        summary="Start a casual game against a bot",
        examples=[
            OpenApiExample(
                "Onitama against level 2",
                request_only=True,
                value={"kind": "onitama", "level": 2, "side": "red", "options": {"cards": "base"}},
            )
        ],
    )
    def post(self, request: Any) -> Response:
        data = s.SoloCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data

        def create() -> Response:
            game = services.game_create_solo(
                user=request.user,
                kind=values["kind"],
                bot_level=values["level"],
                side=values["side"],
                options=values["options"],
            )
            return Response(game_detail_data(game.pk, request.user), status=status.HTTP_201_CREATED)

        return idempotent(request, create)


# ---------------------------------------------------------------- challenges


class ChallengeListView(ApiView):
    @extend_schema(
        tags=["challenges"],
        parameters=CONDITIONAL,
        responses={200: s.ChallengeListSerializer, **NOT_MODIFIED, **errors(401, 403, 429)},
        summary="Open challenges to you, by you, and open to anyone",
    )
    def get(self, request: Any) -> Response:
        lobby = selectors.challenges_for_lobby(user=request.user)
        return body_conditional_response(request, Response(s.ChallengeListSerializer(lobby).data))

    @extend_schema(
        tags=["challenges"],
        request=s.ChallengeCreateSerializer,
        parameters=[IDEMPOTENCY],
        responses={201: s.ChallengeSerializer, **errors(400, 401, 403, 404, 422, 429)},
        summary="Challenge a player, or anyone (no opponent)",
        examples=[
            OpenApiExample(
                "Direct Maatatahay challenge",
                request_only=True,
                value={
                    "kind": "maatatahay",
                    "opponent": "bob",
                    "options": {"variant": "standard"},
                    "days_per_move": 3,
                    "rated": True,
                    "side": "random",
                },
            )
        ],
    )
    def post(self, request: Any) -> Response:
        data = s.ChallengeCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        opponent = public_player_or_404(values["opponent"]) if values["opponent"] else None

        def create() -> Response:
            challenge = services.challenge_create(
                challenger=request.user,
                opponent=opponent,
                kind=values["kind"],
                options=values["options"],
                days_per_move=values["days_per_move"],
                rated=values["rated"],
                seat_choice=values["side"],
            )
            return Response(s.ChallengeSerializer(challenge).data, status=status.HTTP_201_CREATED)

        return idempotent(request, create)


class ChallengeDetailView(ApiView):
    @extend_schema(
        tags=["challenges"],
        responses={200: s.ChallengeSerializer, **errors(401, 403, 404, 429)},
        summary="One challenge (yours, to you, or open to anyone)",
        operation_id="challenges_detail",
    )
    def get(self, request: Any, challenge_id: int) -> Response:
        challenge = selectors.challenge_visible_to(challenge_id=challenge_id, user=request.user)
        if challenge is None:
            raise ApiError("challenge_not_found", _("This challenge does not exist."), status_code=404)
        return Response(s.ChallengeSerializer(challenge).data)


class ChallengeAcceptView(ApiView):
    @extend_schema(
        tags=["challenges"],
        request=None,
        parameters=[IDEMPOTENCY],
        responses={201: s.GameDetailSerializer, **errors(400, 401, 403, 404, 409, 422, 429)},
        summary="Accept a challenge: the game starts",
    )
    def post(self, request: Any, challenge_id: int) -> Response:
        def accept() -> Response:
            game = services.challenge_accept(challenge_id=challenge_id, user=request.user)
            return Response(game_detail_data(game.pk, request.user), status=status.HTTP_201_CREATED)

        return idempotent(request, accept)


def _challenge_action(name: str, action: Any, summary: str) -> type[ApiView]:
    class ChallengeActionView(ApiView):
        @extend_schema(
            tags=["challenges"],
            request=None,
            parameters=[IDEMPOTENCY],
            summary=summary,
            operation_id="challenges_%s" % name,
            responses={200: s.ChallengeSerializer, **errors(400, 401, 403, 404, 409, 422, 429)},
        )
        def post(self, request: Any, challenge_id: int) -> Response:
            def run() -> Response:
                return Response(s.ChallengeSerializer(action(challenge_id=challenge_id, user=request.user)).data)

            return idempotent(request, run)

    ChallengeActionView.__name__ = ChallengeActionView.__qualname__ = "Challenge%sView" % name.title()
    return ChallengeActionView


ChallengeDeclineView = _challenge_action("decline", services.challenge_decline, "Decline a challenge addressed to you")
ChallengeCancelView = _challenge_action("cancel", services.challenge_cancel, "Withdraw your challenge")


# ---------------------------------------------------------------- events


class EventsView(ApiView):
    @extend_schema(
        tags=["events"],
        parameters=[
            OpenApiParameter("after", OpenApiTypes.STR, description="The `cursor` of your last answer."),
            OpenApiParameter("limit", OpenApiTypes.INT, description="At most this many events (1-100, default 50)."),
        ]
        + CONDITIONAL,
        responses={200: s.EventPageSerializer, **NOT_MODIFIED, **errors(400, 401, 403, 429)},
        summary="What changed for you since a cursor: your turn, challenges, draw offers, game over",
    )
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
        return body_conditional_response(request, Response(s.EventPageSerializer(page).data))
