"""Apply a finished ladder game, inside the transaction that finishes it (games.signals.game_finished)."""
from django.dispatch import receiver
from games.models import Game
from games.signals import game_finished

from . import services


@receiver(game_finished, sender=Game, dispatch_uid="ladder.apply_finished_game")
def apply_finished_game(sender, game, result, **kwargs):
    services.ladder_record_result(game=game)
