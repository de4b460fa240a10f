"""Reads of the ops app: the health report, the heartbeats behind it, reports by status."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection
from django.utils import timezone

from maatasite.celery import app as celery_app

from .models import Heartbeat

logger = logging.getLogger(__name__)

OK, FAILING, NOT_CONFIGURED = "ok", "failing", "not configured"

# The beat-scheduled task that records a heartbeat each time a worker runs it
# (ops.tasks.heartbeat): fresh means beat schedules and a worker runs tasks.
HEARTBEAT_TASK = "ops.tasks.heartbeat"


def _guarded(check: Callable[[], str]) -> str:
    """Run one check; any error means failing (the details go to the log, never to the answer)."""
    try:
        return check()
    except Exception:  # noqa: BLE001 - a health check reports, it never raises
        logger.warning("health check %s failed", getattr(check, "__name__", check), exc_info=True)
        return FAILING


def _database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        return OK if cursor.fetchone() == (1,) else FAILING


def redis_urls() -> list[str]:
    """The Redis servers the site uses: the Celery broker (when tasks are queued) and the cache."""
    urls = []
    if not settings.CELERY_TASK_ALWAYS_EAGER and str(settings.CELERY_BROKER_URL).startswith(("redis://", "rediss://")):
        urls.append(str(settings.CELERY_BROKER_URL))
    cache = settings.CACHES.get("default", {})
    if "redis" in cache.get("BACKEND", "").lower():
        location = cache.get("LOCATION")
        urls.extend([location] if isinstance(location, str) else [str(url) for url in location or []])
    return urls


def _redis() -> str:
    import redis

    urls = redis_urls()
    if not urls:
        return NOT_CONFIGURED
    for url in urls:
        client = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
        try:
            if not client.ping():
                return FAILING
        finally:
            client.close()
    return OK


def last_heartbeat() -> datetime | None:
    """When a worker last ran the beat-scheduled heartbeat task."""
    beat = Heartbeat.objects.filter(name=HEARTBEAT_TASK).order_by("-seen_at").first()
    return beat.seen_at if beat else None


def _heartbeat_fresh(now: datetime) -> bool:
    seen = last_heartbeat()
    return seen is not None and now - seen <= timedelta(seconds=settings.OPS_BEAT_STALE_SECONDS)


def _workers_answer_ping() -> bool:
    return bool(celery_app.control.ping(timeout=0.5))


def health_report(*, now: datetime | None = None) -> dict[str, str]:
    """``ok``, ``failing`` or ``not configured`` for the database, Redis, workers and beat."""
    now = now or timezone.now()
    report = {"database": _guarded(_database), "redis": _guarded(_redis)}
    if settings.CELERY_TASK_ALWAYS_EAGER:
        report["workers"] = report["beat"] = NOT_CONFIGURED
        return report
    beat_fresh = report["database"] == OK and _guarded(lambda: OK if _heartbeat_fresh(now) else FAILING) == OK
    report["beat"] = OK if beat_fresh else FAILING
    if beat_fresh:
        report["workers"] = OK  # a worker ran the sweep recently
    else:
        report["workers"] = _guarded(lambda: OK if _workers_answer_ping() else FAILING)
    return report


def health_is_ok(report: dict[str, str]) -> bool:
    """Everything configured answers."""
    return all(value != FAILING for value in report.values())
