"""Request and response shapes of the API (they are also its OpenAPI schema).

Responses are built from plain dicts by the presenters in api/presenters.py; no
serializer here ever reads ``Game.state`` or the sealed seed.
"""
from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from games.events import EventKind
from games.models import BOT_LEVELS, DAYS_PER_MOVE_CHOICES, ChallengeStatus, GameKind, GameStatus, ResultReason
from ops.models import ReportKind
from tournaments.models import TournamentFormat, TournamentStatus

from .docs import ErrorSerializer  # noqa: F401  (the error shape, documented once in api/docs.py)
from .models import SCOPES

KIND_CHOICES = GameKind.choices
DAYS_CHOICES = [d for d, _label in DAYS_PER_MOVE_CHOICES]


# ---------------------------------------------------------------- auth and tokens

class SignupSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=30)
    email = serializers.EmailField()
    password = serializers.CharField(max_length=128, write_only=True, style={"input_type": "password"})
    language = serializers.ChoiceField(choices=[("", "")] + list(settings.LANGUAGES), required=False,
                                       default="")


class SignupResultSerializer(serializers.Serializer):
    username = serializers.CharField()
    email = serializers.EmailField()
    message = serializers.CharField()


class ConfirmSerializer(serializers.Serializer):
    token = serializers.CharField(max_length=500, help_text="The token of the link in the confirmation mail.")


class EmailSerializer(serializers.Serializer):
    email = serializers.EmailField()


class EmailChangeSerializer(serializers.Serializer):
    email = serializers.EmailField(help_text="The new address (or the failing one, to confirm it again).")
    password = serializers.CharField(max_length=128, write_only=True, trim_whitespace=False,
                                     style={"input_type": "password"}, help_text="Your current password.")


class MessageSerializer(serializers.Serializer):
    message = serializers.CharField()


class PasswordResetConfirmSerializer(serializers.Serializer):
    uid = serializers.CharField(max_length=100, help_text="The uid part of the reset link in the mail.")
    token = serializers.CharField(max_length=100, help_text="The token part of the reset link.")
    new_password = serializers.CharField(max_length=128, write_only=True)


class TokenCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100, help_text="Your name for the token, e.g. the device.")
    scopes = serializers.ListField(child=serializers.ChoiceField(choices=SCOPES), min_length=1,
                                   max_length=len(SCOPES), default=list(SCOPES))


class CredentialsTokenSerializer(TokenCreateSerializer):
    username = serializers.CharField(max_length=254, help_text="Username or email address.")
    password = serializers.CharField(max_length=128, write_only=True)


class TokenSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    prefix = serializers.CharField(help_text="The first characters of the secret, to recognise it.")
    scopes = serializers.ListField(child=serializers.ChoiceField(choices=SCOPES))
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True)


class TokenSecretSerializer(TokenSerializer):
    token = serializers.CharField(help_text="The secret: shown this once, never again. "
                                            "Send it as `Authorization: Bearer <token>`.")


# ---------------------------------------------------------------- me and players

class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    email = serializers.EmailField()
    display_name = serializers.CharField(allow_blank=True)
    language = serializers.CharField(allow_blank=True)
    time_zone = serializers.CharField(allow_blank=True)
    email_on_your_turn = serializers.BooleanField()
    email_on_game_over = serializers.BooleanField()
    email_is_failing = serializers.BooleanField(help_text="Mail to you bounced or was marked as spam: none is sent.")
    date_joined = serializers.DateTimeField()


class PreferencesSerializer(serializers.Serializer):
    display_name = serializers.CharField(max_length=50, allow_blank=True, required=False)
    language = serializers.ChoiceField(choices=[("", "")] + list(settings.LANGUAGES), required=False)
    time_zone = serializers.CharField(max_length=64, allow_blank=True, required=False)
    email_on_your_turn = serializers.BooleanField(required=False)
    email_on_game_over = serializers.BooleanField(required=False)


class PlayerSerializer(serializers.Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField(allow_blank=True)
    date_joined = serializers.DateTimeField()
    games_played = serializers.IntegerField(help_text="Finished games.")
    games_active = serializers.IntegerField()


# ---------------------------------------------------------------- games

class SeatSerializer(serializers.Serializer):
    side = serializers.CharField()
    position = serializers.IntegerField()
    username = serializers.CharField(allow_null=True, help_text="Null for a bot or a deleted account "
                                                                "(`display_name` then says \"deleted player\").")
    display_name = serializers.CharField()
    bot_level = serializers.IntegerField(allow_null=True)
    is_you = serializers.BooleanField()


class ResultSerializer(serializers.Serializer):
    winner_side = serializers.CharField(allow_null=True, help_text="Null for a draw or an aborted game.")
    reason = serializers.ChoiceField(choices=ResultReason.choices)
    scores = serializers.DictField(child=serializers.IntegerField(), allow_null=True)


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


class MoveRecordSerializer(serializers.Serializer):
    ply = serializers.IntegerField()
    turn = serializers.IntegerField()
    side = serializers.CharField()
    text = serializers.CharField()
    played_at = serializers.DateTimeField()


class LegalMoveSerializer(serializers.Serializer):
    text = serializers.CharField(help_text="The move text to send as `move`.")
    move = serializers.DictField(help_text="The same move structured: `type` and its fields "
                                           "(Onitama: card, from, to; Maatatahay: the decision's fields).")


class DrawOfferSerializer(serializers.Serializer):
    side = serializers.CharField()
    ply = serializers.IntegerField()
    to_you = serializers.BooleanField()


class FairnessSerializer(serializers.Serializer):
    seed_commitment = serializers.CharField()
    revealed_salt = serializers.CharField(allow_blank=True, help_text="Empty until the game ends.")
    revealed_seed = serializers.CharField(allow_blank=True, help_text="Empty until the game ends.")


class GameDetailSerializer(GameSummarySerializer):
    view = serializers.DictField(help_text="The engine's view of the table for you (a spectator's view "
                                           "if you do not play): never the hidden order.")
    moves = MoveRecordSerializer(many=True)
    time_left_seconds = serializers.IntegerField(
        allow_null=True, help_text="Seconds to the deadline when this answer was made (a 304 keeps the old "
                                   "value: count down from `deadline`).")
    legal_moves = LegalMoveSerializer(many=True, help_text="Empty unless it is your turn.")
    can_abort = serializers.BooleanField()
    can_offer_draw = serializers.BooleanField()
    draw_offer = DrawOfferSerializer(allow_null=True)
    fairness = FairnessSerializer()


class MoveSubmitSerializer(serializers.Serializer):
    move = serializers.CharField(max_length=200, help_text="The move text, e.g. `boar:c1c2` or `place c3 r1`.")
    ply = serializers.IntegerField(min_value=0, max_value=100000,
                                   help_text="The game's `ply` you saw: the move is refused (409) if "
                                             "the game has moved on since.")


class MoveResultSerializer(serializers.Serializer):
    played = MoveRecordSerializer()
    game = GameDetailSerializer()


class SoloCreateSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=KIND_CHOICES)
    level = serializers.ChoiceField(choices=list(BOT_LEVELS))
    side = serializers.CharField(max_length=20, default="random",
                                 help_text="A side of the game (Onitama: red, blue; Maatatahay: wazu, "
                                           "balan) or `random`.")
    options = serializers.DictField(required=False, default=dict,
                                    help_text="Game options (Onitama: cards; Maatatahay: variant, opening).")


# ---------------------------------------------------------------- challenges

class ChallengeCreateSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=KIND_CHOICES)
    opponent = serializers.CharField(max_length=30, required=False, allow_null=True, default=None,
                                     help_text="Username; leave out for an open challenge.")
    options = serializers.DictField(required=False, default=dict)
    days_per_move = serializers.ChoiceField(choices=DAYS_CHOICES, default=3)
    rated = serializers.BooleanField(default=True)
    side = serializers.CharField(max_length=20, default="random",
                                 help_text="The side you play, or `random`.")


class ChallengeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=KIND_CHOICES)
    challenger = serializers.CharField()
    opponent = serializers.CharField(allow_null=True, help_text="Null for an open challenge.")
    options = serializers.DictField()
    days_per_move = serializers.IntegerField()
    rated = serializers.BooleanField()
    side = serializers.CharField(help_text="The side the challenger plays, or `random`.")
    status = serializers.ChoiceField(choices=ChallengeStatus.choices)
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    game_id = serializers.IntegerField(allow_null=True)


class ChallengeListSerializer(serializers.Serializer):
    incoming = ChallengeSerializer(many=True)
    outgoing = ChallengeSerializer(many=True)
    open = ChallengeSerializer(many=True, help_text=_("Open challenges by others anyone may accept."))


# ---------------------------------------------------------------- events

class EventSerializer(serializers.Serializer):
    cursor = serializers.CharField(help_text="Pass as `after` to get the events after this one.")
    kind = serializers.ChoiceField(choices=EventKind.choices)
    at = serializers.DateTimeField()
    game_id = serializers.IntegerField(allow_null=True)
    challenge_id = serializers.IntegerField(allow_null=True)
    # DRF's metaclass takes declared fields off the class, so Serializer.data stays the property.
    data = serializers.DictField()  # type: ignore[assignment]


class EventPageSerializer(serializers.Serializer):
    events = EventSerializer(many=True)
    cursor = serializers.CharField(help_text="Poll again with `after=<cursor>`.")
    has_more = serializers.BooleanField(help_text="True when more events wait: ask again at once.")


class PingSerializer(serializers.Serializer):
    ok = serializers.BooleanField()


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
