"""Rate a finished game, inside the transaction that finishes it (games.signals.game_finished)."""
from django.dispatch import receiver
from games.models import Game
from games.signals import game_finished

from . import services


@receiver(game_finished, sender=Game, dispatch_uid="ratings.rate_finished_game")
def rate_finished_game(sender, game, result, **kwargs):
    services.rating_record_result(game=game)
