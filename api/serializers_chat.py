"""Request and response shapes of the game messages (chat app) in the API."""
from __future__ import annotations

from rest_framework import serializers

from chat.models import MESSAGE_MAX_LENGTH


class GameMessageCreateSerializer(serializers.Serializer):
    # The chat service strips, checks the length and refuses empty text (400 with its own code).
    text = serializers.CharField(allow_blank=True, trim_whitespace=False,
                                 help_text="At most %d characters once stripped; not empty." % MESSAGE_MAX_LENGTH)


class GameMessageSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    author = serializers.CharField(allow_null=True,
                                   help_text="The author's username; null once the author deleted the account.")
    author_name = serializers.CharField(help_text="The author's public name.")
    text = serializers.CharField()
    ply = serializers.IntegerField(help_text="The game's ply when the message was written.")
    created_at = serializers.DateTimeField()
