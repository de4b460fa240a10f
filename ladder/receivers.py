"""Apply a finished ladder game, inside the transaction that finishes it (games.signals.game_finished);
note a result staff changed later (game_result_changed: positions stay, see the service)."""

from django.dispatch import receiver

from games.models import Game
from games.signals import game_finished, game_result_changed

from . import services


@receiver(game_finished, sender=Game, dispatch_uid="ladder.apply_finished_game")
def apply_finished_game(sender, game, result, **kwargs):
    services.ladder_record_result(game=game)


@receiver(game_result_changed, sender=Game, dispatch_uid="ladder.note_changed_result")
def note_changed_result(sender, game, previous, **kwargs):
    services.ladder_result_change_note(game=game, previous=previous)
