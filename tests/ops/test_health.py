"""/healthz/: database, Redis, workers and beat, each ok, failing or not configured."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import OperationalError, connection
from django.urls import reverse
from django.utils import timezone

from maatasite.celery import app
from ops import selectors, services
from ops.models import Heartbeat

SWEEP = selectors.HEARTBEAT_TASK


@pytest.fixture
def queued(settings):
    """Tasks go through a broker (not run in-process), with a Redis-free cache."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = "memory://"
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    settings.OPS_BEAT_STALE_SECONDS = 120


@pytest.mark.django_db
def test_without_a_broker_workers_and_beat_are_not_configured(client, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    response = client.get(reverse("ops:healthz"))
    assert response.status_code == 200
    assert response.json() == {
        "database": "ok",
        "redis": "not configured",
        "workers": "not configured",
        "beat": "not configured",
    }


@pytest.mark.django_db
def test_a_fresh_sweep_heartbeat_means_workers_and_beat_are_ok(client, queued):
    services.heartbeat_record(name=SWEEP, now=timezone.now() - timedelta(seconds=30))
    response = client.get(reverse("ops:healthz"))
    assert response.status_code == 200
    assert response.json() == {"database": "ok", "redis": "not configured", "workers": "ok", "beat": "ok"}


@pytest.mark.django_db
def test_a_stale_heartbeat_and_no_worker_answering_is_503(client, queued, monkeypatch):
    services.heartbeat_record(name=SWEEP, now=timezone.now() - timedelta(seconds=121))
    pinged = []

    def ping(**kwargs) -> list:
        pinged.append(kwargs)
        return []  # no worker answers

    monkeypatch.setattr(app.control, "ping", ping)
    response = client.get(reverse("ops:healthz"))
    assert response.status_code == 503
    assert response.json()["beat"] == "failing"
    assert response.json()["workers"] == "failing"
    assert len(pinged) == 1  # the workers were asked


@pytest.mark.django_db
def test_workers_answering_a_ping_are_ok_while_beat_is_silent(client, queued, monkeypatch):
    monkeypatch.setattr(app.control, "ping", lambda **kwargs: [{"celery@worker": {"ok": "pong"}}])
    response = client.get(reverse("ops:healthz"))
    assert response.status_code == 503
    assert response.json() == {"database": "ok", "redis": "not configured", "workers": "ok", "beat": "failing"}


@pytest.mark.django_db
def test_an_unreachable_redis_is_failing_without_leaking_its_address(client, queued, settings):
    settings.CELERY_BROKER_URL = "redis://:secret-password@127.0.0.1:1/0"
    services.heartbeat_record(name=SWEEP)
    response = client.get(reverse("ops:healthz"))
    assert response.status_code == 503
    assert response.json()["redis"] == "failing"
    assert b"secret" not in response.content and b"127.0.0.1" not in response.content


@pytest.mark.django_db
def test_a_database_error_is_failing_not_a_500(client, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

    def refused(execute, sql, params, many, context):
        raise OperationalError("connection refused")

    with connection.execute_wrapper(refused):  # every query of the request fails, as with the server down
        response = client.get(reverse("ops:healthz"))
    assert response.status_code == 503
    assert response.json()["database"] == "failing"


@pytest.mark.django_db
def test_the_heartbeat_task_records_it_and_running_twice_keeps_one_row():
    from ops.tasks import heartbeat

    heartbeat.delay().get()
    heartbeat.delay().get()
    assert list(Heartbeat.objects.values_list("name", flat=True)) == [selectors.HEARTBEAT_TASK]
    last = selectors.last_heartbeat()
    assert last is not None and timezone.now() - last < timedelta(seconds=30)


def test_beat_schedules_the_heartbeat(settings):
    assert any(entry["task"] == selectors.HEARTBEAT_TASK for entry in settings.CELERY_BEAT_SCHEDULE.values())


@pytest.mark.services
def test_with_a_real_worker_and_beat_everything_is_ok(celery_worker, celery_beat, client, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    deadline = timezone.now() + timedelta(seconds=30)
    while not Heartbeat.objects.filter(name=SWEEP).exists():
        assert timezone.now() < deadline, "the beat-scheduled sweep never recorded a heartbeat"
        import time

        time.sleep(0.2)
    response = client.get(reverse("ops:healthz"))
    assert response.json() == {"database": "ok", "redis": "ok", "workers": "ok", "beat": "ok"}
    assert response.status_code == 200


@pytest.mark.django_db
def test_the_floor_view_is_constant_json_without_a_query(client, django_assert_num_queries):
    """/floor/, the trivial view the benches measure against, does nothing but answer."""
    with django_assert_num_queries(0):
        response = client.get("/floor/")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert response.json() == {"ok": True}
