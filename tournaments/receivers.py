"""The tournament's reactions to games: record a finished game's result, and follow a
result staff changed later (games.signals.game_result_changed)."""

from django.dispatch import receiver

from games.models import Game
from games.signals import game_finished, game_result_changed

from . import services


@receiver(game_finished, sender=Game, dispatch_uid="tournaments.game_finished")
def on_game_finished(sender, game, result, **kwargs) -> None:
    services.tournament_game_record(game=game)


@receiver(game_result_changed, sender=Game, dispatch_uid="tournaments.game_result_changed")
def on_game_result_changed(sender, game, previous, **kwargs) -> None:
    services.tournament_game_result_rewrite(game=game, previous=previous)
