"""Celery tasks of the games app. All are idempotent (safe to run twice),
acknowledged late and retried with backoff on database or mail trouble.
They are enqueued by games.services with ``delay_on_commit`` (maatasite/task_policy.py), so
each task imports the services it runs inside its body: services import this module.
"""

from __future__ import annotations

from celery import Task, shared_task

from maatasite.task_policy import RETRYING_TASK, retry_countdown

from .bots import BotFailed


def _bot_turn_play(task: Task, game_id: int, ply: int) -> list[str]:
    """The body of ``bot_turn_play`` and of its old name's alias."""
    from . import services  # at run time: services import this module to enqueue

    try:
        return services.bot_turn_play(game_id=game_id, ply=ply).played
    except BotFailed as error:
        if task.request.retries >= task.max_retries:
            services.bot_turn_flag(game_id=game_id, ply=ply, failure=str(error))
            return []
        raise task.retry(exc=error, countdown=retry_countdown(task.request.retries)) from error


@shared_task(name="games.tasks.bot_turn_play", **RETRYING_TASK)
def bot_turn_play(self: Task, game_id: int, ply: int) -> list[str]:
    """Play the bot's turn that began at ``ply`` (a no-op when the game moved on):
    services.bot_turn_play.

    A bot that fails is retried with backoff; when it failed on the last retry
    (``max_retries``) the game is flagged for staff and its clock held, and the
    task ends without a move (services.bot_turn_flag)."""
    return _bot_turn_play(self, game_id, ply)


@shared_task(name="games.tasks.bot_play_turn", **RETRYING_TASK)
def bot_play_turn(self: Task, game_id: int, ply: int) -> list[str]:
    """The task's name before it agreed with its service's: kept for one release so that
    messages queued under it before a deploy still run. Nothing enqueues it; remove it in
    the release after the rename."""
    return _bot_turn_play(self, game_id, ply)


@shared_task(name="games.tasks.bot_turns_sweep", **RETRYING_TASK)
def bot_turns_sweep(self) -> int:
    """The beat task (GAMES_BOT_SWEEP_SECONDS): enqueue again the bot turns left undone."""
    from . import services  # at run time: services import this module to enqueue

    return services.bot_turns_requeue()


@shared_task(name="games.tasks.games_timeout_sweep", **RETRYING_TASK)
def games_timeout_sweep(self) -> dict[str, int]:
    """The beat task: end games past their deadline (after extending the deadlines
    of an outage, and holding them for staff when too many are due at once) and
    expire old challenges. (Mail about games is scheduled as alarms, sent by the
    correspondence sweep.)"""
    from . import outages, services  # at run time: services import this module to enqueue

    swept = outages.games_sweep()
    return {
        "games_timed_out": swept.timed_out,
        "games_extended_for_outage": swept.extended,
        "games_held_for_staff": swept.held,
        "challenges_expired": services.challenges_expire(),
    }
