"""Request and response shapes of the endpoints still in api/views.py (ratings, ladders,
tournaments, blocks, reports), until they move to their apps. The shapes of accounts and
games are in accounts/serializers.py and games/serializers.py.
"""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from accounts.serializers import MessageSerializer, PlayerSerializer  # noqa: F401  (MessageSerializer: api/views_privacy.py)
from fairplay.models import ReportKind
from games.models import GameKind
from games.serializers import GameDetailSerializer  # noqa: F401  (api/views.py's ladder challenge answers a game)
from tournaments.models import TournamentFormat, TournamentStatus

from .docs import ErrorSerializer  # noqa: F401  (the error shape, documented once in api/docs.py)

KIND_CHOICES = GameKind.choices


# ---------------------------------------------------------------- ratings and ladders

class RatingSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=KIND_CHOICES)
    rating = serializers.FloatField(help_text="Glicko-2 rating now (the deviation grows while idle).")
    deviation = serializers.FloatField()
    provisional = serializers.BooleanField()
    display = serializers.CharField(help_text='Rounded, with "?" when provisional, e.g. "1500?".')
    games_played = serializers.IntegerField()


class PlayerRatingSerializer(RatingSerializer):
    username = serializers.CharField()


class PlayerProfileSerializer(PlayerSerializer):
    ratings = RatingSerializer(many=True)


class LadderSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=KIND_CHOICES)
    days_per_move = serializers.IntegerField()
    max_places_up = serializers.IntegerField(help_text="How many places above you may be challenged.")
    is_open = serializers.BooleanField()


class StandingSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    username = serializers.CharField()
    display_name = serializers.CharField()


class LadderGameSerializer(serializers.Serializer):
    game_id = serializers.IntegerField()
    challenger = serializers.CharField()
    defender = serializers.CharField()


class LadderDetailSerializer(LadderSerializer):
    standings = StandingSerializer(many=True)
    your_position = serializers.IntegerField(allow_null=True)
    you_may_challenge = serializers.ListField(child=serializers.CharField(),
                                              help_text="Usernames you may challenge now.")
    running = LadderGameSerializer(many=True)


class LadderChallengeCreateSerializer(serializers.Serializer):
    defender = serializers.CharField(max_length=30, help_text="Username of a player above you.")


# ---------------------------------------------------------------- tournaments (shapes of tournaments/api.py)

# Drafts are never shown (tournaments/api.py answers 404 for one).
TOURNAMENT_STATUSES = [status for status in TournamentStatus.values if status != TournamentStatus.DRAFT]
PAIRING_RESULT_HELP = ('From the first player\'s side: "" pending, "1-0", "0-1", "1/2-1/2", "bye", '
                       'forfeits "1F-0F", "0F-1F", "0F-0F"; "void": not played (the tournament ended early).')


class TournamentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.ChoiceField(choices=KIND_CHOICES)
    format = serializers.ChoiceField(choices=TournamentFormat.values)
    status = serializers.ChoiceField(choices=TOURNAMENT_STATUSES)
    days_per_move = serializers.IntegerField()
    rated = serializers.BooleanField()
    vacation_allowed = serializers.BooleanField(help_text="Whether a player's vacation stops the clock "
                                                          "of their games here.")
    swiss_rounds = serializers.IntegerField(allow_null=True, help_text="Swiss only; null: as many as needed.")
    cycles = serializers.IntegerField(help_text="Round robin: 1 single, 2 double (seats swapped).")
    registration_opens_at = serializers.DateTimeField(allow_null=True)
    registration_closes_at = serializers.DateTimeField(allow_null=True)
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField(allow_null=True)
    rating_min = serializers.IntegerField(allow_null=True)
    rating_max = serializers.IntegerField(allow_null=True)
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class TournamentListSerializer(serializers.Serializer):
    results = TournamentSerializer(many=True, help_text="Newest first, at most 200.")


class TournamentPlayerSerializer(serializers.Serializer):
    username = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True, help_text="1 is the best rated; set at the start.")
    status = serializers.CharField(help_text='"active" or "withdrawn".')


class TournamentPairingSerializer(serializers.Serializer):
    board = serializers.IntegerField()
    replay = serializers.IntegerField(help_text="Knockout: 0, then 1 and 2 for the replays of a drawn match.")
    first = serializers.CharField()
    second = serializers.CharField(allow_null=True, help_text="null for a bye.")
    game = serializers.IntegerField(allow_null=True, help_text="The game's id; null for a bye or a forfeit.")
    result = serializers.CharField(allow_blank=True, help_text=PAIRING_RESULT_HELP)


class TournamentRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    pairings = TournamentPairingSerializer(many=True)


class TournamentDetailSerializer(TournamentSerializer):
    planned_rounds = serializers.IntegerField()
    registration_open = serializers.BooleanField()
    players = TournamentPlayerSerializer(many=True)
    rounds = TournamentRoundSerializer(many=True)


class TournamentStandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)
    points = serializers.FloatField()
    buchholz = serializers.FloatField()
    sonneborn_berger = serializers.FloatField()
    head_to_head = serializers.FloatField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    byes = serializers.IntegerField()
    withdrawn = serializers.BooleanField()


class BracketGameSerializer(serializers.Serializer):
    game = serializers.IntegerField(allow_null=True)
    result = serializers.CharField(allow_blank=True, help_text=PAIRING_RESULT_HELP)
    replay = serializers.IntegerField()


class BracketMatchSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    board = serializers.IntegerField()
    first = serializers.CharField(allow_null=True)
    second = serializers.CharField(allow_null=True)
    winner = serializers.CharField(allow_null=True)
    games = BracketGameSerializer(many=True)


class TournamentStandingsSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.ChoiceField(choices=KIND_CHOICES)
    format = serializers.ChoiceField(choices=TournamentFormat.values)
    status = serializers.ChoiceField(choices=TOURNAMENT_STATUSES)
    current_round = serializers.IntegerField(help_text="Rounds started so far.")
    standings = TournamentStandingSerializer(many=True)
    bracket = serializers.ListField(child=BracketMatchSerializer(many=True), required=False,
                                    help_text="Knockout only: the matches of each round.")


class TournamentRegistrationSerializer(serializers.Serializer):
    registered = serializers.BooleanField()


class BlockCreateSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=30, help_text="The player to block.")


class BlockSerializer(serializers.Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField()
    blocked_at = serializers.DateTimeField()


class ReportCreateSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=ReportKind.values)
    reason = serializers.CharField(max_length=2000)
    player = serializers.CharField(max_length=30, required=False, allow_null=True, default=None,
                                   help_text="Username of the reported player (or give `game`).")
    game = serializers.IntegerField(required=False, allow_null=True, default=None,
                                    help_text="Id of the reported game (or give `player`).")

    def validate(self, attrs):
        if (attrs["player"] is None) == (attrs["game"] is None):
            raise serializers.ValidationError(_("Report either a player or a game."))
        return attrs


class ReportSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    reason = serializers.CharField()
    player = serializers.CharField(allow_null=True)
    game = serializers.IntegerField(allow_null=True)
    status = serializers.CharField()
    created_at = serializers.DateTimeField()
