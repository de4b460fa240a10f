"""Request and response shapes of the game messages in the API: the response serializer
reads chat.models.Message rows as they are."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from .models import MESSAGE_MAX_LENGTH


class GameMessageCreateSerializer(serializers.Serializer):
    # The chat service strips, checks the length and refuses empty text (400 with its own code).
    text = serializers.CharField(
        allow_blank=True,
        trim_whitespace=False,
        help_text="At most %d characters once stripped; not empty." % MESSAGE_MAX_LENGTH,
    )


class AuthorUsernameField(serializers.CharField):
    """A message author's username, kept back once the account is deleted."""

    def to_representation(self, value: Any) -> Any:  # str | None (CharField's stubs say str)
        return None if value.is_deleted else value.username


class GameMessageSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    author = AuthorUsernameField(
        allow_null=True, help_text="The author's username; null once the author deleted the account."
    )
    author_name = serializers.CharField(source="author.public_name", help_text="The author's public name.")
    text = serializers.CharField()
    ply = serializers.IntegerField(help_text="The game's ply when the message was written.")
    created_at = serializers.DateTimeField()
