"""Celery tasks of the games app. All are idempotent (safe to run twice),
acknowledged late and retried with backoff on database or mail trouble.
They are enqueued by games.services with ``transaction.on_commit``.
"""
from __future__ import annotations

from celery import shared_task

from maatasite.task_policy import RETRYING_TASK, retry_countdown

from . import outages, services
from .bots import BotFailed


@shared_task(name="games.tasks.bot_play_turn", **RETRYING_TASK)
def bot_play_turn(self, game_id: int, ply: int) -> list[str]:
    """Play the bot's turn that began at ``ply`` (a no-op when the game moved on).

    A bot that fails is retried with backoff; when it failed on the last retry
    (``max_retries``) the game is flagged for staff and its clock held, and the
    task ends without a move (services.bot_turn_flag)."""
    try:
        return services.bot_turn_play(game_id=game_id, ply=ply).played
    except BotFailed as error:
        if self.request.retries >= self.max_retries:
            services.bot_turn_flag(game_id=game_id, ply=ply, failure=str(error))
            return []
        raise self.retry(exc=error, countdown=retry_countdown(self.request.retries)) from error


@shared_task(name="games.tasks.bot_turns_sweep", **RETRYING_TASK)
def bot_turns_sweep(self) -> int:
    """The beat task (GAMES_BOT_SWEEP_SECONDS): enqueue again the bot turns left undone."""
    return services.bot_turns_requeue()


@shared_task(name="games.tasks.games_timeout_sweep", **RETRYING_TASK)
def games_timeout_sweep(self) -> dict[str, int]:
    """The beat task: end games past their deadline (after extending the deadlines
    of an outage, and holding them for staff when too many are due at once) and
    expire old challenges. (Mail about games is scheduled as alarms, sent by the
    correspondence sweep.)"""
    swept = outages.games_sweep()
    return {"games_timed_out": swept.timed_out,
            "games_extended_for_outage": swept.extended,
            "games_held_for_staff": swept.held,
            "challenges_expired": services.challenges_expire()}
