"""Celery tasks of tournaments: idempotent, acknowledged late, retried with backoff."""

from __future__ import annotations

from celery import shared_task
from django.db import IntegrityError

from maatasite.task_policy import RETRYING_TASK


@shared_task(name="tournaments.tasks.tournament_advance", **RETRYING_TASK)
def tournament_advance(self, tournament_id: int) -> str:
    """Pair the next round if the current one is complete (a no-op otherwise)."""
    from . import services  # at run time: services import this module to enqueue

    try:
        return services.tournament_advance(tournament_id=tournament_id)
    except IntegrityError:
        # Another worker created the same round between our reads: nothing to do.
        return "raced"


@shared_task(name="tournaments.tasks.tournaments_advance_sweep", **RETRYING_TASK)
def tournaments_advance_sweep(self) -> int:
    """The beat task (TOURNAMENTS_SWEEP_SECONDS): enqueue again the pairing tasks left undone."""
    from . import services  # at run time: services import this module to enqueue

    return services.tournaments_advance_requeue()


@shared_task(name="tournaments.tasks.tournament_end_date", **RETRYING_TASK)
def tournament_end_date(self, tournament_id: int) -> str:
    """Adjudicate the running games of a tournament whose end date passed, and finish it
    (a no-op when it is not due or already done)."""
    from . import services  # at run time: services import this module to enqueue

    return services.tournament_end_date_reach(tournament_id=tournament_id)


@shared_task(name="tournaments.tasks.tournaments_end_date_sweep", **RETRYING_TASK)
def tournaments_end_date_sweep(self) -> int:
    """The beat task (TOURNAMENTS_SWEEP_SECONDS): enqueue the end-date task of every running
    tournament whose end date has passed."""
    from . import services  # at run time: services import this module to enqueue

    return services.tournaments_end_date_due()
