"""The tournament's one reaction to games: record a finished game's result."""
from django.dispatch import receiver

from games.models import Game
from games.signals import game_finished

from . import services


@receiver(game_finished, sender=Game, dispatch_uid="tournaments.game_finished")
def on_game_finished(sender, game, result, **kwargs) -> None:
    services.tournament_game_record(game=game)
