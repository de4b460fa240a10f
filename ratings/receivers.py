"""Rate a finished game, inside the transaction that finishes it (games.signals.game_finished),
and replay the ratings when staff change an ended game's result (game_result_changed)."""

from django.dispatch import receiver

from games.models import Game
from games.signals import game_finished, game_result_changed

from . import services


@receiver(game_finished, sender=Game, dispatch_uid="ratings.rate_finished_game")
def rate_finished_game(sender, game, result, **kwargs):
    services.rating_record_result(game=game)


@receiver(game_result_changed, sender=Game, dispatch_uid="ratings.replay_changed_result")
def replay_changed_result(sender, game, previous, **kwargs):
    services.rating_result_changed(game=game, previous=previous)
