"""Request and response shapes of blocks and reports in the API: the responses read the
rows as they are (accounts.models.Block, fairplay.models.Report)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from .models import ReportKind


class BlockCreateSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=30, help_text="The player to block.")


class BlockSerializer(serializers.Serializer):
    username = serializers.CharField(source="blocked.username")
    display_name = serializers.CharField(source="blocked.display_name")
    blocked_at = serializers.DateTimeField(source="created_at")


class ReportCreateSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=ReportKind.values)
    reason = serializers.CharField(max_length=2000)
    player = serializers.CharField(
        max_length=30,
        required=False,
        allow_null=True,
        default=None,
        help_text="Username of the reported player (or give `game`).",
    )
    game = serializers.IntegerField(
        required=False, allow_null=True, default=None, help_text="Id of the reported game (or give `player`)."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if (attrs["player"] is None) == (attrs["game"] is None):
            raise serializers.ValidationError(_("Report either a player or a game."))
        return attrs


class UsernameField(serializers.CharField):
    """A user by username."""

    def to_representation(self, value: Any) -> str:
        return value.username


class ReportSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    reason = serializers.CharField()
    # A report on a game has no player: null.
    player = UsernameField(allow_null=True)
    game = serializers.IntegerField(source="game_id", allow_null=True)
    status = serializers.CharField()
    created_at = serializers.DateTimeField()
