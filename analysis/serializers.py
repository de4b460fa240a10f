"""The shapes of post-game analysis in the API."""

from __future__ import annotations

from rest_framework import serializers

from engine.analysis import MARK_KINDS

from .models import AnalysisStatus


class AnalysisPositionSerializer(serializers.Serializer):
    ply = serializers.IntegerField(help_text="The position after this many decisions (0: the start).")
    to_move = serializers.CharField(allow_null=True, help_text="The side to move; null once the game is over.")
    value = serializers.FloatField(
        help_text="The first side's advantage in [-1, 1] (Onitama red, Maatatahay balan): 1 a sure win, -1 a sure loss."
    )
    best = serializers.CharField(allow_null=True, help_text="The bot's move here (null at the end).")
    played = serializers.CharField(allow_null=True, help_text="The move played here (null for the last position).")
    win_in = serializers.IntegerField(
        allow_null=True, help_text="Onitama: a proven result for the first side, in plies (negative: a forced loss)."
    )
    forced = serializers.BooleanField(help_text="The side to move had a single legal move.")


class AnalysisMarkSerializer(serializers.Serializer):
    ply = serializers.IntegerField(help_text="The decision marked, counted from 1 as in the move list.")
    side = serializers.CharField()
    kind = serializers.ChoiceField(choices=MARK_KINDS)
    played = serializers.CharField()
    best = serializers.CharField(help_text="The bot's move in the position before the marked one.")
    before = serializers.FloatField(help_text="The mover's advantage before the move, in [-1, 1].")
    after = serializers.FloatField(help_text="The mover's advantage after it.")


class GameAnalysisSerializer(serializers.Serializer):
    game = serializers.IntegerField(source="game_id")
    status = serializers.ChoiceField(choices=AnalysisStatus.choices)
    bot_level = serializers.IntegerField()
    bot_version = serializers.CharField()
    game_ply = serializers.IntegerField(help_text="The decisions analysed.")
    requested_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    error = serializers.CharField(help_text="Why the analysis failed (empty otherwise).")
    positions = AnalysisPositionSerializer(many=True, help_text="Every position, with the bot's evaluation.")
    marks = AnalysisMarkSerializer(many=True)
