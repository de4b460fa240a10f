"""Request and response shapes of the account export and deletion (privacy app) in the API.

The export is privacy.services.account_export's document as it is, the same JSON as
the file downloaded from the settings page; these serializers only document it."""

from __future__ import annotations

from rest_framework import serializers

from accounts.models import TurnMail
from games.models import GameKind, GameStatus, PlayerResult, ResultReason
from tournaments.models import ParticipantStatus


class AccountDeleteSerializer(serializers.Serializer):
    password = serializers.CharField(
        max_length=128,
        write_only=True,
        trim_whitespace=False,
        style={"input_type": "password"},
        help_text="Your current password, to confirm.",
    )


class ExportMailSerializer(serializers.Serializer):
    email_on_your_turn = serializers.BooleanField()
    email_on_game_over = serializers.BooleanField()
    turn_mail = serializers.ChoiceField(choices=TurnMail.choices)
    digest_hour = serializers.IntegerField()
    email_reminders = serializers.BooleanField()
    quiet_hours_start = serializers.IntegerField(allow_null=True)
    quiet_hours_end = serializers.IntegerField(allow_null=True)


class ExportProfileSerializer(serializers.Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField(allow_blank=True)
    email = serializers.CharField(allow_blank=True)
    email_confirmed = serializers.BooleanField()
    language = serializers.CharField(allow_blank=True)
    time_zone = serializers.CharField(allow_blank=True)
    date_joined = serializers.DateTimeField()
    last_login = serializers.DateTimeField(allow_null=True)
    vacation_since = serializers.DateTimeField(allow_null=True)
    mail = ExportMailSerializer()


class ExportSeatSerializer(serializers.Serializer):
    side = serializers.CharField()
    player = serializers.CharField(allow_null=True, help_text="The player's public name; null for a bot.")
    bot_level = serializers.IntegerField(allow_null=True)


class ExportMoveSerializer(serializers.Serializer):
    ply = serializers.IntegerField()
    turn = serializers.IntegerField()
    side = serializers.CharField()
    text = serializers.CharField(help_text="The move in the game's notation.")
    played_at = serializers.DateTimeField()


class ExportGameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=GameKind.choices)
    options = serializers.DictField()
    rated = serializers.BooleanField()
    days_per_move = serializers.IntegerField()
    status = serializers.ChoiceField(choices=GameStatus.choices)
    your_side = serializers.CharField()
    seats = ExportSeatSerializer(many=True)
    opponents = serializers.ListField(child=serializers.CharField())
    result = serializers.ChoiceField(
        choices=PlayerResult.choices, allow_null=True, help_text="Your result; null while the game runs."
    )
    winner_side = serializers.CharField(allow_null=True)
    reason = serializers.ChoiceField(choices=ResultReason.choices, allow_null=True)
    scores = serializers.DictField(child=serializers.IntegerField(), allow_null=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    seed_commitment = serializers.CharField()
    revealed_salt = serializers.CharField(allow_null=True, help_text="Null until the game is over.")
    revealed_seed = serializers.CharField(allow_null=True, help_text="Null until the game is over.")
    moves = ExportMoveSerializer(many=True)


class ExportRatingSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=GameKind.choices)
    rating = serializers.FloatField()
    deviation = serializers.FloatField()
    volatility = serializers.FloatField()
    games_played = serializers.IntegerField()
    last_played_at = serializers.DateTimeField(allow_null=True)


class ExportRatingChangeSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=GameKind.choices)
    opponent = serializers.CharField()
    score = serializers.FloatField()
    rating_before = serializers.FloatField()
    rating_after = serializers.FloatField()
    deviation_before = serializers.FloatField()
    deviation_after = serializers.FloatField()
    opponent_rating = serializers.FloatField()
    rated_at = serializers.DateTimeField()


class ExportRatingsSerializer(serializers.Serializer):
    current = ExportRatingSerializer(many=True, help_text="As of each game's last rated result.")
    history = ExportRatingChangeSerializer(many=True)


class ExportBlockSerializer(serializers.Serializer):
    player = serializers.CharField()
    blocked_at = serializers.DateTimeField()


class ExportReportSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    reason = serializers.CharField()
    status = serializers.CharField()
    player = serializers.CharField(allow_null=True)
    game = serializers.IntegerField(allow_null=True)
    reported_at = serializers.DateTimeField()


class ExportLadderSerializer(serializers.Serializer):
    ladder = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=GameKind.choices)
    position = serializers.IntegerField(allow_null=True, help_text="Null once you left.")
    joined_at = serializers.DateTimeField()
    left_at = serializers.DateTimeField(allow_null=True)


class ExportTournamentSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=GameKind.choices)
    tournament_status = serializers.CharField()
    status = serializers.ChoiceField(choices=ParticipantStatus.values)
    seed = serializers.IntegerField(allow_null=True)
    registered_at = serializers.DateTimeField()
    withdrawn_at = serializers.DateTimeField(allow_null=True)


class ExportMessageSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    ply = serializers.IntegerField(help_text="The game's ply when you wrote it.")
    text = serializers.CharField()
    written_at = serializers.DateTimeField()


class ExportReplyByMailSerializer(serializers.Serializer):
    received_at = serializers.DateTimeField()
    processed_at = serializers.DateTimeField(allow_null=True, help_text="Null until it was played.")
    outcome = serializers.CharField(allow_null=True, help_text="What it did: `played`, `rejected`, `stale`, ...")
    message = serializers.CharField(
        allow_null=True,
        help_text="The mail as received; null when it did not come from your address, or is not judged yet.",
    )


class ExportImportedRecordSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=GameKind.choices)
    plies = serializers.IntegerField(help_text="Its number of decisions.")
    imported_at = serializers.DateTimeField()
    record = serializers.CharField(help_text="The record as you imported it (either record format).")


class ExportWebhookAttemptSerializer(serializers.Serializer):
    at = serializers.DateTimeField()
    event_id = serializers.CharField()
    event = serializers.CharField()
    delivered = serializers.BooleanField()
    status_code = serializers.IntegerField(allow_null=True, help_text="The receiver's HTTP status; null if none came.")
    error = serializers.CharField(allow_null=True)


class ExportWebhookSerializer(serializers.Serializer):
    url = serializers.CharField()
    events = serializers.ListField(child=serializers.CharField())
    active = serializers.BooleanField()
    disabled_reason = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    delivery_log = ExportWebhookAttemptSerializer(many=True, help_text="The last 50 attempts, newest first.")


class AccountExportSerializer(serializers.Serializer):
    format = serializers.CharField(help_text="Always `maatasite-account-export`.")
    version = serializers.IntegerField(help_text="The version of this format (1).")
    profile = ExportProfileSerializer()
    games = ExportGameSerializer(many=True)
    imported_records = ExportImportedRecordSerializer(
        many=True, help_text="The game records you imported to the analysis board."
    )
    ratings = ExportRatingsSerializer()
    blocks = ExportBlockSerializer(many=True, help_text="The players you blocked.")
    reports = ExportReportSerializer(many=True, help_text="The reports you made.")
    ladders = ExportLadderSerializer(many=True)
    tournaments = ExportTournamentSerializer(many=True)
    messages = ExportMessageSerializer(many=True, help_text="What you wrote to the other players of your games.")
    replies_by_mail = ExportReplyByMailSerializer(
        many=True, help_text="The replies by mail sent to your reply addresses, kept for a few days."
    )
    webhooks = ExportWebhookSerializer(
        many=True, help_text="Your webhook endpoints (not their secrets) and their logs."
    )
