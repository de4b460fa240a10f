"""What tells the webhooks that a user may have new events (connected in WebhooksConfig.ready):
games' ``position_changed`` (a game made, a move: your_turn) and ``game_finished`` (game_over),
a challenge made and a message written (``post_save`` of their rows, made only by their services);
and an endpoint saved or deleted, which forgets whether its owner has one.
Each nudges, after the commit, the users concerned who have an active endpoint; beat's
``webhooks-sweep`` finds anything a lost nudge missed."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_delete, post_save

from chat.models import Message
from games.models import Challenge
from games.selectors import game_user_ids
from games.signals import game_finished, position_changed

from .models import Endpoint
from .services import endpoint_changed, users_nudge


def _on_position_changed(sender: Any, *, game: Any, **kwargs: Any) -> None:
    users_nudge(user_ids=game_user_ids(game))


def _on_game_finished(sender: Any, *, game: Any, **kwargs: Any) -> None:
    users_nudge(user_ids=game_user_ids(game))


def _on_challenge_saved(sender: Any, *, instance: Challenge, created: bool, **kwargs: Any) -> None:
    if created and instance.opponent_id is not None:
        users_nudge(user_ids=[instance.opponent_id])


def _on_message_saved(sender: Any, *, instance: Message, created: bool, **kwargs: Any) -> None:
    if created:
        users_nudge(user_ids=[u for u in game_user_ids(instance.game_id) if u != instance.author_id])


def _on_endpoint_changed(sender: Any, *, instance: Endpoint, **kwargs: Any) -> None:
    endpoint_changed(user_id=instance.user_id)


def connect() -> None:
    position_changed.connect(_on_position_changed, dispatch_uid="webhooks.position_changed")
    game_finished.connect(_on_game_finished, dispatch_uid="webhooks.game_finished")
    post_save.connect(_on_challenge_saved, sender=Challenge, dispatch_uid="webhooks.challenge")
    post_save.connect(_on_message_saved, sender=Message, dispatch_uid="webhooks.message")
    # every write of an endpoint is a save or a delete of its row (none is an update() of a
    # query): the cached "has an active endpoint" of its owner is forgotten
    post_save.connect(_on_endpoint_changed, sender=Endpoint, dispatch_uid="webhooks.endpoint_saved")
    post_delete.connect(_on_endpoint_changed, sender=Endpoint, dispatch_uid="webhooks.endpoint_deleted")
