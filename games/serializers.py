"""The API's shapes of games, moves, challenges and events: its OpenAPI schema and its answers.

The output serializers take the games app's own objects (a ``Game`` with its seats
prefetched, a ``games.selectors.GamePage``, a ``Move``, a ``Challenge``, the events feed's
``Event`` and ``EventPage``) and shape them here, once; the viewer, who decides ``is_you``,
``your_side`` and ``your_turn``, comes in the context (``context={"user": request.user}``).
Games come from games.selectors, so nothing here reads ``Game.state`` or the sealed seed.
Comments, not docstrings, describe the classes: drf-spectacular would publish a
docstring in the schema, which must stay as committed (maatasite/openapi.yaml).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from .events import EventKind
from .models import (
    BOT_LEVELS,
    DAYS_PER_MOVE_CHOICES,
    ChallengeStatus,
    DrawOffer,
    Game,
    GameKind,
    GameStatus,
    PlayerResult,
    ResultReason,
    Seat,
    player_result,
)
from .selectors import GamePage

KIND_CHOICES = GameKind.choices
DAYS_CHOICES = [d for d, _label in DAYS_PER_MOVE_CHOICES]


def _viewer_id(context: Mapping[str, Any]) -> int | None:
    """The signed-in viewer's id from a serializer's context; None for a spectator."""
    user = context.get("user")
    return user.pk if user is not None and getattr(user, "is_authenticated", False) else None


# ---------------------------------------------------------------- games


# A ``Seat`` (its user loaded).
class SeatSerializer(serializers.Serializer):
    side = serializers.CharField()
    position = serializers.IntegerField()
    username = serializers.CharField(
        allow_null=True, help_text='Null for a bot or a deleted account (`display_name` then says "deleted player").'
    )
    display_name = serializers.CharField()
    bot_level = serializers.IntegerField(allow_null=True)
    is_you = serializers.BooleanField()

    @staticmethod
    def seat_values(seat: Seat, me: int | None) -> dict[str, Any]:
        """The seat's values as ``me`` (the viewer's id, None for a spectator) sees them."""
        user = seat.user if seat.user_id is not None else None
        return {
            "side": seat.side,
            "position": seat.position,
            "username": user.username if user and not user.is_deleted else None,
            "display_name": user.public_name if user else seat.player_name,
            "bot_level": seat.bot_level,
            "is_you": me is not None and seat.user_id == me,
        }

    def to_representation(self, seat: Seat) -> dict[str, Any]:
        return super().to_representation(self.seat_values(seat, _viewer_id(self.context)))


# The result of a ``Game`` that is over.
class ResultSerializer(serializers.Serializer):
    winner_side = serializers.CharField(allow_null=True, help_text="Null for a draw or an aborted game.")
    reason = serializers.ChoiceField(choices=ResultReason.choices)
    scores = serializers.DictField(child=serializers.IntegerField(), allow_null=True)

    def to_representation(self, game: Game) -> dict[str, Any]:
        return super().to_representation(
            {"winner_side": game.winner_side or None, "reason": game.result_reason, "scores": game.scores}
        )


# A ``Game`` (its seats and their users prefetched) as the viewer sees it in lists.
class GameSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=KIND_CHOICES)
    status = serializers.ChoiceField(choices=GameStatus.choices)
    options = serializers.DictField()
    days_per_move = serializers.IntegerField()
    rated = serializers.BooleanField()
    bot_level = serializers.IntegerField(allow_null=True)
    ply = serializers.IntegerField(help_text="Decisions played so far; send it as `ply` with a move.")
    turn = serializers.IntegerField()
    to_move_side = serializers.CharField(allow_null=True)
    to_move_username = serializers.CharField(allow_null=True)
    your_side = serializers.CharField(allow_null=True)
    your_turn = serializers.BooleanField()
    deadline = serializers.DateTimeField(allow_null=True)
    seats = SeatSerializer(many=True)
    result = ResultSerializer(allow_null=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)

    def summary_values(self, game: Game, seats: list[Seat]) -> dict[str, Any]:
        """The summary's values; seats and result are shaped by their own serializers."""
        me = _viewer_id(self.context)
        mine = next((s for s in seats if me is not None and s.user_id == me), None)
        to_move = next((s for s in seats if s.side == game.to_move_side), None) if game.to_move_side else None
        return {
            "id": game.pk,
            "kind": game.kind,
            "status": game.status,
            "options": game.options,
            "days_per_move": game.days_per_move,
            "rated": game.rated,
            "bot_level": game.bot_level,
            "ply": game.ply,
            "turn": game.turn,
            "to_move_side": game.to_move_side or None,
            "to_move_username": to_move.user.username if to_move and to_move.user else None,
            "your_side": mine.side if mine else None,
            "your_turn": bool(mine and game.is_active and game.to_move_side == mine.side),
            "deadline": game.deadline,
            "seats": seats,
            "result": game if game.is_over else None,
            "created_at": game.created_at,
            "finished_at": game.finished_at,
        }

    def to_representation(self, game: Game) -> dict[str, Any]:
        return _shaped(
            _shape_of(type(self)), self.summary_values(game, list(game.seats.all())), _viewer_id(self.context)
        )


# A ``Game`` of a player's archive (games.archive: annotated with ``my_side``, the player's side).
class ArchiveGameSerializer(GameSummarySerializer):
    player_side = serializers.CharField(help_text="The archive's player's side.")
    player_result = serializers.ChoiceField(
        choices=PlayerResult.choices, help_text="The result seen from the archive's player."
    )
    opponents = serializers.ListField(child=serializers.CharField(), help_text="The other seats' names.")
    record_text_url = serializers.CharField(allow_null=True, help_text="The text record (null until ready).")
    record_json_url = serializers.CharField(allow_null=True, help_text="The JSON replay record (null until ready).")

    def to_representation(self, game: Game) -> dict[str, Any]:
        seats = list(game.seats.all())
        values = self.summary_values(game, seats)
        ready = bool(game.revealed_seed)
        values.update(
            {
                "player_side": game.my_side,  # type: ignore[attr-defined]  # games.archive's annotation
                "player_result": player_result(game, game.my_side),  # type: ignore[attr-defined]
                "opponents": [seat.player_name for seat in seats if seat.side != game.my_side],  # type: ignore[attr-defined]
                "record_text_url": reverse("api:record_text", args=[game.pk]) if ready else None,
                "record_json_url": reverse("api:record", args=[game.pk]) if ready else None,
            }
        )
        return serializers.Serializer.to_representation(self, values)


# Many ``Move`` records: the dicts MoveRecordSerializer's fields make, built directly. A game's
# answer carries all its moves (hundreds in a long game) and DRF's walk through each field
# cost about 11 µs a move; tests/games/test_api_shapes.py compares both on the same moves.
class MoveRecordListSerializer(serializers.ListSerializer):
    def to_representation(self, data: Any) -> list[dict[str, Any]]:
        moves = data.all() if isinstance(data, models.manager.BaseManager) else data
        played_at = serializers.DateTimeField()  # DRF's own format and time zone
        return [
            {
                "ply": int(move.ply),
                "turn": int(move.turn),
                "side": str(move.seat.side),
                "text": str(move.text),
                "played_at": played_at.to_representation(move.created_at),
            }
            for move in moves
        ]


# A ``Move`` (its seat loaded).
class MoveRecordSerializer(serializers.Serializer):
    ply = serializers.IntegerField()
    turn = serializers.IntegerField()
    side = serializers.CharField(source="seat.side")
    text = serializers.CharField()
    played_at = serializers.DateTimeField(source="created_at")

    class Meta:
        list_serializer_class = MoveRecordListSerializer


# Many legal moves (``{"text", "move"}``): the dicts LegalMoveSerializer's fields make, built
# directly (a crowded Maatatahay decision has hundreds).
class LegalMoveListSerializer(serializers.ListSerializer):
    def to_representation(self, data: Any) -> list[dict[str, Any]]:
        return [
            {
                "text": str(legal["text"]),
                "move": {str(key): value for key, value in legal["move"].items()},
            }
            for legal in data
        ]


class LegalMoveSerializer(serializers.Serializer):
    text = serializers.CharField(help_text="The move text to send as `move`.")
    move = serializers.DictField(
        help_text="The same move structured: `type` and its fields "
        "(Onitama: card, from, to; Maatatahay: the decision's fields)."
    )

    class Meta:
        list_serializer_class = LegalMoveListSerializer


class DrawOfferSerializer(serializers.Serializer):
    side = serializers.CharField()
    ply = serializers.IntegerField()
    to_you = serializers.BooleanField()


# A ``Game``'s commitment to its seed, and the seed once the game is over.
class FairnessSerializer(serializers.Serializer):
    seed_commitment = serializers.CharField()
    revealed_salt = serializers.CharField(allow_blank=True, help_text="Empty until the game ends.")
    revealed_seed = serializers.CharField(allow_blank=True, help_text="Empty until the game ends.")


# A ``GamePage`` (games.selectors.game_for_viewer): the game as its viewer sees it.
class GameDetailSerializer(GameSummarySerializer):
    view = serializers.DictField(
        help_text="The engine's view of the table for you (a spectator's view "
        "if you do not play): never the hidden order."
    )
    moves = MoveRecordSerializer(many=True)
    time_left_seconds = serializers.IntegerField(
        allow_null=True,
        help_text="Seconds to the deadline when this answer was made (a 304 keeps the old "
        "value: count down from `deadline`).",
    )
    legal_moves = LegalMoveSerializer(many=True, help_text="Empty unless it is your turn.")
    can_abort = serializers.BooleanField()
    can_offer_draw = serializers.BooleanField()
    draw_offer = DrawOfferSerializer(allow_null=True)
    fairness = FairnessSerializer()

    @staticmethod
    def _draw_offer(page: GamePage) -> dict[str, Any] | None:
        offer: DrawOffer | None = page.draw_offer
        if offer is None:
            return None
        offer_seat = next((s for s in page.seats if s.pk == offer.seat_id), None)
        return {"side": offer_seat.side if offer_seat else "", "ply": offer.ply, "to_you": page.draw_offer_to_me}

    def to_representation(self, page: GamePage) -> dict[str, Any]:  # type: ignore[override]
        return _shaped(_shape_of(type(self)), self.detail_values(page), _viewer_id(self.context))

    def detail_values(self, page: GamePage) -> dict[str, Any]:
        """The answer's values, before its fields shape them."""
        values = self.summary_values(page.game, page.seats)
        values.update(
            {
                "view": page.view,
                "moves": page.moves,
                "time_left_seconds": int(page.time_left.total_seconds()) if page.time_left is not None else None,
                "legal_moves": [{"text": move.text, "move": move.parts} for move in page.legal_moves],
                "can_abort": page.can_abort,
                "can_offer_draw": page.can_offer_draw,
                "draw_offer": self._draw_offer(page),
                "fairness": page.game,
            }
        )
        return values


# A game's answer (a summary in a list, a detail) is shaped by fields bound once per process, to
# these instances, instead of DRF deep-copying and binding every field (nested ones included)
# for each answer: that was most of the cost of shaping one. The seats, the one nested part
# that depends on the viewer (``is_you``), are shaped with the viewer's id; what else the
# fields shape depends on nothing but the values. tests/games/test_api_shapes.py compares the
# answers with DRF's own walk of the same values. One instance per class (a subclass that adds
# fields gets its own).
_SHAPES: dict[type[serializers.Serializer], serializers.Serializer] = {}


def _shape_of(kind: type[serializers.Serializer]) -> serializers.Serializer:
    shape = _SHAPES.get(kind)
    if shape is None:
        shape = _SHAPES[kind] = kind()
    return shape


def _shaped(shape: serializers.Serializer, values: dict[str, Any], me: int | None) -> dict[str, Any]:
    """What ``Serializer.to_representation`` makes of ``values`` (a dict of the serializer's
    field names) for the viewer ``me``: a None value stays None, each other value is shaped
    by its field, in the fields' order."""
    shaped: dict[str, Any] = {}
    for name, field in shape.fields.items():
        value = values[name]
        if value is None:
            shaped[name] = None
        elif name == "seats":
            seat_walk = serializers.Serializer.to_representation  # DRF's walk, which needs no context
            shaped[name] = [seat_walk(_SEAT_SHAPE, SeatSerializer.seat_values(seat, me)) for seat in value]
        else:
            shaped[name] = field.to_representation(value)
    return shaped


_SEAT_SHAPE = SeatSerializer()


class MoveSubmitSerializer(serializers.Serializer):
    move = serializers.CharField(max_length=200, help_text="The move text, e.g. `boar:c1c2` or `place c3 r1`.")
    ply = serializers.IntegerField(
        min_value=0,
        max_value=100000,
        help_text="The game's `ply` you saw: the move is refused (409) if the game has moved on since.",
    )


# ``{"played": Move, "game": GamePage}``.
class MoveResultSerializer(serializers.Serializer):
    played = MoveRecordSerializer()
    game = GameDetailSerializer()


class SoloCreateSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=KIND_CHOICES)
    level = serializers.ChoiceField(choices=list(BOT_LEVELS))
    side = serializers.CharField(
        max_length=20,
        default="random",
        help_text="A side of the game (Onitama: red, blue; Maatatahay: wazu, balan) or `random`.",
    )
    options = serializers.DictField(
        required=False, default=dict, help_text="Game options (Onitama: cards; Maatatahay: variant, opening)."
    )


# ---------------------------------------------------------------- challenges


class ChallengeCreateSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=KIND_CHOICES)
    opponent = serializers.CharField(
        max_length=30,
        required=False,
        allow_null=True,
        default=None,
        help_text="Username; leave out for an open challenge.",
    )
    options = serializers.DictField(required=False, default=dict)
    days_per_move = serializers.ChoiceField(choices=DAYS_CHOICES, default=3)
    rated = serializers.BooleanField(default=True)
    side = serializers.CharField(max_length=20, default="random", help_text="The side you play, or `random`.")


# A ``Challenge`` (challenger and opponent loaded).
class ChallengeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=KIND_CHOICES)
    challenger = serializers.CharField(source="challenger.username")
    opponent = serializers.CharField(
        source="opponent.username", allow_null=True, help_text="Null for an open challenge."
    )
    options = serializers.DictField()
    days_per_move = serializers.IntegerField()
    rated = serializers.BooleanField()
    side = serializers.CharField(source="seat_choice", help_text="The side the challenger plays, or `random`.")
    status = serializers.ChoiceField(choices=ChallengeStatus.choices)
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    game_id = serializers.IntegerField(allow_null=True)
    rematch_of = serializers.IntegerField(
        source="rematch_of_id",
        allow_null=True,
        help_text="For a rematch offer: the ended game it replays with seats swapped; null for other challenges.",
    )


# A ``games.services.Rematch``: the offer, and the game once the rematch started.
class RematchSerializer(serializers.Serializer):
    challenge = ChallengeSerializer(
        allow_null=True,
        help_text="The rematch offer to the opponent (null against a bot): accept or decline it as any challenge.",
    )
    game_id = serializers.IntegerField(
        source="game.pk", allow_null=True, help_text="The rematch game, once it started (against a bot at once)."
    )


# The lobby's ``games.selectors.LobbyChallenges``.
class ChallengeListSerializer(serializers.Serializer):
    incoming = ChallengeSerializer(many=True)
    outgoing = ChallengeSerializer(many=True)
    open = ChallengeSerializer(
        many=True, source="open_to_all", help_text=_("Open challenges by others anyone may accept.")
    )


# ---------------------------------------------------------------- events


# An ``Event`` of the feed (games/events.py).
class EventSerializer(serializers.Serializer):
    cursor = serializers.CharField(source="cursor.text", help_text="Pass as `after` to get the events after this one.")
    kind = serializers.ChoiceField(choices=EventKind.choices)
    at = serializers.DateTimeField()
    game_id = serializers.IntegerField(allow_null=True)
    challenge_id = serializers.IntegerField(allow_null=True)
    # DRF's metaclass takes declared fields off the class, so Serializer.data stays the property.
    data = serializers.DictField()  # type: ignore[assignment]


# An ``EventPage`` of the feed.
class EventPageSerializer(serializers.Serializer):
    events = EventSerializer(many=True)
    cursor = serializers.CharField(source="cursor.text", help_text="Poll again with `after=<cursor>`.")
    has_more = serializers.BooleanField(help_text="True when more events wait: ask again at once.")


# ---------------------------------------------------------------- imported records


class RecordImportSerializer(serializers.Serializer):
    record = serializers.CharField(
        trim_whitespace=False,
        help_text="A game record in either format: the text record or the JSON replay record (as text).",
    )


class ImportedRecordSerializer(serializers.Serializer):
    """An imported record at one position (games.records.ImportedPosition): its header, its
    moves, and the public view after ``ply`` decisions. No bot evaluation."""

    id = serializers.IntegerField(source="imported.pk")
    game = serializers.CharField(source="record.game")
    plies = serializers.IntegerField(source="imported.plies")
    ply = serializers.IntegerField()
    tags = serializers.DictField(child=serializers.CharField(), source="record.tags")
    moves = serializers.ListField(child=serializers.CharField(), source="record.moves")
    view = serializers.DictField(help_text="The engine's public view of the position shown (as in a game's `view`).")
    last_move = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField(source="imported.created_at")

    def get_last_move(self, position: Any) -> str | None:
        return position.last.text if position.last else None


# A player's own queued conditional lines (Onitama): each line their move, your answer, ...
class ConditionalLinesSerializer(serializers.Serializer):
    lines = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField(max_length=40, trim_whitespace=True), max_length=20),
        max_length=100,
        help_text="Lines of at most 6 plies, alternating your opponent's move and your answer, "
        'e.g. `[["ox:c5c4", "boar:a1a2"]]`; at most 50 lines; an empty list clears them.',
    )
