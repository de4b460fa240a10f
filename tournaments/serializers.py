"""Response shapes of tournaments in the API (and of the standings.json page): they read the
tournaments app's own objects (Tournament rows, the tournament_detail and
tournament_standings_page reads of tournaments.selectors).

Registering and withdrawing take no input but the tournament of the path."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.fields import read_through
from games.models import GameKind

from . import selectors
from .models import TournamentFormat

# Drafts are never shown (the endpoints answer 404 for one): the statuses of the listed ones.
TOURNAMENT_STATUSES = [status.value for status in selectors.LISTED_STATUSES]
PAIRING_RESULT_HELP = (
    'From the first player\'s side: "" pending, "1-0", "0-1", "1/2-1/2", "bye", '
    'forfeits "1F-0F", "0F-1F", "0F-0F"; "void": not played (the tournament ended early).'
)


class PlayerNameField(serializers.CharField):
    """A player (a user) by name: the username, or "deleted player" (selectors.player_name)."""

    def to_representation(self, value: Any) -> str:
        return selectors.player_name(value)


class TournamentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.ChoiceField(choices=GameKind.choices, source="kind")
    format = serializers.ChoiceField(choices=TournamentFormat.values)
    status = serializers.ChoiceField(choices=TOURNAMENT_STATUSES)
    days_per_move = serializers.IntegerField()
    rated = serializers.BooleanField()
    vacation_allowed = serializers.BooleanField(
        help_text="Whether a player's vacation stops the clock of their games here."
    )
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
    ends_at = serializers.DateTimeField(
        allow_null=True,
        help_text="The end date: when it passes, the games still running are adjudicated and the tournament "
        "ends. A pause moves it on by the length of the pause. Null: no end date.",
    )


class TournamentPlayerSerializer(serializers.Serializer):
    username = PlayerNameField(source="user")
    seed = serializers.IntegerField(allow_null=True, help_text="1 is the best rated; set at the start.")
    status = serializers.CharField(help_text='"active" or "withdrawn".')


class TournamentPairingSerializer(serializers.Serializer):
    board = serializers.IntegerField()
    replay = serializers.IntegerField(
        source="leg", help_text="Knockout: 0, then 1 and 2 for the replays of a drawn match."
    )
    first = PlayerNameField(source="first.user")
    # A bye has no second participant: ``second.user`` is then missing, and null is shown.
    second = PlayerNameField(source="second.user", allow_null=True, help_text="null for a bye.")
    game = serializers.IntegerField(
        source="game_id", allow_null=True, help_text="The game's id; null for a bye or a forfeit."
    )
    result = serializers.CharField(allow_blank=True, help_text=PAIRING_RESULT_HELP)


class TournamentRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    pairings = TournamentPairingSerializer(many=True)

    def to_representation(self, instance: Any) -> Any:
        number, pairings = instance  # tournament_detail's rounds are (number, pairings)
        return super().to_representation({"number": number, "pairings": pairings})


class ApiPageFields(serializers.Serializer):
    # The page-number fields of the tournament and its standings (the selectors' ``page``;
    # ``next`` and ``previous`` are the view's links).
    page = serializers.IntegerField(source="page.number", help_text="This page's number, from 1.")
    pages = serializers.IntegerField(source="page.pages", help_text="How many pages the longest list here fills.")
    page_size = serializers.IntegerField(source="page.size")
    next = serializers.CharField(allow_null=True, help_text="The next page's address; null on the last page.")
    previous = serializers.CharField(allow_null=True, help_text="The previous page's address; null on the first.")


class TournamentDetailSerializer(TournamentSerializer, ApiPageFields):
    # Reads tournaments.selectors.tournament_detail, the tournament's own fields from its
    # ``tournament`` (no docstring: the schema would show it as the component's description).
    planned_rounds = serializers.IntegerField()
    registration_open = serializers.BooleanField()
    player_count = serializers.IntegerField(help_text="All the players, on every page.")
    pairing_count = serializers.IntegerField(help_text="All the pairings of every round, on every page.")
    players = TournamentPlayerSerializer(
        many=True, source="participants", help_text="This page's players, in seed order."
    )
    rounds = TournamentRoundSerializer(
        many=True,
        help_text="This page's pairings (in round, board and replay order) by round: a round can "
        "go on over the next page, where it is listed again with its further pairings.",
    )

    def get_fields(self) -> dict[str, Any]:
        return read_through(super().get_fields(), TournamentSerializer._declared_fields, "tournament")


class TournamentStandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = PlayerNameField(source="participant.user")
    seed = serializers.IntegerField(source="participant.seed", allow_null=True)
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
    game = serializers.IntegerField(source="game_id", allow_null=True)
    result = serializers.CharField(allow_blank=True, help_text=PAIRING_RESULT_HELP)
    replay = serializers.IntegerField(source="leg")


class BracketMatchSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    board = serializers.IntegerField()
    # A match waiting for a player, or not decided yet, has no participant there: null.
    first = PlayerNameField(source="first.user", allow_null=True)
    second = PlayerNameField(source="second.user", allow_null=True)
    winner = PlayerNameField(source="winner.user", allow_null=True)
    games = BracketGameSerializer(many=True)


class TournamentStandingsSerializer(serializers.Serializer):
    # Reads tournaments.selectors.tournament_standings_page ("bracket" only for a knockout).
    id = serializers.IntegerField(source="tournament.id")
    name = serializers.CharField(source="tournament.name")
    game = serializers.ChoiceField(choices=GameKind.choices, source="tournament.kind")
    format = serializers.ChoiceField(choices=TournamentFormat.values, source="tournament.format")
    status = serializers.ChoiceField(choices=TOURNAMENT_STATUSES, source="tournament.status")
    current_round = serializers.IntegerField(help_text="Rounds started so far.")
    player_count = serializers.IntegerField(help_text="All the ranked players, on every page.")
    standings = TournamentStandingSerializer(many=True, help_text="This page's rows, best first.")
    match_count = serializers.IntegerField(required=False, help_text="Knockout only: all the bracket's matches.")
    bracket = serializers.ListField(
        child=BracketMatchSerializer(many=True),
        required=False,
        help_text="Knockout only: this page's matches (in round and board order) by round.",
    )


class TournamentStandingsPageSerializer(TournamentStandingsSerializer, ApiPageFields):
    pass


class TournamentRegistrationSerializer(serializers.Serializer):
    registered = serializers.BooleanField()


def tournament_standings_data(*, tournament_id: int) -> dict[str, Any]:
    """The whole standings as JSON data: the standings.json page's (the API's endpoint pages them)."""
    return TournamentStandingsSerializer(
        selectors.tournament_standings_page(tournament_id=tournament_id, per_page=0)
    ).data
