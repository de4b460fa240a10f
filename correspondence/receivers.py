"""Correspondence's receivers of games' hooks (games.signals), connected in CorrespondenceConfig.ready.

After a position changes (a game created, a decision played, a game over), the mail
pictures of the new position are drawn by a task enqueued after commit, once per game,
ply and player (correspondence.pictures), so the mail sweep only reads them.

A user's digest row follows their preferences when they are saved (``digest_alarm_follow``),
so the digest sweep reads only the rows that are due.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils import timezone

from games.models import Game
from games.signals import game_finished, game_result_changed, position_changed

from . import services, tasks


@receiver(position_changed, sender=Game, dispatch_uid="correspondence.pictures_on_move")
@receiver(game_finished, sender=Game, dispatch_uid="correspondence.pictures_on_finish")
@receiver(game_result_changed, sender=Game, dispatch_uid="correspondence.pictures_on_result")
def mail_pictures_enqueue(sender: Any, game: Game, **kwargs: Any) -> None:
    tasks.mail_pictures_render.delay_on_commit(game.pk)


@receiver(post_save, sender=get_user_model(), dispatch_uid="correspondence.digest_alarm_follow")
def digest_alarm_follow(sender: Any, instance: Any, created: bool, update_fields: Any = None, **kwargs: Any) -> None:
    if kwargs.get("raw"):
        return  # a fixture load: rows come with it
    if update_fields is not None and not services.DIGEST_FIELDS & set(update_fields):
        return  # a sign-in's last_login, a failing address...: nothing the digest follows
    if created and not services.digest_wanted(instance):
        return  # a new account has no row to remove
    services.digest_alarm_sync(user=instance, now=timezone.now())
