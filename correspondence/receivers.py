"""Correspondence's receivers of games' hooks (games.signals), connected in CorrespondenceConfig.ready.

After a position changes (a game created, a decision played, a game over), the mail
pictures of the new position are drawn by a task enqueued after commit, once per game,
ply and player (correspondence.pictures), so the mail sweep only reads them.
"""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from games.models import Game
from games.signals import game_finished, game_result_changed, position_changed

from . import tasks


@receiver(position_changed, sender=Game, dispatch_uid="correspondence.pictures_on_move")
@receiver(game_finished, sender=Game, dispatch_uid="correspondence.pictures_on_finish")
@receiver(game_result_changed, sender=Game, dispatch_uid="correspondence.pictures_on_result")
def mail_pictures_enqueue(sender: Any, game: Game, **kwargs: Any) -> None:
    tasks.mail_pictures_render.delay_on_commit(game.pk)
