"""Response shapes of ratings in the API: they read ratings.selectors.RatingShown rows, and a
player's profile (PlayerProfile) for /api/v1/players/<username>/."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rest_framework import serializers

from accounts.serializers import PlayerSerializer
from api.fields import RoundedFloatField, read_through
from games.models import GameKind

from .selectors import RatingShown


class LeaderboardQuerySerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=GameKind.choices)


class RatingSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=GameKind.choices)
    rating = RoundedFloatField(decimals=1, help_text="Glicko-2 rating now (the deviation grows while idle).")
    deviation = RoundedFloatField(decimals=1)
    provisional = serializers.BooleanField()
    display = serializers.CharField(help_text='Rounded, with "?" when provisional, e.g. "1500?".')
    games_played = serializers.IntegerField()


class PlayerRatingSerializer(RatingSerializer):
    username = serializers.CharField(source="user.username")


@dataclass(frozen=True)
class PlayerProfile:
    """What a player's public profile shows: the account, its game counts and ratings."""

    user: Any
    games_played: int
    games_active: int
    ratings: list[RatingShown]


class PlayerProfileSerializer(PlayerSerializer):
    ratings = RatingSerializer(many=True)

    def get_fields(self) -> dict[str, Any]:
        return read_through(super().get_fields(), ("username", "display_name", "date_joined"), "user")
