"""Request and response shapes of ladders in the API: the responses read the ladder app's
own objects (Ladder rows, and ladder.selectors.LadderPage for one ladder)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.fields import read_through
from games.models import GameKind


class LadderSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=GameKind.choices)
    days_per_move = serializers.IntegerField()
    max_places_up = serializers.IntegerField(help_text="How many places above you may be challenged.")
    is_open = serializers.BooleanField()


class StandingSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    username = serializers.CharField(source="user.username")
    display_name = serializers.CharField(source="user.public_name")


class LadderGameSerializer(serializers.Serializer):
    game_id = serializers.IntegerField()
    challenger = serializers.CharField(source="challenger.username")
    defender = serializers.CharField(source="defender.username")


class MemberUsernameField(serializers.CharField):
    """A ladder member (LadderMember) by the username of its player."""

    def to_representation(self, value: Any) -> str:
        return value.user.username


class LadderDetailSerializer(LadderSerializer):
    # Reads a ladder.selectors.LadderPage, the ladder's own fields from its ``ladder`` (no
    # docstring here: the schema would show it as the component's description).
    standings = StandingSerializer(
        many=True, help_text="The top 50 positions; the standings endpoint pages through them all."
    )
    your_position = serializers.IntegerField(source="me.position", allow_null=True)
    you_may_challenge = serializers.ListField(
        child=MemberUsernameField(), source="challengeable", help_text="Usernames you may challenge now."
    )
    running = LadderGameSerializer(
        many=True, help_text="The newest 50 games in progress; the games endpoint pages through them all."
    )

    def get_fields(self) -> dict[str, Any]:
        return read_through(super().get_fields(), LadderSerializer._declared_fields, "ladder")


class LadderChallengeCreateSerializer(serializers.Serializer):
    defender = serializers.CharField(max_length=30, help_text="Username of a player above you.")
